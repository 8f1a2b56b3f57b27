// A real browser: a page that uses the plant store handlers through MSW's service worker, in Debian's
// Chromium, creates, lists (following Link), replaces and deletes a plant; a screenshot goes to reports/.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../scripts/lib/processes.js'
import { chromiumMissing, launchChromium } from './helpers/chromium.js'

const missing = chromiumMissing()

describe.skipIf(missing)('the handlers in a browser, through the service worker', () => {
  let server: Server
  let origin = ''

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(repoRoot, 'test/browser/page.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    })
    const files: Record<string, [string, string | Uint8Array]> = {
      '/': ['text/html', await readFile(join(repoRoot, 'test/browser/page.html'))],
      '/page.js': ['text/javascript', bundle.outputFiles[0]?.contents ?? ''],
      // The worker script MSW's `npx msw init` would copy into an app's public folder.
      '/mockServiceWorker.js': [
        'text/javascript',
        await readFile(join(repoRoot, 'node_modules/msw/lib/mockServiceWorker.js')),
      ],
    }
    server = createServer((req, res) => {
      const file = files[req.url ?? '']
      if (!file) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, { 'content-type': file[0] }).end(file[1])
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)

  afterAll(() => new Promise((resolve) => server?.close(resolve)))

  it('creates, lists, replaces and deletes a plant, with no plant store server running', async () => {
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.goto(`${origin}/`)
      await page.waitForFunction('"plantStoreResults" in window', undefined, { timeout: 30_000 })
      const results = (await page.evaluate('window.plantStoreResults')) as {
        step: string
        ok: boolean
        detail: string
      }[]
      await page.screenshot({ path: join(repoRoot, 'reports', 'browser-handlers.png'), fullPage: true })
      expect(results.map((r) => r.step)).toEqual(['create', 'list', 'replace', 'delete'])
      for (const r of results) expect(r.ok, `${r.step}: ${r.detail}`).toBe(true)
    } finally {
      await browser.close()
    }
  }, 60_000)
})
