// The broker's page in Debian's headless Chromium: it shows what was published and deployed, the matrix,
// one contract's view and the "who uses this" index; a breaking draft pasted into its form shows red,
// the consumer it breaks named. No script runs, and the CSP is kept without a violation.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumMissing, launchChromium } from '../../../test/helpers/chromium.js'
import {
  APP,
  appContract,
  build,
  client,
  documentJson,
  PRINTER,
  printerContract,
  sqliteUrl,
  withoutTag,
} from './helpers.js'

const missing = chromiumMissing()

/** An element's background colour as the browser painted it (run in the page: tsc knows no DOM here). */
const background = (element: unknown) =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
    element,
  ).backgroundColor

describe.skipIf(missing)('the broker page in Chromium', () => {
  let app: FastifyInstance
  let origin = ''
  beforeAll(async () => {
    app = await build(sqliteUrl(), { openReads: true })
    const c = client(app)
    await c.environment('production', true)
    await c.contract(APP, 'a1b2c3d4e5f6a7b8', appContract)
    await c.contract(PRINTER, 'p1', printerContract)
    await c.document('s1', documentJson())
    await c.verify('s1')
    for (const [application, version] of [
      ['plant-store', 's1'],
      [APP, 'a1b2c3d4e5f6a7b8'],
      [PRINTER, 'p1'],
    ] as const)
      await c.deploy(application, version, 'production')
    origin = await app.listen({ host: '127.0.0.1', port: 0 })
  })
  afterAll(() => app?.close())

  it('shows environments, the matrix, a contract, the index, and a breaking draft in red', async () => {
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      // A locator that finds nothing fails in seconds, naming itself, rather than at the test's timeout.
      page.setDefaultTimeout(5_000)
      const violations: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
      })
      const answer = await page.goto(`${origin}/`)
      expect(answer?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'self'/)
      expect(await page.locator('script').count()).toBe(0)
      expect(await page.locator('h2').allInnerTexts()).toEqual(['production (production)', 'The matrix'])
      const deployed = await page.locator('table').first().innerText()
      expect(deployed).toContain(APP)
      expect(deployed).toContain('a1b2c3d4e5f6')
      expect(deployed).toContain(PRINTER)
      expect(
        await page
          .locator('table')
          .first()
          .locator('td.ok', { hasText: 'served by the store deployed here' })
          .count(),
      ).toBe(2)
      expect(
        await page
          .locator('table')
          .first()
          .locator('td.ok', { hasText: /^verified$/ })
          .count(),
      ).toBe(1)
      const matrix = page.locator('table').nth(1)
      expect(await matrix.locator('td.ok').count()).toBe(4)
      // The stylesheet applies: a compatible cell is green.
      expect(await matrix.locator('td.ok').first().evaluate(background)).toBe('rgb(227, 246, 227)')

      await page.locator(`a:has-text("a1b2c3d4e5f6")`).click()
      expect(await page.locator('h1').innerText()).toBe(`${APP} a1b2c3d4e5f6`)
      expect(await page.locator('pre').innerText()).toContain('"operationId": "listPlants"')

      await page.goto(`${origin}/ui/uses`)
      const tag = page.locator('tr', { hasText: 'GET /plants 200: [].tag' })
      expect(await tag.innerText()).toContain(APP)
      expect(await tag.innerText()).not.toContain(PRINTER)
      const remove = page.locator('tr', {
        has: page.locator('code', { hasText: /^DELETE \/plants\/\{id\}$/ }),
      })
      expect(await remove.innerText()).toContain(PRINTER)

      await page.goto(`${origin}/ui/check`)
      await page.locator('textarea').fill(documentJson(withoutTag))
      await page.locator('button[type=submit]').click()
      await page.locator('h1').waitFor()
      expect(await page.locator('h1').innerText()).toBe('The draft: it breaks a consumer')
      const red = page.locator('tr.bad')
      expect(await red.count()).toBe(1)
      expect(await red.innerText()).toContain(APP)
      expect(await red.innerText()).toContain('[].tag')
      expect(await red.evaluate(background)).toBe('rgb(251, 220, 220)')
      expect(await page.locator('tr.ok').innerText()).toContain(PRINTER)
      expect(violations).toEqual([])
    } finally {
      await browser.close()
    }
  }, 60_000)
})
