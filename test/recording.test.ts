// From real traffic to a stand-in and a regression test: traffic recorded through the proxy in front of
// the real server (a HAR file that stays whole when the proxy is killed) starts the sandbox's and the
// handlers' stores as it left them, and replayed by the verifier against a fresh server it gives the
// same plants, ids digit for digit; an exchange that departed from the document is never imported.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Har, type HarEntry, parseJsonBody, readRecording } from '@plant-store/core'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { startProxy } from '@plant-store/verify/proxy'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generousLimits, proxy, sandbox } from '../scripts/lib/commands.js'
import { repoRoot, runToExit, type Started, startProcess } from '../scripts/lib/processes.js'
import { loadConfig } from '../src/server/config.js'
import { chromiumMissing, launchChromium } from './helpers/chromium.js'
import { servePage } from './helpers/page-server.js'
import { startServer } from './helpers/server-process.js'

const TOKENS = { AUTH_TOKENS: 'alice:token-a,bob:token-b' }
const BIG = '9007199254740993'
const BASIL = `{"id":${BIG},"name":"Basil","tag":"herb"}`
const FERN = '{"id":9007199254740995,"name":"Fern"}'
const started: Started[] = []
let work = ''
let har = ''
let recorded: Har
let answered: string[] = []

const idsOf = (text: string) => [...text.matchAll(/"id":(-?\d+)/g)].map((m) => m[1])
/** A list answer's plants as `id name tag`, the id read digit for digit, whatever the order of keys. */
const plantsOf = (text: string) =>
  (parseJsonBody(text) as { id: bigint | number; name: string; tag?: string }[]).map((p) =>
    [String(p.id), p.name, p.tag].filter(Boolean).join(' '),
  )
const RECORDED_PLANTS = [`${BIG} Basil herb`, '9007199254740995 Fern']

async function call(base: string, token: string, method: string, path: string, body?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, text: await response.text(), link: response.headers.get('link') }
}

/** What the recording's first principal does, and the second's one plant, through `base`; each answer's text. */
async function traffic(base: string): Promise<string[]> {
  const seen: string[] = []
  const step = async (token: string, method: string, path: string, body?: string) => {
    const answer = await call(base, token, method, path, body)
    seen.push(answer.text)
    return answer
  }
  expect((await step('token-a', 'POST', '/plants', BASIL)).status).toBe(200)
  expect((await step('token-a', 'POST', '/plants', FERN)).status).toBe(200)
  expect((await step('token-a', 'POST', '/plants', '{"id":3,"name":"Mint"}')).status).toBe(200)
  expect((await step('token-a', 'DELETE', '/plants/3')).status).toBe(204)
  const first = await step('token-a', 'GET', '/plants?limit=1')
  expect(first.link).not.toBeNull()
  const next = /<([^>]+)>/.exec(first.link ?? '')?.[1] ?? ''
  expect((await step('token-a', 'GET', `/plants${next}`)).status).toBe(200)
  expect((await step('token-b', 'POST', '/plants', '{"id":7,"name":"Cactus"}')).status).toBe(200)
  expect((await step('token-b', 'GET', `/plants/${BIG}`)).status).toBe(404)
  return seen
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-recording-'))
  har = join(work, 'traffic.har')
  const server = await startServer(TOKENS)
  started.push(server)
  const front = await startProcess({ ...proxy(server.url, { record: har }), timeoutMs: 30_000 })
  started.push(front)
  answered = await traffic(front.url)
  // Killed outright, as a crash would: the recording must be whole all the same.
  await front.kill9()
  recorded = JSON.parse(await readFile(har, 'utf8')) as Har
}, 90_000)

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()))
  if (work) await rm(work, { recursive: true, force: true })
})

describe('recording through the proxy', () => {
  it('writes every exchange as HAR 1.2, bodies as sent, tokens as pseudonyms, each with its verdict', async () => {
    const { entries } = recorded.log
    expect(recorded.log.version).toBe('1.2')
    expect(entries).toHaveLength(8)
    expect(entries[0]?.request.postData?.text).toBe(BASIL)
    // Each body as the client read it, byte for byte: the ids beyond 2^53 with every digit.
    expect(entries.map((e) => e.response.content.text)).toEqual(answered)
    expect(plantsOf(entries[5]?.response.content.text ?? '')).toEqual([RECORDED_PLANTS[1]])
    const auth = entries.map((e) => e.request.headers.find((h) => h.name.toLowerCase() === 'authorization'))
    expect(auth.map((h) => h?.value)).toEqual([
      ...Array(6).fill('Bearer principal-1'),
      'Bearer principal-2',
      'Bearer principal-2',
    ])
    expect(await readFile(har, 'utf8')).not.toMatch(/token-a|token-b/)
    expect(entries.map((e) => e._contract)).toEqual(
      entries.map((e) => ({
        ok: true,
        operation: e.request.method === 'POST' ? 'createPlant' : expect.any(String),
        findings: [],
      })),
    )
  })

  it('pseudonymizes Authorization and redacts the headers named, with the exported function too', async () => {
    const server = started[0] as Started
    const file = join(work, 'redacted.har')
    const front = await startProxy({ upstream: server.url, record: { file, redactHeaders: ['X-Api-Key'] } })
    try {
      for (const token of ['token-a', 'token-b', 'token-a'])
        await fetch(`${front.url}/plants/1`, {
          headers: { authorization: `Bearer ${token}`, 'x-api-key': 'sk_live_secret' },
        }).then((r) => r.text())
    } finally {
      await front.close()
    }
    const text = await readFile(file, 'utf8')
    expect(text).not.toMatch(/sk_live_secret|token-a|token-b/)
    const { entries } = (JSON.parse(text) as Har).log
    const value = (e: HarEntry | undefined, name: string) =>
      e?.request.headers.find((h) => h.name.toLowerCase() === name)?.value
    expect(entries.map((e) => value(e, 'authorization'))).toEqual([
      'Bearer principal-1',
      'Bearer principal-2',
      'Bearer principal-1',
    ])
    expect(value(entries[0], 'x-api-key')).toBe('[redacted]')
  })
})

/** The recording with one more create, by principal-1, that the proxy found departing from the document. */
function withDeparture(): Har {
  const copy = structuredClone(recorded)
  const create = structuredClone(copy.log.entries[0] as HarEntry)
  if (create.request.postData) create.request.postData.text = '{"id":99,"name":"Ghost"}'
  create.response.content.text = '{"nom":"Ghost"}'
  create._contract = {
    ok: false,
    operation: 'createPlant',
    findings: [{ check: 'response_schema_conformance', message: "body must have required property 'name'" }],
  }
  copy.log.entries.push(create)
  return copy
}

describe('replaying the recording as a mock', () => {
  it('starts the sandbox (--seed) with each principal’s plants as the recording left them', async () => {
    const file = join(work, 'departed.har')
    await writeFile(file, JSON.stringify(withDeparture()))
    const box = await startProcess({
      ...sandbox({ env: generousLimits }),
      args: [
        join(repoRoot, 'src/server/bin/plant-store-server.js'),
        '--sandbox',
        '--seed',
        file,
        '--port',
        '0',
      ],
      timeoutMs: 30_000,
    })
    started.push(box)
    const one = await call(box.url, 'principal-1', 'GET', '/plants')
    expect(one.status).toBe(200)
    expect(idsOf(one.text)).toEqual([BIG, '9007199254740995'])
    expect(plantsOf(one.text)).toEqual(RECORDED_PLANTS)
    expect(idsOf((await call(box.url, 'principal-2', 'GET', '/plants')).text)).toEqual(['7'])
    // Listed at start, with its reason, and not imported.
    expect(box.output()).toMatch(
      /exchange 9 \(POST .*\/plants, 200\) is not imported: response_schema_conformance/,
    )
    expect((await call(box.url, 'principal-1', 'GET', '/plants/99')).status).toBe(404)
    // Any other token is a sandbox principal as before, with the example plants.
    expect(idsOf((await call(box.url, 'someone-else', 'GET', '/plants')).text)).not.toContain(BIG)
  })

  it('starts the handlers (seed) as the recording left them, and lists what it did not import', async () => {
    const { handlers, store } = createPlantStoreHandlers({
      baseUrl: 'http://replay.test',
      seed: JSON.stringify(withDeparture()),
    })
    const mocked = setupServer(...handlers)
    mocked.listen({ onUnhandledFrame: 'error' })
    try {
      const one = await call('http://replay.test', 'principal-1', 'GET', '/plants')
      expect(idsOf(one.text)).toEqual([BIG, '9007199254740995'])
      expect(idsOf((await call('http://replay.test', 'principal-2', 'GET', '/plants')).text)).toEqual(['7'])
      expect(store.skipped).toEqual([expect.objectContaining({ index: 8, method: 'POST', status: 200 })])
    } finally {
      mocked.close()
    }
  })

  it.skipIf(chromiumMissing())(
    'starts the handlers in a browser’s service worker from the recording',
    async () => {
      const page = await servePage('test/browser/seeded-page.ts', {
        '/recording.har': ['application/json', await readFile(har)],
      })
      const browser = await launchChromium()
      try {
        const tab = await browser.newPage()
        await tab.goto(`${page.origin}/`)
        await tab.waitForFunction('"seeded" in window', undefined, { timeout: 30_000 })
        const seeded = (await tab.evaluate('window.seeded')) as {
          listed: Record<string, { status: number; text: string }>
          skipped: number
          error?: string
        }
        expect(seeded.error).toBeUndefined()
        expect(seeded.skipped).toBe(0)
        expect(seeded.listed['principal-1']?.status).toBe(200)
        expect(plantsOf(seeded.listed['principal-1']?.text ?? '')).toEqual(RECORDED_PLANTS)
        expect(idsOf(seeded.listed['principal-2']?.text ?? '')).toEqual(['7'])
      } finally {
        await browser.close()
        await page.close()
      }
    },
    90_000,
  )

  it('takes a browser’s export (real tokens, no verdicts) and judges it with what core has', () => {
    const browser = structuredClone(recorded)
    for (const entry of browser.log.entries) {
      delete entry._contract
      for (const h of entry.request.headers)
        if (h.name.toLowerCase() === 'authorization') h.value = h.value.replace('principal-1', 'token-a')
    }
    // A read answered with a plant the Plant schema refuses: never imported.
    const read = structuredClone(browser.log.entries[7] as HarEntry)
    read.request.url = read.request.url.replace(BIG, '5')
    read.response.status = 200
    read.response.content.text = '{"id":5}'
    browser.log.entries.push(read)
    const state = readRecording(browser, createPlantStoreHandlers().store.reader.operations)
    expect([...state.principals.keys()]).toEqual(['token-a', 'principal-2'])
    expect(state.principals.get('token-a')?.map((p) => String(p.id))).toEqual([BIG, '9007199254740995'])
    expect(state.principals.get('principal-2')?.map((p) => p.name)).toEqual(['Cactus'])
    expect(state.skipped).toEqual([
      expect.objectContaining({ index: 8, reason: expect.stringMatching(/plant departs.*name/) }),
    ])
  })
})

it('refuses SANDBOX_SEED without the sandbox, and a seed file that cannot be read', async () => {
  expect(() => loadConfig({ SANDBOX_SEED: har })).toThrow(/SANDBOX_SEED seeds the sandbox/)
  const refused = await runToExit({
    ...sandbox({ env: { SANDBOX_SEED: join(work, 'missing.har') } }),
    timeoutMs: 30_000,
  })
  expect(refused.exit).toBe(1)
  expect(refused.output).toMatch(/the sandbox cannot seed from .*missing\.har/)
})

describe('replaying the recording as a regression test', () => {
  const verify = (args: string[]) =>
    runToExit({
      name: 'plant-store-verify --replay',
      command: process.execPath,
      args: [join(repoRoot, 'src/verify/bin/plant-store-verify.js'), '--replay', har, ...args],
      env: { GITHUB_ACTIONS: undefined },
      timeoutMs: 60_000,
    })

  it('gives a fresh server the same plants, and fails on a difference unless differences are allowed', async () => {
    const fresh = await startServer(TOKENS)
    started.push(fresh)
    const args = ['--base-url', fresh.url, '--token', 'token-a', '--token', 'token-b']
    const first = await verify(args)
    expect(first.output).toMatch(/Replayed 8 exchanges: 0 departed from the document, 0 differed/)
    expect(first.exit).toBe(0)
    const plants = await call(fresh.url, 'token-a', 'GET', '/plants')
    expect(idsOf(plants.text)).toEqual([BIG, '9007199254740995'])
    expect(plantsOf(plants.text)).toEqual(RECORDED_PLANTS)

    // Again on the same server: its plants exist now, so each create is a 409, not the recorded 200.
    const again = await verify(args)
    expect(again.output).toMatch(/differs from the recording: status 409 \(recorded 200\)/)
    expect(again.output).toMatch(/0 departed from the document, \d+ differed from the recording/)
    expect(again.exit).toBe(1)
    const allowed = await verify([...args, '--allow-differences'])
    expect(allowed.exit).toBe(0)
  }, 120_000)
})
