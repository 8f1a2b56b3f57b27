// The app's own tests, under jsdom, whose page address is where the client's and the handlers' relative
// '/api' both resolve.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'jsdom',
    // Without it jsdom's page is http://localhost:3000/.
    environmentOptions: { jsdom: { url: 'http://localhost:5173/' } },
    setupFiles: ['./vitest.setup.ts'],
  },
})
