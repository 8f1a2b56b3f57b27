// The validating proxy (`npm run proxy`): ids beyond 2^53 pass digit for digit both ways, and an answer
// that departs from the document reaches the client unchanged, with the departure reported.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { defineCheck, defineConfig } from '../index.js'
import { type Departure, type RunningProxy, startProxy } from '../proxy/proxy.js'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** A stand-in server: records what reaches it and answers what the test queued for that path. */
const received: Received[] = []
const answers = new Map<string, { status: number; type?: string; body: string }>()
let upstream: Server
let upstreamUrl: string
let proxy: RunningProxy
const departures: Departure[] = []

beforeAll(async () => {
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const answer = answers.get(`${req.method} ${req.url}`) ?? { status: 500, body: 'not queued' }
      res.writeHead(answer.status, answer.type ? { 'content-type': answer.type } : {}).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  proxy = await startProxy({ upstream: upstreamUrl, onDeparture: (d) => departures.push(d) })
})

afterAll(async () => {
  await proxy?.close()
  upstream?.closeAllConnections()
  await new Promise((resolve) => upstream?.close(resolve))
})

const json = 'application/json'

describe('the validating proxy', () => {
  it('forwards an id above 2^53 digit for digit, in the request body and in the answer', async () => {
    const sent = '{"id":9007199254740993,"name":"Basil","tag":"herb"}'
    const answered = '{"id":9223372036854775807,"name":"Basil","tag":"herb"}'
    answers.set('POST /plants?trace=1', { status: 200, type: json, body: answered })
    const before = departures.length
    const response = await fetch(`${proxy.url}/plants?trace=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer someone', 'content-type': json },
      body: sent,
      signal: AbortSignal.timeout(10_000),
    })
    const text = await response.text()

    const reached = received.at(-1)
    expect(reached?.url).toBe('/plants?trace=1')
    expect(reached?.body).toBe(sent)
    expect(reached?.headers.authorization).toBe('Bearer someone')
    expect(response.status).toBe(200)
    expect(text).toBe(answered)
    // The answer conforms: nothing is reported and nothing is added.
    expect(response.headers.get('x-contract-violations')).toBeNull()
    expect(departures.slice(before)).toEqual([])
  })

  it('passes a non-conforming answer through unchanged and names the check it fails', async () => {
    // getPlant's 404 must be the document's Error, which requires `error`.
    const body = '{"message":"no plant 1"}'
    answers.set('GET /plants/1', { status: 404, type: json, body })
    const before = departures.length
    const response = await fetch(`${proxy.url}/plants/1`, {
      headers: { authorization: 'Bearer someone' },
      signal: AbortSignal.timeout(10_000),
    })

    expect(response.status).toBe(404)
    expect(await response.text()).toBe(body)
    expect(response.headers.get('x-contract-violations')).toBe('1; response_schema_conformance')
    expect(departures.slice(before)).toEqual([
      {
        operation: 'getPlant',
        method: 'GET',
        path: '/plants/1',
        status: 404,
        check: 'response_schema_conformance',
        problem: "body must have required property 'error'",
      },
    ])
  })

  it('judges the answer to a path the document lacks as an Error, and logs one JSON line per departure', async () => {
    answers.set('GET /nowhere', { status: 404, type: 'text/plain', body: 'Not Found' })
    const lines: string[] = []
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk))
      return true
    })
    // No onDeparture: the default report, as `npm run proxy` prints it.
    const logging = await startProxy({ upstream: upstreamUrl })
    try {
      const response = await fetch(`${logging.url}/nowhere`, { signal: AbortSignal.timeout(10_000) })
      expect(await response.text()).toBe('Not Found')
      expect(response.headers.get('x-contract-violations')).toBe('1; content_type_conformance')
    } finally {
      write.mockRestore()
      await logging.close()
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({
      msg: 'departure from the document',
      operation: null,
      method: 'GET',
      path: '/nowhere',
      status: 404,
      check: 'content_type_conformance',
    })
  })

  it('keeps the other checks’ findings when a team’s check throws, and says which one threw', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const teamProxy = await startProxy({
      upstream: upstreamUrl,
      onDeparture: () => {},
      config: defineConfig({
        checks: [
          defineCheck({
            name: 'throws',
            description: 'a broken check',
            run: () => {
              throw new Error('no vault')
            },
          }),
          defineCheck({ name: 'always_one', description: 'finds one thing', run: () => ['one thing'] }),
        ],
      }),
    })
    try {
      answers.set('GET /plants/2', { status: 404, type: json, body: '{"message":"no plant 2"}' })
      const response = await fetch(`${teamProxy.url}/plants/2`, {
        headers: { authorization: 'Bearer someone' },
        signal: AbortSignal.timeout(10_000),
      })
      expect(response.status).toBe(404)
      expect(response.headers.get('x-contract-violations')).toBe('2; response_schema_conformance, always_one')
      expect(errors.mock.calls.flat().join('\n')).toMatch(
        /could not judge GET \/plants\/2: the check throws failed: no vault/,
      )
    } finally {
      errors.mockRestore()
      await teamProxy.close()
    }
  })

  it('answers 502 with an Error body when the server cannot be reached', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const orphan = await startProxy({ upstream: `http://127.0.0.1:${port}`, onDeparture: () => {} })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const response = await fetch(`${orphan.url}/plants`, { signal: AbortSignal.timeout(10_000) })
      expect(response.status).toBe(502)
      expect(await response.json()).toMatchObject({ error: 502 })
    } finally {
      error.mockRestore()
      await orphan.close()
    }
  })
})
