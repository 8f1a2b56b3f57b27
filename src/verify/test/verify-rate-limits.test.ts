// How the verifier meets a server's rate limits: a refused token's quota counted apart from each
// principal's, a declared quota waited out before a request it would refuse, a 429 after it by its
// Retry-After, each wait said on the progress line with what it waits for and how long, and a server
// without any limit never waited for.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { declaredQuota, retryAfterMs, waitLine, waitProgress } from '../rate-limits.js'
import { ProgressLog, TerminalProgress } from '../report/ci.js'
import { Subject } from '../subject.js'

const TOKENS = ['token-a', 'token-b'] as const
let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

/** A server that answers a known token 200, any other 401, and what `limit` adds to either. */
async function serve(limit: (refused: boolean, count: number) => Record<string, string | undefined> | 429) {
  let refusals = 0
  const listening = createServer((request, response) => {
    const refused = !TOKENS.some((t) => request.headers.authorization === `Bearer ${t}`)
    const said = limit(refused, refused ? ++refusals : 0)
    if (said === 429) {
      response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' })
      response.end('{"error":429,"message":"slow down"}')
    } else {
      response.writeHead(refused ? 401 : 200, { 'content-type': 'application/json', ...said })
      response.end(refused ? '{"error":401,"message":"no"}' : '[]')
    }
  })
  server = listening
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
}

const get = { method: 'GET', path: '/plants', auth: { kind: 'none' } } as const

describe('the verifier’s waits for a rate limit', () => {
  it('waits out a 429 by its Retry-After, and says so: what for, and how long', async () => {
    const url = await serve((refused, count) => (refused && count === 1 ? 429 : {}))
    const subject = new Subject(url, TOKENS, undefined)
    const lines: string[] = []
    subject.onWait = (wait) => lines.push(waitProgress('security 3/40: getPlant · no token', wait))
    expect((await subject.send(url, get, undefined)).status).toBe(401)
    expect(lines).toEqual([
      'security 3/40: getPlant · no token · waiting 1 s: 429 on failed authentication, Retry-After 1',
    ])
    expect(subject.requests).toBe(2)
    expect(subject.limits.totalMs).toBeGreaterThanOrEqual(1000)
    expect(subject.limits.summary()).toMatch(
      /^the run waited \d+\.\d s in all for the server’s rate limits: \d+\.\d s for failed authentication \(429 once\)$/,
    )
  })

  it('waits out a quota the server declares before the request it would refuse, and counts each principal apart', async () => {
    // Each refused token spends the failed-authentication quota; the principals' own is never spent.
    const url = await serve((refused, count) =>
      refused
        ? {
            ratelimit: `"failed-auth";r=${Math.max(0, 2 - count)};t=1`,
            'ratelimit-policy': '"failed-auth";q=2;w=1',
          }
        : { ratelimit: '"default";r=999;t=60' },
    )
    const subject = new Subject(url, TOKENS, undefined)
    const waits: string[] = []
    subject.onWait = (wait) => waits.push(waitLine(wait))
    for (let i = 0; i < 2; i++) expect((await subject.send(url, get, 'Bearer nobody')).status).toBe(401)
    expect(subject.refusalDue()?.reason).toBe(
      'the server’s quota for failed authentication is spent (RateLimit "failed-auth";r=0;t=1)',
    )
    // A principal's request goes at once: its quota is its own.
    expect((await subject.send(url, { ...get, auth: { kind: 'principal' } }, 'Bearer token-a')).status).toBe(
      200,
    )
    expect(waits).toEqual([])
    expect((await subject.send(url, get, undefined)).status).toBe(401)
    expect(waits).toEqual([
      'waiting 1 s: the server’s quota for failed authentication is spent (RateLimit "failed-auth";r=0;t=1)',
    ])
    expect(subject.limits.summary()).toMatch(/for failed authentication \(its declared quota spent once\)$/)
  })

  it('never waits for a server without a limit', async () => {
    const url = await serve(() => ({}))
    const subject = new Subject(url, TOKENS, undefined)
    for (let i = 0; i < 30; i++) await subject.send(url, get, i % 2 ? undefined : 'Bearer token-a')
    expect(subject.limits.totalMs).toBe(0)
    expect(subject.limits.summary()).toBeUndefined()
  })

  it('reads the quota in each form the RateLimit drafts give it, and Retry-After as seconds or a date', () => {
    expect(declaredQuota({ ratelimit: '"default";r=12;t=30, "failed-auth";r=0;t=41' })).toEqual({
      remaining: 0,
      resetSeconds: 41,
      said: 'RateLimit "failed-auth";r=0;t=41',
    })
    expect(declaredQuota({ ratelimit: '"100-in-1min"; r=50; t=30' })).toMatchObject({
      remaining: 50,
      resetSeconds: 30,
    })
    expect(declaredQuota({ ratelimit: 'limit=20, remaining=3, reset=7' })).toMatchObject({
      remaining: 3,
      resetSeconds: 7,
    })
    expect(declaredQuota({ 'ratelimit-remaining': '0', 'ratelimit-reset': '9' })).toMatchObject({
      remaining: 0,
      resetSeconds: 9,
    })
    expect(declaredQuota({ 'ratelimit-policy': '"default";q=1000;w=60' })).toBeUndefined()
    expect(retryAfterMs('41', 0)).toBe(41_000)
    const now = Date.parse('2026-11-25T10:00:00Z')
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('soon', now)).toBeUndefined()
  })

  it('shows the wait on the progress line, in a log and on a terminal', async () => {
    let now = 0
    const logged: string[] = []
    const log = new ProgressLog(
      (line) => logged.push(line),
      5000,
      () => now,
    )
    log.update('generated 1375/2157')
    now = 631_000
    const wait = { ms: 41_000, reason: '429 on failed authentication, Retry-After 41' }
    log.update(waitProgress('generated 1376/2157', wait))
    expect(logged).toEqual([
      'verify: generated 1375/2157 (0 s)',
      'verify: generated 1376/2157 · waiting 41 s: 429 on failed authentication, Retry-After 41 (631 s)',
    ])
    // On a terminal a line that comes within the interval is shown when it is up: a wait is never hidden.
    const shown: string[] = []
    const terminal = new TerminalProgress((line) => shown.push(line), 30)
    terminal.update('generated 1376/2157')
    terminal.update(waitProgress('generated 1376/2157', wait))
    expect(shown).toEqual(['generated 1376/2157'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(shown).toEqual([
      'generated 1376/2157',
      'generated 1376/2157 · waiting 41 s: 429 on failed authentication, Retry-After 41',
    ])
    terminal.stop()
  })
})
