// Slow clients, overload and a store that cannot take writes: what the server answers, and that it
// keeps serving others and recovers by itself. Timeouts are tried over a real port with raw sockets.
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { ALICE, build } from '../../../test/helpers/build.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-store-reliability-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const create = (id: number, name = 'Basil', tag?: string) => ({
  method: 'POST' as const,
  url: '/plants',
  headers: ALICE,
  payload: { id, name, ...(tag === undefined ? {} : { tag }) },
})
// The longest name and tag the document allows, in a character UTF-8 writes in 4 bytes: 1280 bytes.
const BIG = ['𝄞'.repeat(256), '𝄞'.repeat(64)] as const

/** What a raw client gets back until the server closes the connection (bounded: 10 s). */
function rawExchange(port: number, send: (write: (text: string) => boolean) => Promise<void>) {
  return new Promise<string>((resolve, reject) => {
    let text = ''
    let closed = false
    const socket = connect(port, '127.0.0.1', () => {
      send((chunk) => !closed && socket.write(chunk)).catch(() => {})
    })
    socket.on('data', (chunk) => {
      text += chunk
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      closed = true
      resolve(text)
    })
    socket.setTimeout(10_000, () => {
      socket.destroy()
      reject(new Error(`the server kept the slow connection open for 10 s; received: ${text}`))
    })
  })
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('timeouts against slow clients', () => {
  it('cuts off headers sent a byte at a time, and a body sent too slowly, while serving others', async () => {
    const app = await build({ HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '800' })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const { port } = address

    // At most 300 bytes, 50 ms apart: far longer than the 400 ms the headers may take.
    const dripHeaders = rawExchange(port, async (write) => {
      for (const byte of `GET /plants HTTP/1.1\r\nHost: x\r\nX-Slow: ${'y'.repeat(250)}\r\n\r\n`) {
        if (!write(byte)) return
        await pause(50)
      }
    })
    // Headers at once, then 10 of the 100 bytes announced, then nothing.
    const stallBody = rawExchange(port, async (write) => {
      write(
        'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token-a\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id": 1, ',
      )
    })
    // Others are served meanwhile.
    const others = await app.inject({ method: 'GET', url: '/plants', headers: ALICE })
    expect(others.statusCode).toBe(200)
    const overHttp = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(overHttp.status).toBe(200)

    // Each resolves only once the server closed the connection (rawExchange fails after 10 s).
    const slowHeaders = await dripHeaders
    expect(slowHeaders).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(bodyOf(slowHeaders)).toEqual({ error: 408, message: 'the request did not arrive in time' })
    const slowBody = await stallBody
    expect(slowBody).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(bodyOf(slowBody)).toEqual({ error: 408, message: 'the request did not arrive in time' })
    // Nothing of the cut-off create was stored.
    const stored = await app.inject({ method: 'GET', url: '/plants/1', headers: ALICE })
    expect(stored.statusCode).toBe(404)
  }, 30_000)

  it('refuses a headers timeout longer than the request timeout, naming both', async () => {
    await expect(build({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).rejects.toThrow(
      /HEADERS_TIMEOUT_MS \(5000\) must not be more than REQUEST_TIMEOUT_MS \(1000\)/,
    )
  })
})

describe('overload', () => {
  it('answers 503 with Retry-After while the event loop lags, keeps /healthz up, and recovers', async () => {
    const app = await build({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '20', RETRY_AFTER_SECONDS: '7' })
    let refused: Awaited<ReturnType<typeof app.inject>> | undefined
    // Block the event loop until a sample sees it (at most 20 tries of 300 ms).
    for (let i = 0; i < 20 && !refused; i++) {
      const until = Date.now() + 300
      while (Date.now() < until) {}
      const answer = await app.inject({ method: 'GET', url: '/plants', headers: ALICE })
      if (answer.statusCode === 503) refused = answer
      else expect(answer.statusCode).toBe(200)
      await pause(10)
    }
    if (!refused) throw new Error('a blocked event loop never showed as overload')
    expect(refused.headers['retry-after']).toBe('7')
    expect(refused.json()).toEqual({ error: 503, message: 'the server is overloaded: try again later' })
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)

    // Left alone, the loop catches up and the server serves again (at most 50 polls of 100 ms).
    let status = 503
    for (let i = 0; i < 50 && status === 503; i++) {
      await pause(100)
      status = (await app.inject({ method: 'GET', url: '/plants', headers: ALICE })).statusCode
    }
    expect(status).toBe(200)
  }, 30_000)

  it('answers every request 503 past a heap threshold, /healthz excepted', async () => {
    const app = await build({ OVERLOAD_MAX_HEAP_USED_BYTES: '1' })
    let answer = await app.inject(create(1))
    for (let i = 0; i < 20 && answer.statusCode !== 503; i++) {
      await pause(100)
      answer = await app.inject(create(1))
    }
    expect(answer.statusCode).toBe(503)
    expect(answer.headers['retry-after']).toBe('5')
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
  }, 30_000)
})

describe('a store that cannot take writes', () => {
  it('answers 507 when full, keeps reads, corrupts nothing, and recovers when space returns', async () => {
    const file = join(dir, 'full.db')
    const app = await build({ DATABASE_URL: `sqlite:${file}`, SQLITE_MAX_PAGE_COUNT: '12' })
    const stored: number[] = []
    let full: Awaited<ReturnType<typeof app.inject>> | undefined
    // A 1280-byte plant fills a 4096-byte page in three: 12 pages hold fewer than 36.
    for (let id = 1; id <= 40 && !full; id++) {
      const answer = await app.inject(create(id, ...BIG))
      if (answer.statusCode === 200) stored.push(id)
      else full = answer
    }
    if (!full) throw new Error('40 plants of 1280 bytes fit in 12 pages')
    expect(full.statusCode).toBe(507)
    expect(full.json()).toEqual({
      error: 507,
      message: 'the store is full: nothing was changed; reads still work',
    })
    const first = stored[0] ?? 0
    const replace = await app.inject({
      method: 'PUT',
      url: `/plants/${first}`,
      headers: ALICE,
      payload: { name: 'y'.repeat(256), tag: BIG[1] },
    })
    expect([200, 507]).toContain(replace.statusCode)
    const list = await app.inject({ method: 'GET', url: '/plants?limit=100', headers: ALICE })
    expect(list.statusCode).toBe(200)
    expect((list.json() as { id: number }[]).map((plant) => plant.id)).toEqual(stored)

    // Deleting frees pages, and the next create fits again without a restart.
    for (const id of stored.slice(0, 4)) {
      expect((await app.inject({ method: 'DELETE', url: `/plants/${id}`, headers: ALICE })).statusCode).toBe(
        204,
      )
    }
    expect((await app.inject(create(1000, ...BIG))).statusCode).toBe(200)
    await app.close()
    const db = new Database(file, { readonly: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(Number(db.prepare('SELECT count(*) FROM plants').pluck().get())).toBe(stored.length - 4 + 1)
    db.close()
  }, 30_000)

  it('answers 503 with Retry-After on a read-only store, and keeps reads', async () => {
    const file = join(dir, 'read-only.db')
    const writable = await build({ DATABASE_URL: `sqlite:${file}` })
    expect((await writable.inject(create(1))).statusCode).toBe(200)
    await writable.close()
    const app = await build({ DATABASE_URL: `sqlite:${file}`, DATABASE_READ_ONLY: 'true' })
    for (const request of [
      create(2),
      { method: 'PUT' as const, url: '/plants/1', headers: ALICE, payload: { name: 'Fern' } },
      { method: 'DELETE' as const, url: '/plants/1', headers: ALICE },
    ]) {
      const answer = await app.inject(request)
      expect(answer.statusCode, request.method).toBe(503)
      expect(answer.headers['retry-after']).toBe('5')
      expect(answer.json()).toEqual({
        error: 503,
        message: 'the store cannot take changes now: nothing was changed; try again later',
      })
    }
    const read = await app.inject({ method: 'GET', url: '/plants/1', headers: ALICE })
    expect(read.json()).toEqual({ id: 1, name: 'Basil' })
  })
})

describe('closing', () => {
  it('answers the request in flight as usual and the one after it with 503 in the Error shape', async () => {
    const app = await build()
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const body = '{"id":5,"name":"Ivy"}'
    const arrived = new Promise((resolve) => app.server.once('request', resolve))
    let closing: Promise<undefined> | undefined
    const raw = rawExchange(address.port, async (write) => {
      // The create's headers and half its body: the request is in flight when the close starts.
      write(
        'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token-a\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      )
      await arrived
      closing = app.close()
      for (let i = 0; i < 50 && app.server.listening; i++) await pause(20)
      // The rest of the body, and a second request behind it on the same connection.
      write(`${body.slice(10)}GET /plants/5 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token-a\r\n\r\n`)
    })
    const text = await raw
    await closing
    const answers = text.split(/(?=HTTP\/1\.1 )/)
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(bodyOf(answers[0] ?? '')).toEqual({ name: 'Ivy' })
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/)
    expect(answers[1]).toMatch(/\r\nretry-after: 5\r\n/i)
    expect(bodyOf(answers[1] ?? '')).toEqual({
      error: 503,
      message: 'the server is shutting down: try again',
    })
  })
})
