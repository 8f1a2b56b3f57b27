// The verifier's checks are one module each, in one registry: a finding carries the name of the check
// whose module found it, nothing reads a message's words to decide where it goes, and a check the run
// leaves out is never called. Also the pieces that judge
// by what the document promises: the interface apart from the kit's profile, an example shown, the
// statuses the document allows where it does not order two conditions.
import { document as shipped } from '@plant-store/core'
import { describe, expect, it } from 'vitest'
import { coverageProbes } from '../cases/coverage.js'
import type { Check } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import { kitProfileConformance } from '../checks/kit-profile-conformance.js'
import { BUILT_IN_CHECKS, CHECK_NAMES, selectChecks } from '../checks/registry.js'
import { interfaceOf, loadDocument } from '../document.js'
import { type Answer, answerOf } from '../http.js'
import { acceptedStatuses } from '../judge/accepted-statuses.js'
import { answerExchange, judgeAnswer } from '../judge/answer.js'
import { showsExample } from '../judge/example.js'
import { judgeExchange, mergeVerdicts } from '../judge/judge.js'
import { resolveLink } from '../judge/links.js'
import { listingOf, pageSizeOf } from '../judge/listing.js'
import { EXACT, PLANT_FIELDS } from '../judge/plant.js'
import type { State } from '../judge/state.js'
import { Results } from '../report/results.js'
import { followLinks } from '../run/follow-links.js'

const kit = await loadDocument(undefined, 'kit')
const entry = (operationId: string) => {
  const found = kit.operations.find((e) => e.operationId === operationId)
  if (!found) throw new Error(`no ${operationId}`)
  return found
}
const judged = (operationId: string, answer: Answer) =>
  judgeAnswer(entry(operationId), { method: 'GET', path: '/plants' }, answer, undefined)

describe('checks registered by name', () => {
  it('is one list of modules, each with its own name and promise', () => {
    expect(CHECK_NAMES).toEqual(BUILT_IN_CHECKS.map((c) => c.name))
    expect(new Set(CHECK_NAMES).size).toBe(CHECK_NAMES.length)
    for (const check of BUILT_IN_CHECKS) {
      expect(check.name).toMatch(/^[a-z][a-z0-9_]*$/)
      expect(check.description.length).toBeGreaterThan(10)
    }
  })

  it('records a finding under the check that found it, whatever its words say', () => {
    const results = new Results([{ operationId: 'getPlant', statuses: [200] }], BUILT_IN_CHECKS)
    // Words that once steered a message elsewhere: a status, WWW-Authenticate, Link, "reads back".
    const message =
      'status 500, the document says 200; WWW-Authenticate; Link; reads back; the page should be []'
    for (const check of CHECK_NAMES) {
      const [failure] = results.record({
        layer: 'examples',
        operationId: 'getPlant',
        checks: [],
        findings: [{ check, message }],
        title: check,
        request: '',
        answer: '',
        document: '',
        replay: '',
      })
      expect(failure?.check).toBe(check)
    }
    expect(
      results
        .rows()
        .map((r) => r.check)
        .sort(),
    ).toEqual([...CHECK_NAMES].sort())
  })

  it('leaves out an excluded check, and refuses a name it does not know', () => {
    const kept = selectChecks(BUILT_IN_CHECKS, undefined, ['store_conformance'])
    expect(kept.map((c) => c.name)).not.toContain('store_conformance')
    expect(kept).toHaveLength(CHECK_NAMES.length - 1)
    expect(selectChecks(BUILT_IN_CHECKS, ['link_conformance'], undefined).map((c) => c.name)).toEqual([
      'link_conformance',
    ])
    expect(() => selectChecks(BUILT_IN_CHECKS, ['no_such_check'], undefined)).toThrow(
      /unknown check no_such_check/,
    )
  })

  it('never calls a check the run leaves out, and counts the ones that judged', () => {
    const called: string[] = []
    const spy = (name: string): Check => ({
      name,
      description: `the spy ${name}`,
      appliesTo: () => true,
      run: () => {
        called.push(name)
        return name === 'b' ? ['b found this'] : []
      },
    })
    const checks = [spy('a'), spy('b'), spy('c')]
    const exchange = answerExchange(
      entry('getPlant'),
      { method: 'GET', path: '/plants/1' },
      answerOf(204, {}, ''),
      undefined,
    )
    const verdict = judgeExchange(exchange, selectChecks(checks, undefined, ['c']))
    expect(called).toEqual(['a', 'b'])
    expect(verdict).toEqual({ checked: ['a', 'b'], findings: [{ check: 'b', message: 'b found this' }] })
    expect(mergeVerdicts([verdict, { checked: ['c'], findings: [] }]).checked).toEqual(['a', 'b', 'c'])
  })

  it('names the check of each document-only problem from the module that found it', () => {
    const missingChallenge = answerOf(
      401,
      { 'content-type': 'application/json' },
      '{"error":401,"message":"no"}',
    )
    expect(judged('getPlant', missingChallenge).map((f) => f.check)).toEqual(['www_authenticate_on_401'])
    const wrongCode = answerOf(404, { 'content-type': 'application/json' }, '{"error":400,"message":"no"}')
    expect(judged('getPlant', wrongCode).map((f) => f.check)).toEqual(['error_code_conformance'])
    const html = answerOf(404, { 'content-type': 'text/html' }, '<p>no</p>')
    expect(judged('getPlant', html).map((f) => f.check)).toEqual(['content_type_conformance'])
    const wrapped = answerOf(200, { 'content-type': 'application/json' }, '{"items":[]}')
    expect(judged('listPlants', wrapped).map((f) => f.check)).toContain('response_schema_conformance')
    const teapot = answerOf(418, {}, '')
    expect(judged('listPlants', teapot).map((f) => f.check)).toEqual(['status_code_conformance'])
  })

  it('holds an answer to the kit profile only when asked', () => {
    const bare = answerOf(200, { 'content-type': 'application/json' }, '[]')
    expect(judged('listPlants', bare)).toEqual([])
    const exchange: HttpExchange = {
      ...answerExchange(entry('listPlants'), { method: 'GET', path: '/plants' }, bare, undefined),
      judging: { exact: true, kitProfile: true },
    }
    const profiled = judgeExchange(exchange, BUILT_IN_CHECKS).findings
    expect(new Set(profiled.map((f) => f.check))).toEqual(new Set(['kit_profile_conformance']))
    expect(profiled.map((f) => f.message).join('\n')).toMatch(/X-Request-Id/)
  })

  it('holds a JSON answer to a REST API’s security headers and none of a browser document’s', () => {
    const kit = (headers: Record<string, string>) =>
      judgeExchange(
        {
          ...answerExchange(
            entry('listPlants'),
            { method: 'GET', path: '/plants' },
            answerOf(200, { 'content-type': 'application/json', ...headers }, '[]'),
            undefined,
          ),
          judging: { exact: true, kitProfile: true },
        },
        BUILT_IN_CHECKS,
      ).findings.map((f) => f.message)
    const rest = {
      'x-request-id': 'one',
      'cache-control': 'no-store',
      'ratelimit-policy': '"default";q=1000;w=60',
      ratelimit: '"default";r=999;t=60',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    }
    expect(kit(rest)).toEqual([])
    expect(kit({ ...rest, 'referrer-policy': 'no-referrer', 'x-frame-options': 'SAMEORIGIN' })).toEqual([
      'X-Frame-Options is SAMEORIGIN, the kit profile says DENY',
      'referrer-policy is for a page a browser renders, not a JSON answer',
    ])
    const { 'strict-transport-security': _, ...withoutHsts } = rest
    expect(kit({ ...withoutHsts, 'content-security-policy': "default-src 'none'" })).toEqual([
      "Content-Security-Policy is default-src 'none', the kit profile says frame-ancestors 'none'",
      'the kit profile’s Strict-Transport-Security header is missing',
    ])
  })

  it('holds the request id to the server’s own, and a probe’s answer to no RateLimit, under the kit profile', () => {
    const kit = (operationId: string, path: string, headers: Record<string, string>, sent = {}) =>
      judgeExchange(
        {
          ...answerExchange(
            entry(operationId),
            { method: 'GET', path },
            answerOf(200, { 'content-type': 'application/json', ...headers }, '[]'),
            undefined,
          ),
          request: { method: 'GET', path, headers: sent },
          judging: { exact: true, kitProfile: true },
        },
        [kitProfileConformance],
      ).findings.map((f) => f.message)
    const rest = {
      'x-request-id': 'd2c1f0c4-8a54-4f4e-9d0b-3b8f5e2a7c11',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    }
    const rated = { ...rest, 'ratelimit-policy': '"default";q=1000;w=60', ratelimit: '"default";r=999;t=60' }
    const listing = { ...rated, 'cache-control': 'no-store' }
    expect(kit('listPlants', '/plants', listing, { 'request-id': 'mine' })).toEqual([])
    expect(
      kit('listPlants', '/plants', { ...listing, 'x-request-id': 'mine' }, { 'request-id': 'mine' }),
    ).toEqual([
      'X-Request-Id is mine, the id the request sent in request-id: the kit profile’s request id is the server’s own',
    ])
    expect(kit('getHealth', '/healthz', rest)).toEqual([])
    expect(kit('getHealth', '/healthz', rated)).toEqual([
      'ratelimit-policy on an operation without security, which the kit profile counts against no limit',
      'ratelimit on an operation without security, which the kit profile counts against no limit',
    ])
  })

  it('holds an Error’s message to saying something under the kit profile only', () => {
    const findings = (message: string, kitProfile: boolean) =>
      judgeExchange(
        {
          ...answerExchange(
            entry('getPlant'),
            { method: 'GET', path: '/plants/1' },
            answerOf(404, { 'content-type': 'application/json' }, JSON.stringify({ error: 404, message })),
            undefined,
          ),
          judging: { exact: true, kitProfile },
        },
        BUILT_IN_CHECKS,
      ).findings.map((f) => f.message)
    const empty = /message is empty on a 404 answer/
    expect(findings('', true).join('\n')).toMatch(empty)
    expect(findings(' ', true).join('\n')).toMatch(empty)
    expect(findings('plant 1 not found', true).join('\n')).not.toMatch(empty)
    // Another store's words are its own: the interface judges only that a message is there.
    expect(findings('', false)).toEqual([])
    // A refusal before any operation, of a method no path takes, too.
    const unrouted: HttpExchange = {
      kind: 'http',
      operation: undefined,
      request: { method: 'FOO', path: '/plants' },
      answer: answerOf(501, { 'content-type': 'application/json' }, '{"error":501,"message":""}'),
      judging: { exact: true, kitProfile: true },
    }
    const profiled = judgeExchange(unrouted, BUILT_IN_CHECKS).findings
    expect(profiled.filter((f) => f.check === 'kit_profile_conformance').map((f) => f.message)).toEqual([
      "the Error body's message is empty on a 501 answer: it says nothing of what was wrong",
    ])
  })
})

describe('the interface apart from the kit profile', () => {
  const view = interfaceOf(shipped) as unknown as {
    info: Record<string, unknown>
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    components: { responses: Record<string, unknown>; headers: Record<string, unknown> }
  }
  it('leaves out every part marked x-kit-profile, and names none of the kit server’s configuration', () => {
    expect(Object.keys(view.paths).sort()).toEqual(['/plants', '/plants/{id}'])
    expect(view.info['x-kit-profile']).toBeUndefined()
    expect(view.paths['/plants']?.get?.responses['405']).toBeUndefined()
    expect(view.paths['/plants']?.get?.responses['431']).toBeDefined()
    expect(view.components.responses.MethodNotAllowed).toBeUndefined()
    expect(view.components.headers['RateLimit-Policy']).toBeUndefined()
    const text = JSON.stringify(view)
    expect(text).not.toMatch(
      /"x-kit-profile"|_TIMEOUT_MS|AUTH_TOKENS|WEBHOOK_[A-Z]|RATE_LIMIT|DATABASE_URL|healthz|JWT_/,
    )
    // The whole document keeps all of it: the kit's server serves that one.
    expect(JSON.stringify(shipped)).toMatch(/healthz/)
  })
})

describe('answers judged by what the document promises', () => {
  it('meets an example when every property it shows is there with its value', () => {
    expect(
      showsExample({ name: 'Basil', tag: 'herb' }, { id: 1n, name: 'Basil', tag: 'herb', createdAt: 'x' }),
    ).toBe(true)
    expect(showsExample({ name: 'Basil', tag: 'herb' }, { name: 'Basil' })).toBe(false)
    expect(showsExample([{ id: 1 }, { id: 3 }], [{ id: 1n }, { id: 3n }])).toBe(true)
    expect(showsExample([{ id: 1 }, { id: 3 }], [{ id: 1n }])).toBe(false)
    expect(showsExample({ id: 1 }, { id: 2n })).toBe(false)
  })

  it('allows either status where the document does not order two conditions, and one where it does', () => {
    const probes = coverageProbes(kit.operations, 65_536, 1000n)
    const put = probes.find(
      (p) => p.entry.operationId === 'replacePlant' && p.defect === 'body: required field missing',
    )
    if (!put) throw new Error('no replace without a name')
    // No plant at all in the caller's state: the body and the missing plant are both wrong.
    expect(acceptedStatuses(put, new Map())).toEqual([400, 404])
    const noToken = probes.find((p) => p.entry.operationId === 'replacePlant' && p.defect === 'auth: none')
    if (!noToken) throw new Error('no replace without a token')
    expect(acceptedStatuses(noToken, new Map())).toEqual([401])
  })
})

describe('Link followed as the RFCs allow it, against the address of the request that got the page', () => {
  // A store mounted below /api, as a proxy shows it, whose pages give their Link in one form or another.
  const ORIGIN = 'http://store.test'
  const plants = [1n, 2n, 3n, 4n, 5n, 6n].map((id) => ({
    id,
    name: `p${id}`,
    ...(id % 2n ? { tag: 'odd' } : {}),
  }))
  const state: State = new Map(plants.map((p) => [p.id, p]))
  type Form = (query: URLSearchParams) => string
  const forms: Record<string, Form> = {
    absolute: (q) => `${ORIGIN}/api/plants?${q}`,
    'network-path': (q) => `//store.test/api/plants?${q}`,
    'path-absolute': (q) => `/api/plants?${q}`,
    'path-relative': (q) => `plants?${q}`,
    'query-only': (q) => `?${q}`,
  }

  /** The store's answer to a GET of `address`; `link` writes the next page's query as a target. */
  function store(address: string, link: (query: URLSearchParams, asked: URLSearchParams) => string): Answer {
    const url = new URL(address)
    if (url.origin !== ORIGIN || url.pathname !== '/api/plants')
      return {
        ...answerOf(404, { 'content-type': 'application/json' }, '{"error":404,"message":"no"}'),
        url: url.href,
      }
    const limit = Number(url.searchParams.get('limit') ?? 20)
    const tag = url.searchParams.get('tag')
    const after = BigInt(url.searchParams.get('cursor') ?? 0)
    const kept = plants.filter((p) => (tag === null || p.tag === tag) && p.id > after)
    const page = kept.slice(0, limit)
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (kept.length > limit) {
      const next = new URLSearchParams({ limit: String(limit), ...(tag === null ? {} : { tag }) })
      next.set('cursor', String(page.at(-1)?.id))
      headers.link = `<${link(next, url.searchParams)}>; rel="next"`
    }
    const text = JSON.stringify(page.map((p) => ({ ...p, id: Number(p.id) })))
    return { ...answerOf(200, headers, text), url: url.href }
  }

  /** The findings of a walk from `first` through every Link, each page judged, and every address asked for. */
  async function walk(first: string, link: (query: URLSearchParams, asked: URLSearchParams) => string) {
    const asked: string[] = []
    const query = Object.fromEntries(new URL(first, ORIGIN).searchParams)
    const page = (answer: Answer, path: string, number: number, listed: bigint[]): HttpExchange => ({
      kind: 'http',
      operation: entry('listPlants'),
      request: { method: 'GET', path },
      answer,
      ...(number === 1 ? { expected: { statuses: [200] }, store: {} } : {}),
      judging: EXACT,
      page: {
        number,
        plants: listingOf(state, query, listed.at(-1)),
        limit: pageSizeOf(query),
        fields: PLANT_FIELDS,
        listed,
      },
    })
    const exchange = page(store(`${ORIGIN}/api${first}`, link), first, 1, [])
    const verdicts = await followLinks(
      { exchange, verdict: judgeExchange(exchange, BUILT_IN_CHECKS) },
      async (path, number, listed) => {
        asked.push(path)
        const next = page(store(path, link), path, number, listed)
        return { exchange: next, verdict: judgeExchange(next, BUILT_IN_CHECKS) }
      },
    )
    const findings = mergeVerdicts(verdicts).findings
    return { findings: findings.map((f) => `${f.check}: ${f.message}`), asked }
  }

  it.each(Object.entries(forms))(
    'follows a %s target to every page, and finds nothing wrong',
    async (_, form) => {
      const { findings, asked } = await walk('/plants?limit=2', (q) => form(q))
      expect(findings).toEqual([])
      expect(asked).toEqual([
        `${ORIGIN}/api/plants?limit=2&cursor=2`,
        `${ORIGIN}/api/plants?limit=2&cursor=4`,
      ])
    },
  )

  it.each(Object.entries(forms))('keeps the tag filter of a %s target', async (_, form) => {
    const { findings, asked } = await walk('/plants?limit=1&tag=odd', (q) => form(q))
    expect(findings).toEqual([])
    expect(asked).toHaveLength(2)
  })

  it('catches a Link that drops the tag filter', async () => {
    const { findings } = await walk('/plants?limit=1&tag=odd', (q) => {
      q.delete('tag')
      return `?${q}`
    })
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatch(/^link_conformance: page 2 \(\/api\/plants\?limit=1&cursor=1, from the Link/)
  })

  it('catches a Link that loops back to the page it came with', async () => {
    const { findings } = await walk('/plants?limit=2', (_, asked) => `?${asked}`)
    expect(findings).toEqual([
      'link_conformance: page 2 (/api/plants?limit=2, from the Link of the page before): plant 1 was listed on an earlier page already',
    ])
  })

  it('catches a path-absolute Link that leaves the prefix it came by', async () => {
    const { findings, asked } = await walk('/plants?limit=2', (q) => `/plants?${q}`)
    expect(asked).toEqual([`${ORIGIN}/plants?limit=2&cursor=2`])
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatch(/^link_conformance: page 2 \(\/plants\?limit=2&cursor=2, .*\) answered 404/)
  })

  it("does not follow a Link to another origin with the principal's token", async () => {
    const { findings, asked } = await walk('/plants?limit=2', (q) => `http://elsewhere.test/api/plants?${q}`)
    expect(asked).toEqual([])
    expect(findings).toEqual([
      'link_conformance: page 1: the Link leads to http://elsewhere.test/api/plants?limit=2&cursor=2, away from http://store.test, the store that answered the page',
    ])
  })

  it("resolves against the page's own address, not a base URL", () => {
    const page = 'http://gateway.test/api/v1/plants?limit=2'
    expect(resolveLink('?limit=2&cursor=Mg', page)).toBe(
      'http://gateway.test/api/v1/plants?limit=2&cursor=Mg',
    )
    expect(resolveLink('plants?cursor=Mg', page)).toBe('http://gateway.test/api/v1/plants?cursor=Mg')
    expect(resolveLink('/plants?cursor=Mg', page)).toBe('http://gateway.test/plants?cursor=Mg')
    expect(resolveLink('//other.test/p?cursor=Mg', page)).toBe('http://other.test/p?cursor=Mg')
    // An answer that does not record its address: the path it was asked by.
    expect(resolveLink('?cursor=Mg', '/plants?limit=2')).toBe('/plants?cursor=Mg')
  })

  it("takes a loopback name of the same listener for the page's own address", () => {
    const page = 'http://127.0.0.1:8080/plants?limit=2'
    // A store that writes its configured address into Link: the same listener, followed where it answered.
    expect(resolveLink('http://localhost:8080/plants?cursor=Mg', page)).toBe(
      'http://127.0.0.1:8080/plants?cursor=Mg',
    )
    expect(resolveLink('http://[::1]:8080/plants?cursor=Mg', page)).toBe(
      'http://127.0.0.1:8080/plants?cursor=Mg',
    )
    // Another port, or a host off this machine, is another listener.
    expect(resolveLink('http://localhost:8081/plants?cursor=Mg', page)).toBe(
      'http://localhost:8081/plants?cursor=Mg',
    )
    expect(resolveLink('http://store.test:8080/plants?cursor=Mg', page)).toBe(
      'http://store.test:8080/plants?cursor=Mg',
    )
  })
})
