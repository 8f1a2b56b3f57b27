// The typed client against the real server and the sandbox over real ports: int64 ids exact at the
// edges of the range, every page reached through Link, and the Error body typed on failures.

import { createPlantStoreClient, ok, type PlantStoreError } from '@plant-store/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as commands from '../../../scripts/lib/commands.js'
import { type Started, startProcess } from '../../../scripts/lib/processes.js'

const targets: Record<string, () => ReturnType<typeof commands.server>> = {
  server: () =>
    commands.server({
      env: { AUTH_TOKENS: 'alice:client-token-a,bob:client-token-b', ...commands.generousLimits },
    }),
  sandbox: () => commands.sandbox({ env: { NODE_ENV: 'test', ...commands.generousLimits } }),
}

describe.each(Object.keys(targets))('the typed client against the %s', (name) => {
  let started: Started
  beforeAll(async () => {
    started = await startProcess((targets[name] as () => ReturnType<typeof commands.server>)())
  }, 60_000)
  afterAll(() => started?.stop())

  // The sandbox seeds each token with the example plants; a token of its own per test keeps them apart.
  const client = (token: string) =>
    createPlantStoreClient({ baseUrl: started.url, token: name === 'server' ? 'client-token-a' : token })

  it('keeps int64 ids exact, as bigint, in and out, at ±(2^63−1) and past 2^53', async () => {
    const api = client('exact')
    for (const id of [2n ** 63n - 1n, -(2n ** 63n - 1n), -(2n ** 63n), 2n ** 53n + 1n]) {
      const created = ok(await api.POST('/plants', { body: { id, name: `plant ${id}` } }))
      expect(created).toEqual({ name: `plant ${id}` })
      const read = ok(await api.GET('/plants/{id}', { params: { path: { id } } }))
      expect(read).toEqual({ id, name: `plant ${id}` })
      expect(typeof read.id).toBe('bigint')
      const replaced = ok(
        await api.PUT('/plants/{id}', { params: { path: { id } }, body: { name: 'renamed', tag: 'x' } }),
      )
      expect(replaced).toEqual({ id, name: 'renamed', tag: 'x' })
      const deleted = await api.DELETE('/plants/{id}', { params: { path: { id } } })
      expect(deleted.response.status).toBe(204)
    }
  })

  it('reads small ids as bigint too, never sometimes a number', async () => {
    const api = client('small')
    ok(await api.POST('/plants', { body: { id: 7n, name: 'seven' } }))
    const read = ok(await api.GET('/plants/{id}', { params: { path: { id: 7n } } }))
    expect(read.id).toBe(7n)
    ok(await api.DELETE('/plants/{id}', { params: { path: { id: 7n } } }))
  })

  it('gives one page at a time with the cursor of the next, as useInfiniteQuery takes it', async () => {
    const api = client('one-page')
    const ids = [103n, 101n, 102n, 9_007_199_254_740_993n]
    for (const id of ids) ok(await api.POST('/plants', { body: { id, name: `p${id}`, tag: 'one-page' } }))
    const seen: bigint[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await api.page({ tag: 'one-page', limit: 3, ...(cursor === undefined ? {} : { cursor }) })
      seen.push(...page.plants.map((plant) => plant.id))
      cursor = page.next
      pages++
    } while (cursor !== undefined && pages < 5)
    expect(seen).toEqual([101n, 102n, 103n, 9_007_199_254_740_993n])
    expect(pages).toBe(2)
    for (const id of ids) ok(await api.DELETE('/plants/{id}', { params: { path: { id } } }))
  })

  it('looks fetch up when it sends, and takes a base relative to the page it runs in', async () => {
    const api = client('late-fetch')
    const original = globalThis.fetch
    const sent: string[] = []
    // A fetch put in place after the client was made (as MSW's server.listen() does) sees its requests.
    globalThis.fetch = (input, init) => {
      sent.push(input instanceof Request ? input.url : String(input))
      return original(input, init)
    }
    const location = Object.getOwnPropertyDescriptor(globalThis, 'location')
    try {
      ok(await api.GET('/plants', { params: { query: { limit: 1 } } }))
      expect(sent).toEqual([`${started.url}/plants?limit=1`])
      // A page at the store's origin, and the client made with a relative base.
      Object.defineProperty(globalThis, 'location', {
        value: { href: `${started.url}/app/index.html` },
        configurable: true,
      })
      const relative = createPlantStoreClient({
        baseUrl: '/',
        token: name === 'server' ? 'client-token-a' : 'relative',
      })
      const first = await relative.GET('/plants', { params: { query: { limit: 1 } } })
      expect(first.response.status).toBe(200)
      // The answer keeps the address it came from, for a Link to be resolved against.
      expect(first.response.url).toBe(`${started.url}/plants?limit=1`)
    } finally {
      globalThis.fetch = original
      if (location) Object.defineProperty(globalThis, 'location', location)
      else Reflect.deleteProperty(globalThis, 'location')
    }
  })

  it('follows Link through every page to the last', async () => {
    const api = client('pages')
    const ids = Array.from({ length: 11 }, (_, i) => 9_007_199_254_740_993n + BigInt(i))
    for (const id of ids) ok(await api.POST('/plants', { body: { id, name: `p${id}`, tag: 'paged' } }))
    const seen: bigint[] = []
    for await (const plant of api.plants({ tag: 'paged', limit: 3 })) seen.push(plant.id)
    expect(seen).toEqual(ids)
    for (const id of ids) ok(await api.DELETE('/plants/{id}', { params: { path: { id } } }))
  })

  it('gives failures as a typed Error body', async () => {
    const api = client('errors')
    const missing = await api.GET('/plants/{id}', { params: { path: { id: 123456789n } } })
    expect(missing.response.status).toBe(404)
    expect(missing.error).toEqual({ error: 404, message: 'plant 123456789 not found' })
    ok(await api.POST('/plants', { body: { id: 42n, name: 'once' } }))
    const twice = await api.POST('/plants', { body: { id: 42n, name: 'twice' } })
    expect(() => ok(twice)).toThrow(expect.objectContaining({ status: 409 }) as PlantStoreError)
    ok(await api.DELETE('/plants/{id}', { params: { path: { id: 42n } } }))
    const invalid = await api.POST('/plants', { body: { id: 1n } as never })
    expect(invalid.error).toEqual({ error: 400, message: "body must have required property 'name'" })
    const anonymous = createPlantStoreClient({ baseUrl: started.url })
    const refused = await anonymous.GET('/plants')
    expect([refused.response.status, refused.error?.error]).toEqual([401, 401])
  })
})
