// The packages installed from their tarballs (test/packages/outside.test.ts, and a Vite + React app in
// Chromium, consumer.test.ts): a stage of `npm test` of its own, as it packs, builds and installs from the
// registry, which the unit run on every Node need not.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/packages/**/*.test.ts'],
    // The packages packed once for every file (and, on CI, for every Node line): packed.ts.
    globalSetup: ['test/packages/packed.ts'],
    // Two files at once, whatever the cores: each mostly waits (on the registry, on npm's installs, on a
    // browser), and they share nothing but the tarballs, which none of them writes.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 480_000,
    reporters: ['default', 'junit'],
    outputFile: { junit: 'reports/packages.junit.xml' },
  },
})
