// Unit and integration tests of the real server (the contract suite has its own config in contracts/).
// The API tests run twice: on SQLite, and on PostgreSQL when its binaries are installed (always on CI).
import { defineConfig } from 'vitest/config'
import { INSTALL_HINT, postgresBinDir } from './scripts/lib/postgres.js'
import { exitWithParent } from './scripts/lib/processes.js'

/** The API tests whose every case runs on each store. */
const onEveryStore = [
  'test/plants.test.ts',
  'test/int64.test.ts',
  'test/int64-pages.test.ts',
  'test/security.test.ts',
]

// Stopped from outside, the run ends with it, and what its workers started with them.
exitWithParent()

/**
 * What judges the document and the verifier's reasoning, the same on every Node line: CI runs it once,
 * in `npm test`, and leaves it out on the other lines (NODE_LINE_CHECK=true).
 */
const sameOnEveryLine = [
  'test/contract-variants.test.ts',
  'test/verify-implementations.test.ts',
  'test/fixtures/**',
]
const lineCheck = process.env.NODE_LINE_CHECK === 'true'
if (lineCheck)
  console.warn(
    `left out on this Node line, run once in npm test: ${sameOnEveryLine.join(', ')} (NODE_LINE_CHECK=true)`,
  )

const postgres = postgresBinDir() !== undefined || process.env.CI === 'true'
if (!postgres)
  console.warn(`API tests on PostgreSQL skipped: initdb and postgres were not found; ${INSTALL_HINT}`)

export default defineConfig({
  // @plant-store/* from their sources, by tsconfig.json's paths as tsc and tsx take them: no build first.
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // test/packages/ packs and installs the packages: a stage of `npm test` of its own.
        test: {
          name: 'all',
          include: ['test/**/*.test.ts'],
          exclude: ['test/packages/**', ...(lineCheck ? sameOnEveryLine : [])],
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'api on postgresql',
                include: onEveryStore,
                env: { TEST_STORE: 'postgres' },
                // One cluster for the project's files; each app gets a database of its own.
                globalSetup: ['test/helpers/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
})
