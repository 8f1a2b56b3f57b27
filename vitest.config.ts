// Unit and integration tests of the kit's packages and of what spans them (the contract suite has its
// own config in contracts/, and test/packages/ its own too).
// The API tests run twice: on SQLite, and on PostgreSQL when its binaries are installed (always on CI).
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { INSTALL_HINT, postgresBinDir } from './scripts/lib/postgres.js'
import { exitWithParent } from './scripts/lib/processes.js'

/**
 * Where tests live: each package's own in its test/ folder (src/server/test/, …), the compatibility
 * gate's in contracts/compat/test/, and what spans the kit (the document, the launchers, the mock, the
 * contract suite's runs, recording and replay) in test/.
 */
const tests = ['test/**/*.test.ts', 'src/*/test/**/*.test.ts', 'contracts/*/test/**/*.test.ts']

/** The test files of one folder by name: `inFolder('test', 'spec')` is test/spec.test.ts. */
const inFolder = (folder: string, ...names: string[]) => names.map((name) => `${folder}/${name}.test.ts`)

/** The API tests whose every case runs on each store. */
const onEveryStore = inFolder('src/server/test', 'plants', 'int64', 'int64-pages', 'security')

// Stopped from outside, the run ends with it, and what its workers started with them.
exitWithParent()

/**
 * What can differ from one Node line to another: the server and its stores (Node's HTTP layer, its
 * streams and timers, the SQLite driver's binary, the PostgreSQL driver). CI runs the whole suite once,
 * in `npm test`, and on the other lines only these (NODE_LINE_CHECK=true), then installs the packages
 * from their tarballs and runs them there (test/packages/outside.test.ts, mock-and-proxy.test.ts): the
 * verifier, the client, the handlers, the mock and the proxy run on each line that way. The rest judges the document, the verifier's reasoning or
 * pages in Chromium, which are the same on every line. Left to the first line too: the sandbox (its
 * principals are a JavaScript map in memory, its slowest test 100,000 tokens) and kill -9 under load
 * (what it judges is SQLite's one Node-API binary and the order of a commit and its answers, the same
 * code on every line; the server's start and stop on each line are server-process's), and the API
 * tests on PostgreSQL (the driver is pure JavaScript, and postgres-instances runs the server on it).
 */
const differsByLine = [
  ...inFolder(
    'src/server/test',
    'auth',
    'config',
    'full-disk',
    'int64',
    'int64-pages',
    'jwt',
    'log-destination',
    'log-format',
    'plants',
    'postgres-instances',
    'rate-limit',
    'refusals',
    'reliability',
    'repository',
    'security',
    'server-process',
    'soak',
    'webhooks',
    'window-counter',
  ),
  ...inFolder('src/core/test', 'memory-repository'),
]
/**
 * The files that take longest (`npm run test:slowest` measures them), slowest first. Vitest orders files
 * by the times it kept from earlier runs; where it has none (a fresh clone, CI) it starts the largest
 * files first, and these, small files that wait on processes of their own, would be left to run alone at
 * the end while the other worker idles.
 */
const longest = [
  'test/contract-variants.test.ts',
  'src/verify/test/verify-implementations.test.ts',
  'src/verify/test/verify.test.ts',
  'test/planted-bugs/planted.test.ts',
  'src/verify/test/verify-webhooks.test.ts',
  'src/verify/test/verify-cli.test.ts',
  'test/launchers.test.ts',
  'src/verify/test/verify-config.test.ts',
  'test/nothing-left-behind.test.ts',
  'src/server/test/server-process.test.ts',
  'src/server/test/webhooks.test.ts',
  'src/server/test/crash.test.ts',
]

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    if (files.every((file) => this.ctx.cache.getTestSpecificationResult(file))) return sorted
    const rank = (file: TestSpecification) => {
      const at = longest.findIndex((name) => file.moduleId.endsWith(name))
      return at < 0 ? longest.length : at
    }
    // Within a project only: vitest runs its projects one after another.
    const projects = [...new Set(sorted.map((file) => file.project.name))]
    const group = (file: TestSpecification) => projects.indexOf(file.project.name)
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b))
  }
}

const lineCheck = process.env.NODE_LINE_CHECK === 'true'
if (lineCheck)
  console.warn(
    'on this Node line, only what can differ between lines (NODE_LINE_CHECK=true); the API tests on ' +
      'PostgreSQL are left to the first line: the PostgreSQL driver is exercised on this one by ' +
      'postgres-instances.test.ts, two servers on one database',
  )

const postgres = postgresBinDir() !== undefined || process.env.CI === 'true'
if (!postgres)
  console.warn(`API tests on PostgreSQL skipped: initdb and postgres were not found; ${INSTALL_HINT}`)

export default defineConfig({
  // @plant-store/* from their sources, by tsconfig.json's paths as tsc and tsx take them: no build first.
  resolve: { tsconfigPaths: true },
  test: {
    // Most files wait on the servers they start more than they compute: two at a time even on two
    // cores, where vitest's default (one fewer than the cores) would run them one by one (three at a time
    // there took longer: the servers they start compete for the cores too).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    // Tests marked concurrent wait on processes of their own (the contract suite on drafts of the
    // document): two at a time keeps the waits overlapping without crowding two cores.
    maxConcurrency: 2,
    sequence: { sequencer: LongestFirst },
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // test/packages/ packs and installs the packages: a stage of `npm test` of its own.
        test: {
          name: 'all',
          include: lineCheck ? differsByLine : tests,
          exclude: ['test/packages/**', '**/node_modules/**', '**/dist/**'],
          // The server and the verifier's command are started from dist/, as users run them.
          globalSetup: ['test/helpers/build-global-setup.ts'],
        },
      },
      ...(postgres && !lineCheck
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
