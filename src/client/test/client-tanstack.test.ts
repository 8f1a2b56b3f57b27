// The typed client with TanStack Query as its users write it, against the in-process handlers: an
// int64 id in a query key (hashQueryKey, nothing global patched), an infinite list over Link with
// page(), a mutation that invalidates the list, a refused mutation as a PlantStoreError, and plants
// written to JSON and read back digit for digit. TanStack's hooks are thin over its core, which this
// drives directly (QueryClient, InfiniteQueryObserver, MutationObserver).
import {
  createPlantStoreClient,
  hashQueryKey,
  ok,
  PlantStoreError,
  plantsFromJson,
  type StoredPlant,
  toJson,
} from '@plant-store/client'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { InfiniteQueryObserver, MutationObserver, QueryClient } from '@tanstack/query-core'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BASE = 'http://tanstack.test/api'
const { handlers } = createPlantStoreHandlers({ baseUrl: BASE })
const server = setupServer(...handlers)
// Made at module load, before MSW listens: the client looks fetch up when it sends.
const client = createPlantStoreClient({ baseUrl: BASE, token: 'tanstack-token' })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

const queryClient = () =>
  new QueryClient({ defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false } } })

const BIG = 9_007_199_254_740_993n

describe('the client with TanStack Query', () => {
  it('takes an int64 id in a query key, and keeps it exact', async () => {
    const queries = queryClient()
    ok(await client.POST('/plants', { body: { id: BIG, name: 'Big basil', tag: 'herb' } }))
    const plant = await queries.fetchQuery({
      queryKey: ['plant', BIG],
      queryFn: async () => ok(await client.GET('/plants/{id}', { params: { path: { id: BIG } } })),
    })
    expect(plant).toEqual({ id: BIG, name: 'Big basil', tag: 'herb' })
    expect(queries.getQueryData(['plant', BIG])).toEqual(plant)
    // 2^53 + 1 and 2^53 are different keys, though the same double.
    expect(hashQueryKey(['plant', BIG])).not.toBe(hashQueryKey(['plant', BIG - 1n]))
    expect(hashQueryKey([{ b: 1, a: 2n }])).toBe(hashQueryKey([{ a: 2n, b: 1 }]))
  })

  it('walks an infinite list through Link, one page at a time', async () => {
    const queries = queryClient()
    for (const id of [11n, 12n, 13n])
      ok(await client.POST('/plants', { body: { id, name: `p${id}`, tag: 'paged' } }))
    const observer = new InfiniteQueryObserver(queries, {
      queryKey: ['plants', { tag: 'paged' }],
      queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
        client.page({ tag: 'paged', limit: 2, ...(pageParam === undefined ? {} : { cursor: pageParam }) }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next,
    })
    const first = await observer.refetch()
    expect(first.data?.pages.flatMap((page) => page.plants.map((plant) => plant.id))).toEqual([11n, 12n])
    expect(observer.getCurrentResult().hasNextPage).toBe(true)
    const second = await observer.fetchNextPage()
    expect(second.data?.pages.flatMap((page) => page.plants.map((plant) => plant.id))).toEqual([
      11n,
      12n,
      13n,
    ])
    expect(second.hasNextPage).toBe(false)
  })

  it('invalidates the list on a create, and gives a refused create as a PlantStoreError', async () => {
    const queries = queryClient()
    const list = () =>
      queries.fetchQuery({
        queryKey: ['plants', { tag: 'mutated' }],
        queryFn: async () => (await client.page({ tag: 'mutated' })).plants,
      })
    expect(await list()).toEqual([])
    const create = new MutationObserver(queries, {
      mutationFn: async (body: { id: bigint; name: string; tag?: string }) =>
        ok(await client.POST('/plants', { body })),
      onSuccess: () => queries.invalidateQueries({ queryKey: ['plants'] }),
    })
    await create.mutate({ id: 21n, name: 'Mint', tag: 'mutated' })
    expect(queries.getQueryState(['plants', { tag: 'mutated' }])?.isInvalidated).toBe(true)
    expect((await list()).map((plant) => plant.id)).toEqual([21n])
    const refused = await create
      .mutate({ id: 21n, name: 'Mint again', tag: 'mutated' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PlantStoreError)
    expect((refused as PlantStoreError).status).toBe(409)
    expect((refused as PlantStoreError).body.error).toBe(409)
  })

  it('writes plants to JSON and reads them back exact', async () => {
    const plant: StoredPlant = { id: -(2n ** 63n), name: 'Low', tag: 'edge' }
    expect(toJson(plant)).toBe('{"id":-9223372036854775808,"name":"Low","tag":"edge"}')
    expect(plantsFromJson(toJson(plant))).toEqual(plant)
    expect(plantsFromJson(toJson([plant, { id: 1n, name: 'One' }]))).toEqual([plant, { id: 1n, name: 'One' }])
  })
})
