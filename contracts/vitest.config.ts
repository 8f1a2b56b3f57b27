// Vitest settings for `npm run contract`: the contract suite alone, one file, results as JUnit XML too.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { exitWithParent } from '../scripts/lib/processes.js'

// Stopped from outside (its npm killed, a CI step's time-out), the run ends with it: the workers and
// the targets they started end with it in turn.
exitWithParent()

export default defineConfig({
  // @plant-store/* from their sources, by tsconfig.json's paths: no build first.
  resolve: { tsconfigPaths: true },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    // *.contract.ts, not *.test.ts: the unit test run must not pick the contract suite up.
    include: ['contracts/**/*.contract.ts'],
    // One file, one worker: the targets are started once and the coverage is counted in one place.
    fileParallelism: false,
    testTimeout: 20_000,
    // The stalled requests of one target wait out its headers timeout together (plant-store.contract.ts).
    maxConcurrency: 10,
    hookTimeout: 120_000,
    // The server is started from dist/, as users run it.
    globalSetup: ['test/helpers/build-global-setup.ts'],
    reporters: ['default', 'junit'],
    outputFile: { junit: 'reports/contract.junit.xml' },
  },
})
