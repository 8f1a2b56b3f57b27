// A real browser: a page that uses the plant store handlers through MSW's service worker, in Debian's
// Chromium, creates, lists (following Link), replaces and deletes a plant; a screenshot goes to reports/.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../../scripts/lib/processes.js'
import { chromiumMissing, launchChromium } from '../../../test/helpers/chromium.js'
import { servePage } from '../../../test/helpers/page-server.js'

const missing = chromiumMissing()

describe.skipIf(missing)('the handlers in a browser, through the service worker', () => {
  let page: Awaited<ReturnType<typeof servePage>>

  beforeAll(async () => {
    page = await servePage('test/browser/page.ts')
  }, 60_000)

  afterAll(() => page?.close())

  it('creates, lists, replaces and deletes a plant, with no plant store server running', async () => {
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/`)
      await tab.waitForFunction('"plantStoreResults" in window', undefined, { timeout: 30_000 })
      const results = (await tab.evaluate('window.plantStoreResults')) as {
        step: string
        ok: boolean
        detail: string
      }[]
      await tab.screenshot({ path: join(repoRoot, 'reports', 'browser-handlers.png'), fullPage: true })
      expect(results.map((r) => r.step)).toEqual(['create', 'list', 'replace', 'delete'])
      for (const r of results) expect(r.ok, `${r.step}: ${r.detail}`).toBe(true)
    } finally {
      await browser.close()
    }
  }, 60_000)
})
