// The typed client against the real server and the sandbox over real ports: int64 ids exact at the
// edges of the range, every page reached through Link, and the Error body typed on failures.

import { createPlantStoreClient, ok, type PlantStoreError } from '@plant-store/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as commands from '../scripts/lib/commands.js'
import { type Started, startProcess } from '../scripts/lib/processes.js'

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
