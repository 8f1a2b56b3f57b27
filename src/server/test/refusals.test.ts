// What Node's HTTP server and Fastify refuse before any operation runs, sent over a real port with raw
// sockets (fetch cannot send most of these): each answer is in the document's Error shape, as
// application/json, with `error` equal to the status.
import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjv, loadSpec } from '../../../scripts/lib/spec.js'
import { build } from '../../../test/helpers/build.js'
import { describeOneAnswer } from '../../../test/helpers/one-answer.js'
import { exchange, type RawAnswer } from '../../../test/helpers/raw-http.js'
import { API_HEADERS } from '../plugins/external/security-headers.js'

const AUTH = 'Authorization: Bearer token-a\r\n'
const ORIGIN = 'https://app.example'

let port: number
let isError: (body: unknown) => boolean

beforeAll(async () => {
  const spec = await loadSpec()
  const schemas = spec.dereferenced.components?.schemas ?? {}
  const validate = createAjv().compile(schemas.Error as object)
  isError = (body) => validate(body)
  const app: FastifyInstance = await build({ CORS_ORIGIN: ORIGIN })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  port = address.port
}, 60_000)

describeOneAnswer('the server', () => ({ port, token: 'token-a' }), true)

/** The answer is `status` in the Error shape, and what it says matches `message`. */
async function expectRefusal(request: string, status: number, message: RegExp): Promise<RawAnswer> {
  const answer = await exchange(port, request)
  expect(answer.status, answer.body).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/json\b/)
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
  const body = JSON.parse(answer.body) as { error: number; message: string }
  expect(isError(body), answer.body).toBe(true)
  expect(body.error).toBe(status)
  expect(body.message).toMatch(message)
  for (const [name, value] of Object.entries(API_HEADERS)) expect(answer.headers[name], name).toBe(value)
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  return answer
}

describe("Fastify's router", () => {
  it('answers a path parameter over 100 characters with 414, not in Fastify shape', async () => {
    const answer = await expectRefusal(
      `GET /plants/${'9'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
      414,
      /^a path segment is longer than 100 characters$/,
    )
    expect(answer.body).not.toContain('FST_ERR')
  })

  it('answers a path that is not valid percent-encoding with 400', async () => {
    await expectRefusal(`GET /plants/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`, 400, /percent-encoded/)
  })

  it('answers a method no operation takes before reading its body: QUERY without Content-Type is 405', async () => {
    const answer = await expectRefusal(`QUERY /plants HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`, 405, /QUERY/)
    expect(answer.headers.allow).toBe('GET, POST')
    // An unknown path with a body over the limit is a 404: nothing reads the body.
    const big = 'x'.repeat(70_000)
    await expectRefusal(
      `POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
      404,
      /no route for POST \/nowhere/,
    )
  })
})

describe('CORS', () => {
  it('answers an OPTIONS that is no preflight as any method no operation takes, not 400 text/plain', async () => {
    const bare = await expectRefusal(`OPTIONS /plants HTTP/1.1\r\nHost: x\r\n\r\n`, 405, /OPTIONS/)
    expect(bare.headers.allow).toBe('GET, POST')
    const withOrigin = await expectRefusal(
      `OPTIONS /plants/1 HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\n\r\n`,
      405,
      /OPTIONS/,
    )
    expect(withOrigin.headers.allow).toBe('GET, PUT, DELETE')
    await expectRefusal(`OPTIONS /nowhere HTTP/1.1\r\nHost: x\r\n\r\n`, 404, /no route/)
  })

  it('still answers a real preflight with 204 and the CORS headers', async () => {
    const preflight = await exchange(
      port,
      `OPTIONS /plants HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`,
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN)
  })
})

describe('bodies the server cannot read', () => {
  it('answers a body in a content coding with 415 and Accept-Encoding: identity', async () => {
    const answer = await expectRefusal(
      `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd`,
      415,
      /Content-Encoding gzip/,
    )
    expect(answer.headers['accept-encoding']).toBe('identity')
  })

  it('answers a transfer coding other than chunked with 501', async () => {
    await expectRefusal(
      `PUT /plants/1 HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      501,
      /transfer coding gzip, chunked/,
    )
  })

  it('answers chunk extensions over 16 KiB with 413', async () => {
    await expectRefusal(
      `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      413,
      /chunk extensions/,
    )
  })
})

describe("Node's HTTP server", () => {
  it('answers a HTTP/1.1 request without Host with 400, not an empty answer', async () => {
    const answer = await expectRefusal(`GET /plants HTTP/1.1\r\n${AUTH}\r\n`, 400, /Host/)
    expect(answer.headers.connection).toBe('close')
  })

  it('answers an Expect other than 100-continue with 417, not an empty answer', async () => {
    await expectRefusal(
      `GET /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Expect: tea\r\n\r\n`,
      417,
      /expectation tea/,
    )
  })

  it('answers CONNECT with 501 instead of closing without a word', async () => {
    const answer = await expectRefusal(
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
      501,
      /CONNECT/,
    )
    expect(answer.headers.connection).toBe('close')
  })

  it('answers a method Node does not know with 501, and what is not HTTP with 400', async () => {
    await expectRefusal(`BREW /plants HTTP/1.1\r\nHost: x\r\n\r\n`, 501, /method BREW/)
    await expectRefusal(`NOT HTTP AT ALL\r\n\r\n`, 400, /not valid HTTP/)
    await expectRefusal(`GET /plants HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`, 400, /not valid HTTP/)
  })

  it('answers a request line and headers over 16 KiB with 431', async () => {
    const answer = await expectRefusal(
      `GET /plants?tag=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
      431,
      /16384 bytes/,
    )
    expect(answer.headers.connection).toBe('close')
  })

  it('answers headers that do not arrive in time with 408', async () => {
    const app = await build({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    // The blank line that ends the headers never comes.
    const answer = await exchange(address.port, `GET /plants HTTP/1.1\r\nHost: x\r\n`)
    expect(answer.status).toBe(408)
    expect(answer.headers['content-type']).toMatch(/^application\/json\b/)
    const body = JSON.parse(answer.body) as unknown
    expect(isError(body)).toBe(true)
    expect(body).toEqual({ error: 408, message: 'the request did not arrive in time' })
  })
})
