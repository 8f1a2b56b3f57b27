// The app itself in Chromium, through vitest's browser mode and MSW's service worker: the same app test
// as under jsdom. With PLANT_STORE_CONTRACT set, @plant-store/msw's plugin records its consumer contract.
import { plantStoreContract } from '@plant-store/msw/vitest'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [plantStoreContract()],
  test: {
    include: ['src/app.spec.tsx'],
    setupFiles: ['./vitest.browser.setup.ts'],
    browser: {
      enabled: true,
      headless: true,
      // The machine's own Chromium (CHROMIUM_PATH), not one Playwright downloads.
      provider: playwright({
        launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: ['--no-sandbox'] },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
