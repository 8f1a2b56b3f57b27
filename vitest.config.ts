// Unit and integration tests of the real server (the contract suite has its own config in contracts/).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/msw-on-node-20.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
