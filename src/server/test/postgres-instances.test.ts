// Two server processes on one PostgreSQL database, over real ports, as behind a load balancer: each
// sees what the other wrote at once, and each survives the other's crash and a database restart.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../../scripts/lib/paging.js'
import type { Cluster } from '../../../scripts/lib/postgres.js'
import { postgresCluster, postgresMissing } from '../../../test/helpers/postgres.js'
import { type ServerProcess, startServer } from '../../../test/helpers/server-process.js'

const tokens = Array.from({ length: 8 }, (_, i) => `token-${i}`)
let cluster: Cluster
let env: Record<string, string>
let a: ServerProcess
let b: ServerProcess
const started: ServerProcess[] = []
const start = async () => {
  const server = await startServer(env)
  started.push(server)
  return server
}

const send = (server: ServerProcess, path: string, token: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    // A bound on a hang, not a timing assertion.
    signal: AbortSignal.timeout(15_000),
  })
const create = (server: ServerProcess, token: string, id: number | string, name = `plant ${id}`) =>
  send(server, '/plants', token, { method: 'POST', body: `{"id":${id},"name":"${name}"}` })

describe.skipIf(postgresMissing !== undefined)('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    cluster = await postgresCluster()
    env = {
      DATABASE_URL: await cluster.createDatabase(),
      AUTH_TOKENS: tokens.map((token, i) => `p${i}:${token}`).join(','),
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
    }
    // Started together: both migrate the new database, and the lock makes that happen once.
    ;[a, b] = await Promise.all([start(), start()])
  }, 60_000)
  afterAll(async () => {
    await Promise.all(started.map((server) => server.kill9()))
  })

  it('reads through one instance a plant created through the other, at once, int64 exact', async () => {
    const id = '9007199254740993'
    expect((await create(a, 'token-0', id, 'Oak')).status).toBe(200)
    const read = await send(b, `/plants/${id}`, 'token-0')
    expect(read.status).toBe(200)
    // The digits as written: no double on the way rounded the id.
    expect(await read.text()).toContain(`"id":${id}`)
    expect((await send(b, `/plants/${id}`, 'token-1')).status).toBe(404)
  })

  it('answers exactly one 200 to 32 concurrent creates of one id spread over both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) => create(i % 2 ? a : b, 'token-1', 77, `try ${i}`)),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(31)
    const winner = answers.findIndex((answer) => answer.status === 200)
    expect(await (await send(a, '/plants/77', 'token-1')).json()).toEqual({ id: 77, name: `try ${winner}` })
  })

  it('shows a delete through one instance on the other', async () => {
    expect((await create(a, 'token-2', 5)).status).toBe(200)
    expect((await send(b, '/plants/5', 'token-2')).status).toBe(200)
    expect((await send(b, '/plants/5', 'token-2', { method: 'DELETE' })).status).toBe(204)
    expect((await send(a, '/plants/5', 'token-2')).status).toBe(404)
    expect((await send(a, '/plants/5', 'token-2', { method: 'DELETE' })).status).toBe(404)
  })

  it('pages through every plant on one instance while the other writes', async () => {
    const before = Array.from({ length: 60 }, (_, i) => i * 10)
    for (const id of before) expect((await create(a, 'token-3', id)).status).toBe(200)
    // Writes through b all along: new ids between and after the existing ones.
    let writing = true
    const writer = (async () => {
      for (let i = 0; writing && i < 300; i++) await create(b, 'token-3', i * 10 + 5)
    })()
    const seen = (
      await listAll<{ id: number }>(a.url, '/plants?limit=7', { authorization: 'Bearer token-3' })
    ).map((plant) => plant.id)
    writing = false
    await writer
    expect(seen).toEqual([...seen].sort((x, y) => x - y))
    expect(new Set(seen).size).toBe(seen.length)
    for (const id of before) expect(seen).toContain(id)
  })

  it('answers 503 with Retry-After while PostgreSQL restarts, then recovers by itself', async () => {
    expect((await create(a, 'token-4', 1)).status).toBe(200)
    expect((await fetch(`${a.url}/readyz`)).status).toBe(200)
    await cluster.stopFast()
    try {
      const answers = [await send(a, '/plants/1', 'token-4'), await create(b, 'token-4', 2)]
      const messages = [
        'the store cannot be read now: try again later',
        'the store cannot take changes now: nothing was changed; try again later',
      ]
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(503)
        expect(answer.headers.get('retry-after')).toMatch(/^[0-9]+$/)
        expect(await answer.json()).toEqual({ error: 503, message: messages[i] })
      }
      const ready = await fetch(`${b.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(ready.headers.get('retry-after')).toMatch(/^[0-9]+$/)
      expect(await ready.json()).toEqual({ error: 503, message: 'the store is not answering' })
      // Alive all the same: a supervisor must not restart it.
      expect((await fetch(`${a.url}/healthz`)).status).toBe(200)
    } finally {
      await cluster.start()
    }
    for (const server of [a, b]) {
      let status = 0
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        if (attempt > 0) await sleep(100)
        status = (await fetch(`${server.url}/readyz`)).status
      }
      expect(status).toBe(200)
    }
    expect(await (await send(b, '/plants/1', 'token-4')).json()).toEqual({ id: 1, name: 'plant 1' })
    expect((await create(a, 'token-4', 2)).status).toBe(200)
  }, 60_000)

  it('loses no create answered 200 when one instance is killed with SIGKILL, and the other keeps serving', async () => {
    const answered: number[] = []
    const cutOff: number[] = []
    let nextId = 0
    let killed = false
    // Eight creates in flight on each instance at any moment, each with a new id, bounded in count.
    const loop = async (server: ServerProcess) => {
      for (let sent = 0; sent < 500; sent++) {
        if (server === b && killed && cutOff.length > 0) return
        const id = nextId++
        try {
          const answer = await create(server, 'token-5', id)
          expect(answer.status).toBe(200)
          answered.push(id)
        } catch {
          cutOff.push(id)
          return
        }
      }
    }
    const loops = [...Array.from({ length: 8 }, () => loop(a)), ...Array.from({ length: 8 }, () => loop(b))]
    for (let waits = 0; answered.length < 40 && waits < 2000; waits++) await sleep(5)
    await a.kill9()
    killed = true
    await Promise.all(loops)
    expect(cutOff.length).toBeGreaterThan(0)
    const stored = (
      await listAll<{ id: number }>(b.url, '/plants?limit=100', { authorization: 'Bearer token-5' })
    ).map((plant) => plant.id)
    const kept = new Set(stored)
    expect(answered.filter((id) => !kept.has(id))).toEqual([])
    expect((await create(b, 'token-5', 100_000)).status).toBe(200)
  }, 60_000)
})
