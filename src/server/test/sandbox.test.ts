// The sandbox: any token is a principal with a store seeded from the document, a seed that failed is
// tried again, and at most SANDBOX_MAX_PRINCIPALS principals are kept, the least recently used dropped,
// so that 100,000 tokens take no more memory than 10,000.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { givenPlants } from '@plant-store/core'
import { describe, expect, it } from 'vitest'
import { build } from '../../../test/helpers/build.js'
import { loadConfig, sandboxPrincipal } from '../config.js'
import { SandboxPrincipals } from '../lib/sandbox-principals.js'
import { Destinations } from '../webhooks/destinations.js'

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const BASIL = { id: 1, name: 'Basil', tag: 'herb' }

describe('sandbox', () => {
  it('accepts any token and gives each its own store, seeded from the document', async () => {
    const app = await build({ SANDBOX: 'true', AUTH_TOKENS: '' })
    const one = bearer('anything-1')
    const two = bearer('anything-2')
    const seeded = (await app.inject({ url: '/plants', headers: one })).json()
    expect(seeded).toContainEqual(BASIL)
    expect((await app.inject({ method: 'DELETE', url: '/plants/1', headers: one })).statusCode).toBe(204)
    expect((await app.inject({ url: '/plants/1', headers: one })).statusCode).toBe(404)
    expect((await app.inject({ url: '/plants/1', headers: two })).statusCode).toBe(200)
    expect((await app.inject({ url: '/plants' })).statusCode).toBe(401)
  })

  it('seeds a principal again after a seed that failed', async () => {
    const app = await build({ SANDBOX: 'true', AUTH_TOKENS: '' })
    const create = app.repository.create
    let failures = 1
    app.repository.create = async (...args) => {
      if (failures-- > 0) throw new Error('disk on fire')
      return create(...args)
    }
    const one = bearer('anything-3')
    expect((await app.inject({ url: '/plants', headers: one })).statusCode).toBe(500)
    const again = await app.inject({ url: '/plants', headers: one })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toContainEqual(BASIL)
  })
})

describe('the principals the sandbox keeps', () => {
  it('drops the least recently used past SANDBOX_MAX_PRINCIPALS: its token starts afresh', async () => {
    // No delivery: the events a create stores stay in the outbox, where they can be counted.
    const app = await build({
      SANDBOX: 'true',
      AUTH_TOKENS: '',
      SANDBOX_MAX_PRINCIPALS: '50',
      WEBHOOK_DELIVERY: 'false',
    })
    const hook = { 'sandbox-webhook-url': 'http://127.0.0.1:9/hooks' }
    const create = (token: string, body: string) =>
      app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...bearer(token), ...hook, 'content-type': 'application/json' },
        payload: body,
      })
    const plantsOf = async (token: string) =>
      (await app.inject({ url: '/plants', headers: bearer(token) })).json()
    const pending = async () => (await app.outbox.stats()).pending
    // Two principals make their stores their own: a plant more, one fewer, and a URL for their events.
    for (const token of ['first', 'second']) {
      expect((await create(token, '{"id":100,"name":"Oak"}')).statusCode).toBe(200)
      expect(
        (await app.inject({ method: 'DELETE', url: '/plants/1', headers: bearer(token) })).statusCode,
      ).toBe(204)
    }
    expect(await pending()).toBe(2)
    // 48 more fill the sandbox to 50; then 'second' is used again, and two more come.
    for (let i = 0; i < 48; i++) expect((await plantsOf(`filler-${i}`)).length).toBe(3)
    expect(await plantsOf('second')).not.toContainEqual(BASIL)
    for (const token of ['late-1', 'late-2']) expect(await plantsOf(token)).toContainEqual(BASIL)

    // The least recently used ones ('first', 'filler-0') are gone, their plants with them.
    const tokens = [
      'first',
      'second',
      ...Array.from({ length: 48 }, (_, i) => `filler-${i}`),
      'late-1',
      'late-2',
    ]
    const withPlants = async () => {
      const kept: string[] = []
      for (const token of tokens)
        if ((await app.repository.list(sandboxPrincipal(token), { limit: 1 })).length > 0) kept.push(token)
      return kept
    }
    // A bound for a loaded machine: the deletes are done a few event-loop turns after the last request.
    const within = { timeout: 30_000 }
    await expect
      .poll(withPlants, within)
      .toEqual(tokens.filter((token) => token !== 'first' && token !== 'filler-0'))
    // 'second' kept its own store; 'first' starts afresh, with the example plants and no URL named.
    const [fern, mint] = [
      { id: 2, name: 'Fern' },
      { id: 3, name: 'Mint', tag: 'herb' },
    ]
    expect(await plantsOf('second')).toEqual([fern, mint, { id: 100, name: 'Oak' }])
    expect(await plantsOf('first')).toEqual([BASIL, fern, mint])
    const plain = { ...bearer('first'), 'content-type': 'application/json' }
    const oakAgain = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: plain,
      payload: '{"id":100,"name":"Oak"}',
    })
    expect(oakAgain.statusCode).toBe(200)
    expect(await pending()).toBe(2)
    // 'second' still has its URL: its create is announced.
    expect((await create('second', '{"id":101,"name":"Yew"}')).statusCode).toBe(200)
    expect(await pending()).toBe(3)
  })

  it('keeps 10,000 principals by default however many tokens come, in memory that stays flat', async () => {
    const max = loadConfig({ SANDBOX: 'true' }).sandboxMaxPrincipals
    expect(max).toBe(10_000)
    // The app's own store and seeds, and the principals' bookkeeping its sandbox plugin uses, driven
    // directly: 100,000 injected requests would cost several times the CPU, most of it in making the
    // requests themselves.
    const app = await build({ SANDBOX: 'true', AUTH_TOKENS: '' })
    const seeds = givenPlants(app.spec.dereferenced)
    const destinations = new Destinations(new Map())
    const principals = new SandboxPrincipals({
      repository: app.repository,
      seedsOf: () => seeds,
      destinations,
      max,
      log: app.log,
    })
    const hook = new URL('http://127.0.0.1:9/hooks')
    const within = { timeout: 60_000 }
    const principalOf = (n: number) => sandboxPrincipal(`token-${n}`)
    // Each token's first request, naming a URL for its events, as a request with Sandbox-Webhook-Url.
    const arrive = async (from: number, to: number) => {
      for (let n = from; n < to; n += 100) {
        const batch = Array.from({ length: Math.min(100, to - n) }, (_, i) => principalOf(n + i))
        await Promise.all(
          batch.map(async (principal) => {
            await principals.use(principal)
            destinations.name(principal, hook)
          }),
        )
      }
    }
    // The plants of a dropped principal are deleted after it is dropped: done once the store holds
    // exactly the last `max` principals' plants.
    const settled = async (count: number) => {
      const holding = async (n: number) =>
        (await app.repository.list(principalOf(n), { limit: 1 })).length > 0
      // A bound for a loaded machine: one count reads 100,000 principals' stores.
      await expect
        .poll(async () => {
          let kept = 0
          for (let n = 0; n < count; n++) if (await holding(n)) kept++
          return kept
        }, within)
        .toBe(Math.min(count, max))
      for (let n = count - Math.min(count, max); n < count; n++) expect(await holding(n)).toBe(true)
    }
    // The heap after a full collection: V8's gc(), which Node exposes on request.
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const heap = () => {
      gc()
      return process.memoryUsage().heapUsed
    }

    // A first thousand warms up the code; then the heap is measured at 1,000, 10,000 (the cap),
    // 20,000 (the kept principals all replaced once) and 100,000 tokens.
    const heapAt = new Map<number, number>()
    let count = 0
    for (const next of [1_000, 10_000, 20_000, 100_000]) {
      await arrive(count, next)
      count = next
      await settled(count)
      heapAt.set(count, heap())
    }
    const [atStart, atCap, atFull, atEnd] = [...heapAt.values()] as [number, number, number, number]
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
    console.log(
      `heap after a full collection: ${[...heapAt].map(([n, bytes]) => `${mb(bytes)} at ${n} tokens`).join(', ')}`,
    )

    expect(principals.size).toBe(max)
    expect(destinations.of(principalOf(0))).toBeUndefined()
    expect(destinations.of(principalOf(99_999))).toEqual(hook)
    // 9,000 principals more grew the heap by `perNine`; the 80,000 after the first 20,000, kept
    // unbounded, would grow it about nine times that. Kept at the cap, it does not grow at all: half a
    // `perNine` is room for the noise of a collection.
    const perNine = atCap - atStart
    expect(perNine).toBeGreaterThan(0)
    expect(atEnd - atFull).toBeLessThan(perNine / 2)
  }, 120_000)
})
