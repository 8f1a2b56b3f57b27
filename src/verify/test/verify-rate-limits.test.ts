// How the verifier meets a server's rate limits: a refused token's quota counted apart from each
// principal's, a declared quota waited out before a request it would refuse, a 429 after it by its
// Retry-After, each wait said on the progress line with what it waits for and how long, and a server
// without any limit never waited for. A default run fits within the quotas a server declares: its
// sizes within a principal's, its refused-token cases within the failed authentications', the most
// telling first.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { RefusedTokens, refusedCases } from '../cases/refused-tokens.js'
import { loadDocument } from '../document.js'
import { ProgressLog, TerminalProgress } from '../report/ci.js'
import { COSTS, fitToQuota } from '../run/quota-fit.js'
import { declaredPolicy, declaredQuota, retryAfterMs, waitLine, waitProgress } from '../run/rate-limits.js'
import { Subject } from '../run/subject.js'

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
    // Retry-After counts from the 429's arrival: the millisecond or two spent reading it is not waited again.
    expect(subject.limits.totalMs).toBeGreaterThanOrEqual(990)
    expect(subject.limits.totalMs).toBeLessThanOrEqual(1000)
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
    expect(subject.sent).toEqual({ 0: 1, 1: 0, refused: 3 })
    expect(subject.limits.policy('refused')).toMatchObject({ quota: 2, windowSeconds: 1 })
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

describe('a default run fitted to the server’s quotas', () => {
  it('reads the quota a server declares in each form the RateLimit drafts give it', () => {
    expect(declaredPolicy({ 'ratelimit-policy': '"default";q=1000;w=60' })).toEqual({
      quota: 1000,
      windowSeconds: 60,
      said: 'RateLimit-Policy "default";q=1000;w=60',
    })
    // Of several, the one that allows the fewest requests a minute; a quota of another unit is not requests.
    expect(
      declaredPolicy({
        'ratelimit-policy': '"burst";q=100;w=1, "daily";q=5000;w=86400, "bytes";q=10;qu="content-bytes";w=1',
      }),
    ).toMatchObject({ quota: 5000, windowSeconds: 86400 })
    expect(declaredPolicy({ 'ratelimit-policy': '100;w=60' })).toMatchObject({
      quota: 100,
      windowSeconds: 60,
    })
    expect(declaredPolicy({ ratelimit: 'limit=20, remaining=3, reset=7' })).toMatchObject({
      quota: 20,
      windowSeconds: undefined,
    })
    expect(declaredPolicy({ 'ratelimit-limit': '1000' })).toMatchObject({ quota: 1000 })
    expect(declaredPolicy({ ratelimit: '"default";r=999;t=60' })).toBeUndefined()
  })

  const kit = { quota: 1000, windowSeconds: 60, said: 'RateLimit-Policy "default";q=1000;w=60' }
  const input = {
    policies: [kit, kit] as const,
    spent: [80, 8] as const,
    coverage: 142,
    generated: true,
    stateful: true,
    defaults: { requests: 2000, sequences: 200 },
  }
  /** What the first principal would send, at each kind of work's cost. */
  const firstPrincipal = (fit: { requests: number; sequences: number }) =>
    input.spent[0] +
    input.coverage * COSTS.coverage +
    fit.requests * COSTS.generated +
    fit.sequences * COSTS.sequence

  it('sizes the generated requests and sequences to fit a principal’s quota, in the defaults’ proportion', () => {
    const fit = fitToQuota(input)
    if (!fit) throw new Error('no fit for a quota of 1000 a minute')
    expect(firstPrincipal(fit)).toBeLessThanOrEqual(1000)
    expect(firstPrincipal({ requests: fit.requests + 10, sequences: fit.sequences + 1 })).toBeGreaterThan(950)
    expect(fit.requests).toBe(fit.sequences * 10)
    expect(fit.note).toBe(
      `the server allows 1000 requests a minute per principal (RateLimit-Policy "default";q=1000;w=60): this run sends ${fit.requests} generated requests and ${fit.sequences} sequences; give --requests and --sequences to send more, waiting for the quota`,
    )
    // One layer alone has the quota to itself.
    const sequencesOnly = fitToQuota({ ...input, generated: false, coverage: 0 })
    expect(sequencesOnly?.sequences).toBeGreaterThan(fit.sequences)
    expect(sequencesOnly?.note).toMatch(/this run sends \d+ sequences; give --sequences to send more/)
  })

  it('keeps the defaults where they fit or no quota is declared, and counts a short window a minute long', () => {
    expect(fitToQuota({ ...input, policies: [undefined, undefined] })).toBeUndefined()
    const generous = {
      quota: 100_000_000,
      windowSeconds: 60,
      said: 'RateLimit-Policy "default";q=100000000;w=60',
    }
    expect(fitToQuota({ ...input, policies: [generous, generous] })).toBeUndefined()
    // 100 a second is 6000 a minute: the defaults fit.
    const perSecond = { quota: 100, windowSeconds: 1, said: 'RateLimit-Policy "default";q=100;w=1' }
    expect(fitToQuota({ ...input, policies: [perSecond, perSecond] })).toBeUndefined()
    const tiny = { quota: 50, windowSeconds: 60, said: 'RateLimit-Policy "default";q=50;w=60' }
    expect(fitToQuota({ ...input, policies: [tiny, undefined] })).toMatchObject({
      requests: 10,
      sequences: 1,
      note: expect.stringMatching(
        /this run sends 10 generated requests and 1 sequence, more than the quota holds even so;/,
      ),
    })
  })

  it('sends every operation no token and a token no principal holds first, then each other case to one operation', async () => {
    const { operations } = await loadDocument(undefined, 'interface')
    const cases = refusedCases(operations)
    const secured = operations.filter((e) => e.secured)
    const label = (id: string) => id.split(' · ')[1]
    const firsts = cases.slice(0, 2 * secured.length)
    expect(new Set(firsts.map((c) => c.id)).size).toBe(2 * secured.length)
    expect(new Set(firsts.map((c) => label(c.id)))).toEqual(
      new Set(['no token', 'a token no principal holds']),
    )
    const others = new Set(
      cases.map((c) => label(c.id)).filter((l) => !firsts.some((c) => label(c.id) === l)),
    )
    const next = cases.slice(firsts.length, firsts.length + others.size)
    expect(new Set(next.map((c) => label(c.id)))).toEqual(others)
    // Spread: no operation gets a second of these before every operation has one.
    const byOperation = new Map<string, number>()
    for (const c of next)
      byOperation.set(c.entry.operationId, (byOperation.get(c.entry.operationId) ?? 0) + 1)
    expect(Math.max(...byOperation.values()) - Math.min(...byOperation.values())).toBeLessThanOrEqual(1)
    expect(byOperation.size).toBe(Math.min(secured.length, others.size))
  })

  it('leaves out, and says so, a case that meets the spent quota in a default run; an example’s case is sent whatever it', async () => {
    const { operations } = await loadDocument(undefined, 'interface')
    const cases = refusedCases(operations)
    let room = 3
    const refusals = new RefusedTokens(() => room <= 0)
    const [example, ...rest] = cases
    if (!example) throw new Error('no refused-token case')
    room = 0
    refusals.sending(example.entry.operationId, example.request)
    room = 3
    const sent = rest.filter((c) => refusals.first(c.entry.operationId, c.request) && room-- > 0)
    expect(sent).toHaveLength(3)
    // Once sent or left out, a case is not sent again.
    expect(refusals.first(example.entry.operationId, example.request)).toBe(false)
    expect(rest.filter((c) => refusals.first(c.entry.operationId, c.request))).toEqual([])
    expect(refusals.leftCount).toBe(cases.length - 4)
    expect(refusals.leftOutNote('RateLimit-Policy "failed-auth";q=4;w=60')).toMatch(
      new RegExp(
        `^refused-token cases: 4 sent, ${cases.length - 4} left out to keep to the server’s quota for failed authentications \\(RateLimit-Policy "failed-auth";q=4;w=60\\) instead of waiting for it: .*; give --requests and --sequences to send every case, waiting for the quota$`,
      ),
    )
    // Without a quota to keep to (a run given its sizes), every case is sent.
    const all = new RefusedTokens()
    expect(cases.filter((c) => all.first(c.entry.operationId, c.request))).toHaveLength(cases.length)
    expect(all.leftOutNote(undefined)).toBeUndefined()
  })
})

describe('the spent quotas, when a server declares small and short ones', () => {
  /**
   * A listing that declares quotas of 3 a 2 s window for failed authentications and for each
   * principal, counted from a bucket's first request; past one, `fault` says what it answers.
   */
  async function limited(
    fault:
      | 'none'
      | 'serves past it'
      | 'refuses early'
      | 'no retry-after'
      | 'never whole again'
      | 'resets later than t'
      | 'words of its own',
  ) {
    const windows = new Map<string, { count: number; start: number }>()
    const listening = createServer((request, response) => {
      const token = TOKENS.find((t) => request.headers.authorization === `Bearer ${t}`)
      const key = token ?? 'refused'
      const now = Date.now()
      let window = windows.get(key)
      if (!window || (window.start + 2000 <= now && fault !== 'never whole again')) {
        window = { count: 0, start: now }
        windows.set(key, window)
      }
      window.count++
      const quota = fault === 'refuses early' ? 2 : 3
      const left = Math.max(0, 3 - window.count)
      const reset =
        fault === 'resets later than t' ? 1 : Math.max(1, Math.ceil((2000 - (now - window.start)) / 1000))
      const policy = token ? 'default' : 'failed-auth'
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'ratelimit-policy': `"${policy}";q=3;w=2`,
        ratelimit: `"${policy}";r=${left};t=${reset}`,
        'cache-control': 'no-store',
        // The rest of the kit's profile, which every answer carries.
        'x-request-id': `r${now}`,
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      }
      if (window.count > quota && fault !== 'serves past it') {
        if (fault !== 'no retry-after') headers['retry-after'] = String(reset)
        response.writeHead(429, headers)
        // The words of the document's examples, as the kit's profile has them.
        const message =
          fault === 'words of its own'
            ? 'slow down'
            : token
              ? 'too many requests from this principal; try again after Retry-After seconds'
              : 'too many failed authentications from this address; try again after Retry-After seconds'
        response.end(JSON.stringify({ error: 429, message }))
      } else if (!token) {
        response.writeHead(401, { ...headers, 'www-authenticate': 'Bearer' })
        response.end('{"error":401,"message":"no"}')
      } else {
        response.writeHead(200, headers)
        response.end('[]')
      }
    })
    server = listening
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
  }
  const spend = async (baseUrl: string) => {
    const { verify } = await import('../index.js')
    return verify({
      baseUrl,
      tokens: [...TOKENS],
      profile: 'kit',
      only: ['security'],
      case: 'listPlants · the rate limits, spent',
    })
  }
  const problems = (results: Awaited<ReturnType<typeof spend>>) =>
    results.failures.flatMap((f) => f.problems).join('\n')
  const spent = (results: Awaited<ReturnType<typeof spend>>) =>
    results.judged.filter((j) => j.kinds.includes('rate limit spent'))

  it('spends each and judges its 429: an Error with Retry-After, and RateLimit r=0 with t its Retry-After', async () => {
    const results = await spend(await limited('none'))
    expect(spent(results).map((j) => [j.status, j.failed])).toEqual([
      [429, []],
      [429, []],
    ])
  }, 20_000)

  it('fails a server that serves past its declared quota, refuses before it, leaves Retry-After out, or stays refused past its t', async () => {
    const serves = await spend(await limited('serves past it'))
    expect(spent(serves).map((j) => j.status)).toEqual([401, 200])
    expect(problems(serves)).toMatch(
      /not 429, though the answer just before it left no request in the window/,
    )
    server?.close()
    const early = await spend(await limited('refuses early'))
    expect(problems(early)).toMatch(/a 429 though the answer just before it left 1/)
    server?.close()
    const bare = await spend(await limited('no retry-after'))
    expect(bare.failed).toBe(true)
    expect(problems(bare)).toMatch(/retry-after/i)
    server?.close()
    const stuck = await spend(await limited('never whole again'))
    expect(problems(stuck)).toMatch(/a 429 again after waiting the first one’s Retry-After/)
    server?.close()
    const late = await spend(await limited('resets later than t'))
    expect(problems(late)).toMatch(/a 429 after waiting the t of RateLimit "failed-auth";r=0;t=1/)
    server?.close()
    // The kit's profile: each 429 in the words of its bucket's example, the principal's or the address's.
    const words = await spend(await limited('words of its own'))
    expect(
      words.failures.filter((f) => f.check === 'example_conformance').map((f) => f.title),
      problems(words),
    ).toEqual(['the rate limits, spent: failed authentications', 'the rate limits, spent: the principal’s'])
  }, 40_000)
})
