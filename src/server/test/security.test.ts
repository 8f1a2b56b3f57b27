// Generated from the document's security: every secured operation refuses a missing, malformed,
// unknown or misplaced token, and no principal reaches another's plants; CORS per configuration; the
// security headers of each kind of answer, JSON or the docs page.

import type { OperationEntry } from '@plant-store/core'
import type { InjectOptions } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { AUDIENCE, claims, ISSUER, SHARED_SECRET, signWithSecret } from '../../../scripts/lib/key-set.js'
import { loadSpec } from '../../../scripts/lib/spec.js'
import { build } from '../../../test/helpers/build.js'

const spec = await loadSpec()
const secured = spec.operations.filter((entry) => entry.secured)
const open = spec.operations.filter((entry) => !entry.secured)
const schemes = (spec.dereferenced.components?.securitySchemes ?? {}) as Record<
  string,
  { type: string; scheme?: string }
>

const EXPIRED_JWT = await signWithSecret(claims({ sub: 'alice', exp: 1 }))

// One principal per operation besides alice, so that each operation meets a principal with no plants
// of its own: static tokens for half the cases, JWTs for the other half.
const AUTH_TOKENS = [
  'alice:token-a',
  ...secured.map((entry) => `${entry.operationId}:token-${entry.operationId}`),
]
const env = {
  AUTH_TOKENS: AUTH_TOKENS.join(','),
  JWT_SECRET: SHARED_SECRET,
  JWT_ISSUER: ISSUER,
  JWT_AUDIENCE: AUDIENCE,
}
const ALICE = { authorization: 'Bearer token-a' }
/** A plant as JSON with its id as exact digits. */
const plantJson = ({ id, ...rest }: { id: string; name: string; tag?: string }) =>
  `{"id":${id},${JSON.stringify(rest).slice(1)}`

/** The operation's request from the document: its path parameters and its first body example, aimed at `id`. */
function requestFor(entry: OperationEntry, id: string, name: string) {
  const url = entry.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const parameter = entry.parameters.find((p) => p.in === 'path' && p.name === param)
    if (!parameter) throw new Error(`${entry.operationId}: no parameter ${param}`)
    return param === 'id' ? id : String(parameter.example ?? Object.values(parameter.examples ?? {})[0])
  })
  const content = (
    entry.operation.requestBody as {
      content?: Record<string, { examples?: Record<string, { value: unknown }> }>
    }
  )?.content?.['application/json']
  const example = Object.values(content?.examples ?? {})[0]?.value as Record<string, unknown> | undefined
  // The id as JSON digits, so that it is exact whatever its size.
  const payload = example && JSON.stringify({ ...example, name, id: 0 }).replace('"id":0', `"id":${id}`)
  return {
    method: entry.method.toUpperCase() as 'GET',
    url,
    payload,
    headers: payload ? { 'content-type': 'application/json' } : {},
  }
}

describe('the document says how each operation is secured', () => {
  it('secures every plant operation with a bearer scheme this suite knows how to probe', () => {
    expect(secured.map((entry) => entry.operationId)).toEqual(
      expect.arrayContaining(['createPlant', 'listPlants', 'getPlant', 'replacePlant', 'deletePlant']),
    )
    for (const entry of secured) {
      for (const requirement of entry.security) {
        for (const name of Object.keys(requirement)) {
          // A new kind of scheme needs its own refusals below before it can pass here.
          expect(schemes[name], `${entry.operationId}: ${name}`).toMatchObject({
            type: 'http',
            scheme: 'bearer',
          })
        }
      }
    }
  })
})

describe.each(secured)('$operationId ($method $path) without a valid bearer token', (entry) => {
  let app: Awaited<ReturnType<typeof build>>
  beforeAll(async () => {
    app = await build(env)
  })
  const REQUIRED = 'a bearer token is required'
  it.each<{ case: string; headers?: Record<string, string>; query?: string; message: string }>([
    { case: 'no Authorization header', message: REQUIRED },
    { case: 'an empty header', headers: { authorization: '' }, message: REQUIRED },
    { case: 'the scheme without a token', headers: { authorization: 'Bearer ' }, message: REQUIRED },
    { case: 'another scheme', headers: { authorization: 'Basic YWxpY2U6dG9rZW4tYQ==' }, message: REQUIRED },
    { case: 'a token without a scheme', headers: { authorization: 'token-a' }, message: REQUIRED },
    { case: 'two tokens', headers: { authorization: 'Bearer token-a token-a' }, message: REQUIRED },
    { case: 'the token in the query string', query: 'access_token=token-a', message: REQUIRED },
    { case: 'the token in a cookie', headers: { cookie: 'access_token=token-a' }, message: REQUIRED },
    {
      case: 'an unknown token',
      headers: { authorization: 'Bearer token-z' },
      message: 'the bearer token is not valid',
    },
    {
      case: 'an expired JWT',
      headers: { authorization: `Bearer ${EXPIRED_JWT}` },
      message: 'the bearer token is not valid: the token has expired',
    },
  ])('answers 401 to $case and changes nothing', async ({ headers, query, message }) => {
    const before = await app.inject({ url: '/plants', headers: ALICE })
    const request = requestFor(entry, '4242', 'Intruder')
    const res = await app.inject({
      ...request,
      url: query ? `${request.url}?${query}` : request.url,
      headers: { ...request.headers, ...headers },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 401, message })
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="plant-store"/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect((await app.inject({ url: '/plants', headers: ALICE })).body).toBe(before.body)
  })
})

describe.each(['static token', 'JWT'])('one principal and another (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof build>>
  let aliceBefore: string
  const aliceEach = new Map<string, string>()
  // Alice's plants: ids at the ends of int64 and in the middle, one with a tag.
  const alicePlants = [
    { id: '1', name: 'Alice secret 1', tag: 'private' },
    { id: '9223372036854775807', name: 'Alice secret 2' },
    { id: '-9223372036854775808', name: 'Alice secret 3' },
  ]
  beforeAll(async () => {
    app = await build(env)
    for (const plant of alicePlants) {
      const payload = plantJson(plant)
      const res = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode).toBe(200)
    }
    aliceBefore = (await app.inject({ url: '/plants?limit=100', headers: ALICE })).body
    for (const { id } of alicePlants) {
      const res = await app.inject({ url: `/plants/${id}`, headers: ALICE })
      expect(res.body).toContain(`"id":${id}`)
      aliceEach.set(id, res.body)
    }
  })

  it.each(secured)('$operationId by another principal never reaches alice’s plants', async (entry) => {
    const other =
      kind === 'JWT'
        ? { authorization: `Bearer ${await signWithSecret(claims({ sub: `jwt-${entry.operationId}` }))}` }
        : { authorization: `Bearer token-${entry.operationId}` }
    for (const { id } of alicePlants) {
      const request = requestFor(entry, id, `Not alice's ${entry.operationId}`)
      const res = await app.inject({ ...request, headers: { ...request.headers, ...other } })
      expect(res.statusCode, `${entry.operationId} ${id}`).toBeLessThan(500)
      expect(res.body).not.toMatch(/Alice secret|private/)
      // An operation on one plant by id finds none: the other principal has no plant of that id.
      if (entry.path.includes('{id}')) {
        expect(res.statusCode).toBe(404)
        expect(res.json()).toEqual({ error: 404, message: `plant ${id} not found` })
      }
      // The other principal's own list shows only what it made itself.
      const list = await app.inject({ url: '/plants?limit=100', headers: other })
      expect(list.statusCode).toBe(200)
      expect(list.body).not.toMatch(/Alice secret|private/)
    }
    // Alice's plants are exactly as they were.
    expect((await app.inject({ url: '/plants?limit=100', headers: ALICE })).body).toBe(aliceBefore)
    for (const plant of alicePlants) {
      const res = await app.inject({ url: `/plants/${plant.id}`, headers: ALICE })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(aliceEach.get(plant.id))
    }
  })
})

describe('operations without security', () => {
  it.each(open)(
    '$operationId ($method $path) answers without a token and ignores a bad one',
    async (entry) => {
      const app = await build(env)
      for (const headers of [{}, { authorization: 'Bearer token-z' }]) {
        const res = await app.inject({
          method: entry.method.toUpperCase() as 'GET',
          url: entry.path,
          headers,
        })
        expect(res.statusCode).toBe(200)
        expect(res.headers['www-authenticate']).toBeUndefined()
      }
    },
  )
})

describe('CORS', () => {
  const preflight = (origin: string) => ({
    method: 'OPTIONS' as const,
    url: '/plants/1',
    headers: {
      origin,
      'access-control-request-method': 'DELETE',
      'access-control-request-headers': 'authorization,content-type',
    },
  })

  it('allows any origin by default in development, and every method the document uses', async () => {
    const app = await build(env)
    const res = await app.inject(preflight('http://localhost:5173'))
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(String(res.headers['access-control-allow-methods']).split(/, */)).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
    )
    const get = await app.inject({ url: '/plants', headers: { ...ALICE, origin: 'https://any.example' } })
    expect(get.headers['access-control-expose-headers']).toMatch(/Link/)
  })

  it('allows no origin by default in production', async () => {
    const app = await build({ ...env, NODE_ENV: 'production' })
    const res = await app.inject(preflight('http://localhost:5173'))
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    const get = await app.inject({ url: '/plants', headers: { ...ALICE, origin: 'http://localhost:5173' } })
    expect(get.statusCode).toBe(200)
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('allows only the origins CORS_ORIGIN names', async () => {
    const app = await build({ ...env, NODE_ENV: 'production', CORS_ORIGIN: 'https://app.example' })
    const allowed = await app.inject(preflight('https://app.example'))
    expect(allowed.statusCode).toBe(204)
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example')
    const other = await app.inject(preflight('https://evil.example'))
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('security headers by what an answer is', () => {
  // OWASP's REST Security Cheat Sheet: a JSON answer may not run, be framed or be sniffed.
  const API = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  }
  // helmet's headers for a document, framing refused, with a CSP for Swagger UI alone.
  const DOCUMENT = {
    ...API,
    'content-security-policy': expect.stringMatching(
      /^default-src 'none'; script-src 'self'; style-src 'self' 'sha256-[\w+/=]+'; img-src 'self' data:; connect-src 'self'[^;]*; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
    ),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  }
  const names = Object.keys(DOCUMENT)
  const securityHeaders = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => names.includes(name)))

  let app: Awaited<ReturnType<typeof build>>
  beforeAll(async () => {
    app = await build(env)
  })

  it.each<{ kind: string; request: InjectOptions; status: number }>([
    { kind: 'a page of plants', request: { url: '/plants', headers: ALICE }, status: 200 },
    {
      kind: 'a create',
      request: {
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'application/json' },
        payload: '{"id":77,"name":"Fern"}',
      },
      status: 200,
    },
    { kind: 'a 401', request: { url: '/plants' }, status: 401 },
    { kind: 'an unknown path', request: { url: '/nope' }, status: 404 },
    { kind: 'an unknown path under /docs', request: { url: '/docs/nope' }, status: 404 },
    { kind: 'a method the path does not take', request: { method: 'PATCH', url: '/plants' }, status: 405 },
    { kind: 'a refusal before routing', request: { url: `/plants/${'9'.repeat(200)}` }, status: 414 },
    { kind: 'a health probe', request: { url: '/healthz' }, status: 200 },
    { kind: 'the document', request: { url: '/openapi.json' }, status: 200 },
  ])('gives $kind the REST API set and no browser-document header', async ({ request, status }) => {
    const res = await app.inject(request)
    expect(res.statusCode).toBe(status)
    expect(securityHeaders(res.headers)).toEqual(API)
  })

  it.each<{ kind: string; url: string; method?: 'HEAD'; status: number; type?: RegExp }>([
    { kind: 'the docs page', url: '/docs/', status: 200, type: /^text\/html/ },
    { kind: 'the docs page without its slash', url: '/docs', status: 200, type: /^text\/html/ },
    { kind: 'its script', url: '/docs/static/swagger-ui-bundle.js', status: 200, type: /javascript/ },
    { kind: 'its stylesheet', url: '/docs/static/swagger-ui.css', status: 200, type: /^text\/css/ },
    {
      kind: 'its stylesheet without its content',
      url: '/docs/static/swagger-ui.css',
      method: 'HEAD',
      status: 200,
    },
  ])('gives $kind the headers of a document', async ({ url, method, status, type }) => {
    const res = await app.inject({ url, method: method ?? 'GET' })
    expect(res.statusCode).toBe(status)
    if (type) expect(res.headers['content-type']).toMatch(type)
    expect(securityHeaders(res.headers)).toEqual(DOCUMENT)
  })

  it("lets the docs page's Try it out reach the document's servers and no other origin", async () => {
    const res = await app.inject({ url: '/docs/' })
    const connect = String(res.headers['content-security-policy']).match(/connect-src ([^;]*)/)?.[1]
    const servers = (spec.document.servers ?? []).map((server) => new URL(server.url).origin)
    expect(connect?.split(' ')).toEqual(["'self'", ...new Set(servers)])
  })
})
