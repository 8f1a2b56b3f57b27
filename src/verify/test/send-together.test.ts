// Requests sent together reach the server together, each on a connection of its own: a server that
// answers none of them until all have arrived answers them all (sent one after another, the first
// would wait for ever), with the team's hook applied to each and each counted as the run counts any.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Subject } from '../run/subject.js'
import { sendTogether } from '../run/together.js'

const TOGETHER = 5
const seen: {
  port: number
  authorization?: string
  hooked?: string
  path?: string
  connection?: string
  body: string
}[] = []
const waiting: ServerResponse[] = []
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => {
    body += chunk
  })
  req.on('end', () => {
    seen.push({
      port: req.socket.remotePort ?? 0,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(typeof req.headers['x-hooked'] === 'string' ? { hooked: req.headers['x-hooked'] } : {}),
      ...(req.url ? { path: req.url } : {}),
      ...(req.headers.connection ? { connection: req.headers.connection } : {}),
      body,
    })
    waiting.push(res)
    if (waiting.length < TOGETHER) return
    for (const [i, held] of waiting.splice(0).entries())
      held.writeHead(200, { 'content-type': 'application/json' }).end(`{"n":${i}}`)
  })
})

let base = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('requests sent together', () => {
  it('arrive before any is answered, each on its own connection, hooked and counted', async () => {
    const subject = new Subject(base, ['token-a', 'token-b'], undefined)
    subject.beforeRequest = async (request) => ({
      ...request.headers,
      'x-hooked': new URL(request.url).pathname,
    })
    const requests = Array.from({ length: TOGETHER }, (_, i) => ({
      method: 'POST',
      path: '/plants',
      contentType: 'application/json',
      body: `{"id":${i}}`,
      auth: { kind: 'principal' as const },
    }))
    const answers = await Promise.all(await sendTogether(subject, requests, 1))
    expect(answers.map((a) => a.status)).toEqual(Array(TOGETHER).fill(200))
    expect(answers.map((a) => a.json)).toEqual(
      expect.arrayContaining(Array.from({ length: TOGETHER }, (_, n) => ({ n }))),
    )
    expect(new Set(seen.map((s) => s.port)).size).toBe(TOGETHER)
    for (const s of seen) {
      expect(s).toMatchObject({
        authorization: 'Bearer token-b',
        hooked: '/prefix/plants',
        path: '/prefix/plants',
      })
    }
    expect(seen.map((s) => s.body).sort()).toEqual(requests.map((r) => r.body).sort())
    expect([subject.requests, subject.sent[1], subject.sent[0]]).toEqual([TOGETHER, TOGETHER, 0])
    expect(seen.map((s) => s.connection)).toEqual(Array(TOGETHER).fill('close'))
  }, 10_000)

  it('go through the run’s own sending, which waits, when the declared quota has no room for all', async () => {
    seen.length = 0
    const subject = new Subject(base, ['token-a', 'token-b'], undefined)
    subject.limits.learn(0, 200, { ratelimit: `"default";r=${TOGETHER - 1};t=60` }, Date.now())
    const requests = Array.from({ length: TOGETHER }, () => ({
      method: 'GET',
      path: '/plants',
      auth: { kind: 'principal' as const },
    }))
    const answers = await Promise.all(await sendTogether(subject, requests, 0))
    expect(answers.map((a) => a.status)).toEqual(Array(TOGETHER).fill(200))
    // Not the connections of its own it closes after one request: the run's pool, kept alive.
    expect(seen.filter((s) => s.connection === 'close')).toEqual([])
    expect(subject.sent[0]).toBe(TOGETHER)
  }, 10_000)
})
