// How one request goes out and its answer comes back (http.ts's send): the body's length said as fetch
// says it, a header sent twice read as one value, the text read as fetch reads it, a kept-open
// connection the server closed as a request went out on it sent again, and a refused connection named.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send } from '../http.js'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  /** The connection's own count of requests, from 1. */
  onConnection: number
}
const seen: Seen[] = []
const requestsOn = new WeakMap<Socket, number>()

const server: Server = createServer((req, res) => {
  const count = (requestsOn.get(req.socket) ?? 0) + 1
  requestsOn.set(req.socket, count)
  let body = ''
  req.on('data', (chunk) => {
    body += chunk
  })
  req.on('end', () => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body,
      onConnection: count,
    })
    // A server that closes a kept-open connection as the next request arrives on it, unanswered;
    // on a port of its own (the test below), so that no other test's connection is among them.
    if (req.socket.localPort === closingPort && count > 1) {
      req.socket.destroy()
      return
    }
    res.setHeader('content-type', 'application/json')
    if (req.url !== '/twice') {
      res.end('{}')
      return
    }
    res.setHeader('x-twice', ['a', 'b'])
    res.end('\uFEFF{"name":"Basil"}')
  })
})
const closing: Server = createServer((req, res) => server.emit('request', req, res))
let base = ''
let closingPort = 0
const listen = async (on: Server) => {
  await new Promise<void>((resolve) => on.listen(0, '127.0.0.1', resolve))
  return (on.address() as AddressInfo).port
}
beforeAll(async () => {
  base = `http://127.0.0.1:${await listen(server)}`
  closingPort = await listen(closing)
})
afterAll(async () => {
  for (const on of [server, closing]) {
    on.closeAllConnections()
    await new Promise((resolve) => on.close(resolve))
  }
})

const none = { kind: 'none' } as const

describe('send', () => {
  it('says the length of a body, says an empty one for a POST without, and says none for a GET', async () => {
    seen.length = 0
    await send(
      base,
      {
        method: 'POST',
        path: '/plants',
        contentType: 'application/json',
        body: '{"name":"Mäx"}',
        auth: none,
      },
      undefined,
    )
    await send(base, { method: 'POST', path: '/plants', auth: none }, undefined)
    await send(base, { method: 'GET', path: '/plants', auth: none }, undefined)
    const [withBody, empty, get] = seen
    expect(withBody?.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"Mäx"}')))
    expect(withBody?.body).toBe('{"name":"Mäx"}')
    expect(empty?.headers['content-length']).toBe('0')
    expect(empty?.headers['content-type']).toBeUndefined()
    expect(get?.headers['content-length']).toBeUndefined()
    expect(get?.headers['transfer-encoding']).toBeUndefined()
  })

  it('reads a header sent twice as one value, and the text without its byte order mark', async () => {
    const answer = await send(base, { method: 'GET', path: '/twice', auth: none }, 'Bearer t')
    expect(answer.headers['x-twice']).toBe('a, b')
    expect(answer.text).toBe('{"name":"Basil"}')
    expect(answer.json).toEqual({ name: 'Basil' })
    expect(answer.sentHeaders?.authorization).toBe('Bearer t')
  })

  it('sends a request again on a new connection when the kept-open one was closed as it went out', async () => {
    seen.length = 0
    const closingBase = `http://127.0.0.1:${closingPort}`
    const first = await send(closingBase, { method: 'GET', path: '/plants', auth: none }, undefined)
    const second = await send(
      closingBase,
      { method: 'PUT', path: '/plants/1', body: '{}', contentType: 'application/json', auth: none },
      undefined,
    )
    expect([first.status, second.status]).toEqual([200, 200])
    // The second went out on the first's connection, was closed unanswered, and went again on a new one.
    expect(seen.map((s) => [s.method, s.onConnection])).toEqual([
      ['GET', 1],
      ['PUT', 2],
      ['PUT', 1],
    ])
  })

  it('names the system error when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const sent = send(`http://127.0.0.1:${port}`, { method: 'GET', path: '/', auth: none }, undefined)
    await expect(sent).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } })
  })
})
