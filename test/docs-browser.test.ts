// /docs in Debian's headless Chromium, on the real server and the sandbox at a port of their own: the
// page offers its own origin as the server, authorizes with a token, and createPlant then getPlant
// run from the page answer 200 with the values the page fills in; allOf schemas read as objects. All
// of it under the page's Content-Security-Policy, which the browser enforces without a violation.
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../scripts/lib/processes.js'
import { build } from './helpers/build.js'
import { chromiumMissing, launchChromium } from './helpers/chromium.js'

const missing = chromiumMissing()

async function execute(page: Page, operationId: string): Promise<string> {
  const block = page.locator(`#operations-plants-${operationId}`)
  await block.locator('.opblock-summary').first().click()
  await block.locator('button.try-out__btn').click()
  await block.locator('button.execute').click()
  const status = block.locator('.live-responses-table tbody .response-col_status').first()
  await status.waitFor({ timeout: 15_000 })
  return (await status.innerText()).trim()
}

describe.skipIf(missing).each([
  ['real server', { AUTH_TOKENS: 'docs:docs-token' }],
  ['sandbox', { SANDBOX: 'true', NODE_ENV: 'development' }],
])('/docs on the %s', (name, env) => {
  let app: FastifyInstance
  let origin = ''

  beforeAll(async () => {
    app = await build(env)
    origin = await app.listen({ host: '127.0.0.1', port: 0 })
  }, 60_000)
  afterAll(() => app?.close())

  it('runs createPlant and getPlant from the page against its own origin, under its CSP', async () => {
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } })
      // Chromium reports each thing the CSP blocks on the console.
      const violations: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
      })
      const answer = await page.goto(`${origin}/docs/`)
      const policy = answer?.headers()['content-security-policy'] ?? ''
      expect(policy).toMatch(/(^|; )default-src 'none'(;|$)/)
      expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/)
      expect(policy).not.toMatch(/unsafe/)
      await page.locator('.swagger-ui .information-container').waitFor({ timeout: 30_000 })
      const servers = await page.locator('.servers select option').allInnerTexts()
      expect(servers[0]).toMatch(/^\//)

      await page.locator('button.authorize').first().click()
      await page.locator('.modal-ux input').first().fill('docs-token')
      await page.locator('.modal-ux button.authorize').click()
      await page.locator('.modal-ux button.btn-done').click()

      expect(await execute(page, 'createPlant')).toBe('200')
      expect(await execute(page, 'getPlant')).toBe('200')
      // The request went to the page's origin, with the token.
      const url = await page.locator('#operations-plants-getPlant .request-url pre').first().innerText()
      expect(url).toMatch(new RegExp(`^${origin}/plants/\\d+$`))

      // An allOf schema reads as one object with its properties, not as "(any & object)".
      const model = page.locator('section.models article[data-json-schema-level="0"]', {
        has: page.locator('.json-schema-2020-12__title', { hasText: /^NewPlant$/ }),
      })
      await model.locator('.json-schema-2020-12-accordion').first().click()
      const text = await model.innerText()
      expect(text).toMatch(/^NewPlant[\s\S]*object/)
      // Each property starts a line of its own: "name", then its controls and type.
      expect(text).toMatch(/\nname/)
      expect(text).toMatch(/\nid/)
      expect(text).not.toMatch(/\bany\b/)
      expect(violations).toEqual([])

      // The policy is in force: a script the page did not load from its origin does not run.
      const ran = await page.evaluate(`(() => {
        const script = document.createElement('script')
        script.textContent = 'document.body.dataset.injected = "yes"'
        document.body.append(script)
        return document.body.dataset.injected
      })()`)
      expect(ran).toBeUndefined()
      await expect.poll(() => violations.length).toBe(1)
      expect(violations[0]).toMatch(/script-src/)
      await page.screenshot({
        path: join(repoRoot, 'reports', `docs-try-it-out-${name.replace(' ', '-')}.png`),
        fullPage: true,
      })
    } finally {
      await browser.close()
    }
  }, 90_000)
})
