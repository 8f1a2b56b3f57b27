// `npm run mock` takes every request the real server takes, int64 ids included, and refuses every
// other one with the server's status, message and headers, while `Prefer` still picks Prism's examples.

import { type Answer, generatedCases, type RequestSpec, send } from '@plant-store/verify/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mock } from '../scripts/lib/commands.js'
import { type Started, startProcess } from '../scripts/lib/processes.js'
import { loadSpec } from '../scripts/lib/spec.js'
import { describeOneAnswer } from './helpers/one-answer.js'
import { exchange, type RawAnswer } from './helpers/raw-http.js'
import { type ServerProcess, startServer } from './helpers/server-process.js'

const TOKEN = 'mock-test-token'
const spec = await loadSpec()
let server: ServerProcess
let prism: Started

beforeAll(async () => {
  ;[server, prism] = await Promise.all([
    startServer({ AUTH_TOKENS: `alice:${TOKEN}` }),
    startProcess({ ...mock(), timeoutMs: 60_000 }),
  ])
}, 90_000)

afterAll(async () => {
  await Promise.all([server?.stop(), prism?.stop()])
})

const bearer = `Bearer ${TOKEN}`
const json = (method: string, path: string, body: string, auth = true) =>
  ({
    method,
    path,
    contentType: 'application/json',
    body,
    auth: auth ? { kind: 'principal' } : { kind: 'none' },
  }) satisfies RequestSpec
const get = (path: string): RequestSpec => ({ method: 'GET', path, auth: { kind: 'principal' } })

/** The example Prism answers with: the first of the operation's status. */
function example(operationId: string, status: number): unknown {
  const entry = spec.operations.find((candidate) => candidate.operationId === operationId)
  const response = entry?.operation.responses?.[String(status)] as
    | { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }
    | undefined
  const first = Object.values(response?.content?.['application/json']?.examples ?? {})[0]
  if (!first) throw new Error(`${operationId} documents no example for ${status}`)
  return first.value
}

/** The answer of the mock and of the real server to the same request. */
async function both(request: RequestSpec, headers: Record<string, string> = {}) {
  const auth =
    request.auth.kind === 'principal'
      ? bearer
      : request.auth.kind === 'header'
        ? request.auth.value
        : undefined
  const [fromMock, fromServer] = await Promise.all([
    send(prism.url, request, auth, headers),
    send(server.url, request, auth, headers),
  ])
  return { mock: fromMock, server: fromServer }
}

const shown = (answer: Answer) => `${answer.status} ${answer.text}`

/** The same refusal: status, Error body, and the headers the document makes a refusal carry. */
function expectSameRefusal({ mock: fromMock, server: fromServer }: { mock: Answer; server: Answer }) {
  expect(fromServer.status, `the server accepted it: ${shown(fromServer)}`).toBeGreaterThanOrEqual(400)
  expect(shown(fromMock)).toBe(shown(fromServer))
  for (const header of ['www-authenticate', 'allow', 'accept-encoding', 'cache-control'])
    expect(fromMock.headers[header], header).toBe(fromServer.headers[header])
}

describeOneAnswer(
  'npm run mock',
  () => ({ port: Number(new URL(prism.url).port), host: new URL(prism.url).hostname, token: TOKEN }),
  true,
)

describe('npm run mock', () => {
  it('creates a plant whose id is beyond ±(2^53−1), answering the example', async () => {
    const answer = await send(
      prism.url,
      json('POST', '/plants', '{"id":9007199254740993,"name":"Basil"}'),
      bearer,
    )
    expect(answer.status, shown(answer)).toBe(200)
    expect(answer.json).toEqual(example('createPlant', 200))
  })

  it.each(['9007199254740993', '-9223372036854775808', '9223372036854775807'])(
    'reads plant %s, an int64 id a JavaScript number cannot hold',
    async (id) => {
      const answer = await send(prism.url, get(`/plants/${id}`), bearer)
      expect(answer.status, shown(answer)).toBe(200)
      expect(answer.json).toEqual(example('getPlant', 200))
    },
  )

  it('replaces plant 9223372036854775807 with a body naming the same id', async () => {
    const answer = await send(
      prism.url,
      json('PUT', '/plants/9223372036854775807', '{"id":9223372036854775807,"name":"Fern"}'),
      bearer,
    )
    expect(answer.status, shown(answer)).toBe(200)
  })

  it.each([
    ['an id past int64 in the path', get('/plants/9223372036854775808')],
    ['an id below int64 in the path', get('/plants/-9223372036854775809')],
    ['an id past int64 in a body', json('POST', '/plants', '{"id":9223372036854775808,"name":"Basil"}')],
    ['a name that is a number', json('POST', '/plants', '{"id":1,"name":42}')],
    ['a body without an id', json('POST', '/plants', '{"name":"Basil"}')],
    ['a body without a name, its id beyond 2^53', json('POST', '/plants', '{"id":9007199254740993}')],
    ['no token', json('POST', '/plants', '{"id":1,"name":"Basil"}', false)],
    ['another scheme', { ...get('/plants'), auth: { kind: 'header', value: 'Basic dXNlcjpwYXNz' } }],
    ['a path id written 007', get('/plants/007')],
    ['a path id written 1e3', get('/plants/1e3')],
    ['a limit written empty', get('/plants?limit=')],
    ['a limit written 0x10', get('/plants?limit=0x10')],
    ['a cursor the server did not make', get('/plants?cursor=not-a-cursor')],
    ['malformed JSON', json('POST', '/plants', '{"id":1,')],
    [
      'a body without Content-Type',
      { ...json('POST', '/plants', '{"id":1,"name":"Basil"}'), contentType: undefined },
    ],
    [
      'a +json media type',
      { ...json('POST', '/plants', '{"id":1,"name":"Basil"}'), contentType: 'application/merge-patch+json' },
    ],
    ['a lone surrogate in a name', json('POST', '/plants', '{"id":1,"name":"\\ud800"}')],
    ['a body over 65536 bytes', json('POST', '/plants', JSON.stringify({ id: 1, name: 'x'.repeat(70_000) }))],
    // Fastify reads the body, within the limit, before its parser finds no Content-Type: 413 first.
    [
      'a body over 65536 bytes without Content-Type',
      { ...json('POST', '/plants', 'x'.repeat(70_000)), contentType: undefined },
    ],
    ['a path segment over 100 characters', get(`/plants/${'1'.repeat(101)}`)],
    ['a method the path does not take', { method: 'PATCH', path: '/plants', auth: { kind: 'principal' } }],
    ['a path the document lacks', get('/plants/1/leaves')],
  ] as [string, RequestSpec][])('refuses %s as the server does', async (_, request) => {
    expectSameRefusal(await both(request))
  })

  // An operation without a request body ignores one, even with a Content-Type that is no media type:
  // each answers as without it (the mock, keeping no state, finds the plant; the server has none).
  it('ignores a body with a Content-Type that is no media type, to an operation without a body', async () => {
    const { mock, server } = await both({ ...json('DELETE', '/plants/1', '{}'), contentType: 'plants' })
    expect(shown(mock)).toBe('204 ')
    expect(shown(server)).toBe('404 {"error":404,"message":"plant 1 not found"}')
  })

  it('refuses gzip-encoded bodies as the server does, before reading them', async () => {
    expectSameRefusal(
      await both(json('POST', '/plants', '{"id":1,"name":"Basil"}'), { 'content-encoding': 'gzip' }),
    )
    const big = json('POST', '/plants', JSON.stringify({ id: 1, name: 'x'.repeat(70_000) }))
    expectSameRefusal(await both(big, { 'content-encoding': 'gzip' }))
  })

  // What fetch cannot send: no Host, a method Node does not know, CONNECT, an unmet Expect.
  it.each([
    ['no Host on a path segment over 100 characters: the router first', `GET /plants/${'1'.repeat(101)}`],
    ['no Host on a path that is not percent-encoding: the router first', 'GET /plants/%E0%A4%A'],
    ['no Host on a path the document lacks', 'GET /plants/1/leaves'],
    ['no Host and no token', 'GET /plants', ''],
    [
      'an Expect other than 100-continue on a path segment over 100 characters',
      `GET /plants/${'1'.repeat(101)}`,
      'Host: x\r\nExpect: tea\r\n',
    ],
    ['an Expect other than 100-continue', 'GET /plants', 'Host: x\r\nExpect: tea\r\n'],
    ['a method Node does not know', 'BREW /plants', 'Host: x\r\n'],
    ['CONNECT', 'CONNECT example.com:443', 'Host: example.com:443\r\n'],
  ])(
    'refuses %s over a raw socket as the server does',
    async (_, line, headers = `Authorization: ${bearer}\r\n`) => {
      const request = `${line} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`
      const raw = (url: string) => exchange(Number(new URL(url).port), request, new URL(url).hostname)
      const [fromMock, fromServer] = await Promise.all([raw(prism.url), raw(server.url)])
      const said = (answer: RawAnswer) => `${answer.status} ${answer.body}`
      expect(fromServer.status, said(fromServer)).toBeGreaterThanOrEqual(400)
      expect(said(fromMock)).toBe(said(fromServer))
      for (const header of ['www-authenticate', 'allow', 'cache-control'])
        expect(fromMock.headers[header], header).toBe(fromServer.headers[header])
    },
  )

  // URL would resolve `..` and `.` and read `//plants` as a host: the server routes the path as sent,
  // an absolute-form target on its path, up to `#`, and names what it does not route as sent.
  const target = async (path: string) => {
    const request = `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nConnection: close\r\n\r\n`
    const raw = (url: string) => exchange(Number(new URL(url).port), request, new URL(url).hostname)
    const [fromMock, fromServer] = await Promise.all([raw(prism.url), raw(server.url)])
    return { fromMock, fromServer }
  }
  const said = (answer: RawAnswer) => `${answer.status} ${answer.body}`

  it.each([
    '/plants/../plants',
    '//plants',
    '/plants//1',
    '/./plants',
    '/plants/./1',
    '/plants/1/..',
    'http://x/plants/1/leaves',
    '/plants/1/leaves#x',
  ])('answers the target %s as the server does', async (path) => {
    const { fromMock, fromServer } = await target(path)
    expect(fromServer.status, said(fromServer)).toBe(404)
    expect(said(fromMock)).toBe(said(fromServer))
  })

  it.each(['http://x/plants', '/plants#x'])('takes the target %s as the server does', async (path) => {
    const { fromMock, fromServer } = await target(path)
    expect([fromMock.status, fromServer.status], `${said(fromMock)}\n${said(fromServer)}`).toEqual([200, 200])
  })

  it.each([
    [
      'a bearer scheme written in lower case',
      { ...get('/plants'), auth: { kind: 'header', value: `bearer ${TOKEN}` } },
    ],
    ['a JSON body sent to DELETE', json('DELETE', '/plants/1', '{"x":1}')],
    [
      'a name of 64 characters beyond the Basic Multilingual Plane',
      json('POST', '/plants', JSON.stringify({ id: 9, name: '🌱'.repeat(64) })),
    ],
    ['an id written 1e18', json('POST', '/plants', '{"id":1e18,"name":"Basil"}')],
    ['a request that accepts only text/plain', { ...get('/plants/1'), headers: { accept: 'text/plain' } }],
  ] as [string, RequestSpec][])('takes %s as the server does', async (_, request) => {
    const { mock: fromMock, server: fromServer } = await both(request)
    // The server's answer may depend on what it stores (404); what matters is that it did not refuse.
    expect([200, 204, 404], shown(fromServer)).toContain(fromServer.status)
    expect([200, 204], shown(fromMock)).toContain(fromMock.status)
  })

  it('answers every generated negative case of the contract suite as the server does', async () => {
    const cases = generatedCases(spec.operations as never).filter(
      // What only a store decides (a taken id, a missing plant) is no refusal of the request itself.
      (c) => c.status >= 400 && c.request.auth.kind !== 'unknown',
    )
    expect(cases.length).toBeGreaterThan(20)
    for (const c of cases) {
      const answers = await both(c.request)
      expect(shown(answers.mock), c.id).toBe(shown(answers.server))
    }
  })

  it('still gives Prism’s example for a refusal asked for with Prefer', async () => {
    const valid = json('POST', '/plants', '{"id":1,"name":"Basil"}')
    const asked = await send(prism.url, valid, bearer, { prefer: 'code=400' })
    expect(shown(asked)).toBe(`400 ${JSON.stringify(example('createPlant', 400))}`)
    const named = await send(prism.url, valid, bearer, { prefer: 'code=409, example=duplicate' })
    expect(named.status, shown(named)).toBe(409)
    // On an invalid request too: Prism's example, not the server's message, as before the front.
    const invalid = await send(prism.url, json('POST', '/plants', '{"id":1,"name":42}'), bearer, {
      prefer: 'code=400',
    })
    expect(shown(invalid)).toBe(`400 ${JSON.stringify(example('createPlant', 400))}`)
    expect(example('createPlant', 400)).not.toEqual({ error: 400, message: 'body/name must be string' })
  })

  it('gives a success example asked for with Prefer on a valid request with an int64 id', async () => {
    const answer = await send(prism.url, get('/plants/9223372036854775807'), bearer, { prefer: 'code=200' })
    expect(shown(answer)).toBe(`200 ${JSON.stringify(example('getPlant', 200))}`)
  })

  it('lets a page on another origin read a refusal', async () => {
    const answer = await send(prism.url, { ...get('/plants'), auth: { kind: 'none' } }, undefined, {
      origin: 'http://localhost:5173',
    })
    expect(answer.status).toBe(401)
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(answer.headers['access-control-expose-headers']).toBe('*')
  })
})

describe('npm run mock:dynamic', () => {
  let dynamic: Started
  beforeAll(async () => {
    dynamic = await startProcess({ ...mock({}, true), timeoutMs: 60_000 })
  }, 90_000)
  afterAll(async () => {
    await dynamic?.stop()
  })

  it('takes an int64 id Prism alone refuses, and answers with generated data', async () => {
    const answer = await send(dynamic.url, get('/plants/-9223372036854775808'), bearer)
    expect(answer.status, shown(answer)).toBe(200)
    expect(answer.json).toMatchObject({ id: expect.any(Number), name: expect.any(String) })
  })

  it('refuses as the server does', async () => {
    const request = json('POST', '/plants', '{"id":1,"name":42}')
    const [fromDynamic, fromServer] = await Promise.all([
      send(dynamic.url, request, bearer),
      send(server.url, request, bearer),
    ])
    expect(shown(fromDynamic)).toBe(shown(fromServer))
  })
})
