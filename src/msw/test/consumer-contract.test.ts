// The handlers recording a consumer contract in a test's own process (PLANT_STORE_CONTRACT set before
// they are made), with the typed client and with plain fetch: what the app read through the client,
// every property of an answer read otherwise, the statuses, the bounds its requests reached, the file
// written as each thing is learnt. Several vitest workers writing one file: contract-workers.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { types } from 'node:util'
import { createPlantStoreClient, ok, PlantStoreError } from '@plant-store/client'
import { type ConsumerContract, parseContract, readPaths } from '@plant-store/core'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

const BASE = 'http://shop.test/api'
const folder = mkdtempSync(join(tmpdir(), 'plant-store-contract-'))
const file = join(folder, 'shop.json')
// The contract's lock and run marker go to the temporary folder: this file's own, removed after it.
vi.stubEnv('TMPDIR', folder)
process.env.PLANT_STORE_CONTRACT = file
const plantStore = createPlantStoreHandlers({ baseUrl: BASE, consumer: 'shop' })
delete process.env.PLANT_STORE_CONTRACT
const server = setupServer(...plantStore.handlers)
const api = createPlantStoreClient({ baseUrl: BASE, token: 'shop' })
const headers = { authorization: 'Bearer shop' }

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => {
  server.close()
  vi.unstubAllEnvs()
  rmSync(folder, { recursive: true, force: true })
})

/** The contract as the file holds it now. */
const recorded = (): ConsumerContract => parseContract(readFileSync(file, 'utf8'), file)
const reads = (path: string, method: 'get' | 'post' | 'put', status: string) =>
  readPaths(recorded().paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema).sort()

describe('through the typed client', () => {
  it('counts what the app read of an answer, from the very first request', async () => {
    const basil = ok(await api.GET('/plants/{id}', { params: { path: { id: 1n } } }))
    // Nothing read yet: the status is known, no property is.
    expect(recorded().consumer).toBe('shop')
    expect(recorded().paths['/plants/{id}']?.get?.responses).toEqual({ '200': {} })
    expect(basil.name).toBe('Basil')
    expect(reads('/plants/{id}', 'get', '200')).toEqual(['name'])
    // What the app asks of any object is not a property of the document's.
    expect(typeof (basil as unknown as { toJSON?: unknown }).toJSON).toBe('undefined')
    expect(reads('/plants/{id}', 'get', '200')).toEqual(['name'])
  })

  it('reads the items of a page as a list: their properties once, whichever item', async () => {
    const { plants } = await api.page({ limit: 2 })
    expect(plants.map((plant) => plant.id)).toEqual([1n, 2n])
    expect(reads('/plants', 'get', '200')).toEqual(['[].id'])
    // The page had a next one: the client read its Link.
    expect(Object.keys(recorded().paths['/plants']?.get?.responses['200']?.headers ?? {})).toEqual(['Link'])
    const parameters = recorded().paths['/plants']?.get?.parameters
    expect(parameters).toEqual([
      {
        in: 'query',
        name: 'limit',
        required: true,
        schema: expect.objectContaining({ minimum: 2, maximum: 2 }),
      },
    ])
  })

  it("keeps an int64 id past 2^53 digit for digit, and a refusal's message read through PlantStoreError", async () => {
    const id = 9007199254740993n
    ok(await api.POST('/plants', { body: { id, name: 'Giant fern' } }))
    const again = await api
      .POST('/plants', { body: { id, name: 'Fern' } })
      .then(ok)
      .catch((error: unknown) => error)
    expect(again).toBeInstanceOf(PlantStoreError)
    expect((again as PlantStoreError).body.message).toBe(`plant ${id} already exists`)
    expect(readFileSync(file, 'utf8')).toContain('"maximum": 9007199254740993')
    expect(Object.keys(recorded().paths['/plants']?.post?.responses ?? {}).sort()).toEqual(['200', '409'])
    expect(reads('/plants', 'post', '409')).toEqual(['message'])
    const body = recorded().paths['/plants']?.post?.requestBody
    expect(body?.required).toBe(true)
    expect(body?.content['application/json']?.schema).toMatchObject({
      required: ['id', 'name'],
      properties: { name: { minLength: 4, maxLength: 10 } },
    })
  })

  it('answers the parsed JSON itself, no watching, where no contract is recorded', async () => {
    const recording = ok(await api.GET('/plants/{id}', { params: { path: { id: 2n } } }))
    expect(types.isProxy(recording)).toBe(true)
    const key = Symbol.for('plant-store.consumer-contract')
    const global = globalThis as Record<symbol, unknown>
    const hook = global[key]
    delete global[key]
    try {
      const plain = ok(await api.GET('/plants/{id}', { params: { path: { id: 2n } } }))
      expect(types.isProxy(plain)).toBe(false)
      expect(plain).toEqual({ id: 2n, name: 'Fern' })
    } finally {
      global[key] = hook
    }
  })
})

describe('through plain fetch', () => {
  it('counts every property received, and the documented headers', async () => {
    const page = await fetch(`${BASE}/plants?limit=3&tag=herb`, { headers })
    expect(page.status).toBe(200)
    expect(reads('/plants', 'get', '200')).toEqual(['[].id', '[].name', '[].tag'])
    await fetch(`${BASE}/plants?limit=1`, { headers })
    // limit sent every time (2, 3, 1), tag once.
    expect(recorded().paths['/plants']?.get?.parameters).toEqual([
      {
        in: 'query',
        name: 'limit',
        required: true,
        schema: expect.objectContaining({ minimum: 1, maximum: 3 }),
      },
      { in: 'query', name: 'tag', required: false, schema: expect.objectContaining({ maxLength: 4 }) },
    ])
  })

  it('keeps the status of a refused request and what its answer holds, and nothing of its shape', async () => {
    const refused = await fetch(`${BASE}/plants/1`, { method: 'PUT', headers, body: '{}' })
    expect(refused.status).toBe(415)
    const replace = recorded().paths['/plants/{id}']?.put
    expect(Object.keys(replace?.responses ?? {})).toEqual(['415'])
    expect(replace?.parameters).toBeUndefined()
    expect(reads('/plants/{id}', 'put', '415')).toEqual(['error', 'message'])
  })

  it('keeps a status a test forced', async () => {
    plantStore.store.failNext('deletePlant', { status: 503 })
    expect((await fetch(`${BASE}/plants/1`, { method: 'DELETE', headers })).status).toBe(503)
    expect(Object.keys(recorded().paths['/plants/{id}']?.delete?.responses ?? {})).toEqual(['503'])
  })
})
