// The in-memory repository (the in-process handlers' store) answers as SQLite does: the same cases, and
// random sequences of operations run on both side by side give identical answers.

import { INT64_MAX, INT64_MIN, openMemoryRepository, type PlantRepository } from '@plant-store/core'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteRepository } from '../../server/repository/sqlite-repository.js'

const stores: Record<string, () => PlantRepository> = {
  memory: openMemoryRepository,
  sqlite: () => openSqliteRepository(':memory:'),
}

const opened: PlantRepository[] = []
const open = (name: string) => {
  const repository = (stores[name] as () => PlantRepository)()
  opened.push(repository)
  return repository
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((repository) => repository.close()))
})

describe.each(Object.keys(stores))('%s repository', (name) => {
  it('keeps owners apart, orders by id and pages by key', async () => {
    const store = open(name)
    for (const id of [5n, INT64_MAX, INT64_MIN, 0n, -1n]) {
      expect(await store.create('a', { id, name: `p${id}`, tag: id % 2n === 0n ? 'even' : 'odd' })).toBe(true)
    }
    expect(await store.create('a', { id: 5n, name: 'again' })).toBe(false)
    expect(await store.create('b', { id: 5n, name: 'b-five' })).toBe(true)
    const ids = (await store.list('a', { limit: 10 })).map((p) => p.id)
    expect(ids).toEqual([INT64_MIN, -1n, 0n, 5n, INT64_MAX])
    expect((await store.list('a', { limit: 2, after: -1n })).map((p) => p.id)).toEqual([0n, 5n])
    expect((await store.list('a', { limit: 10, after: INT64_MAX })).map((p) => p.id)).toEqual([])
    expect((await store.list('a', { limit: 10, tag: 'even' })).map((p) => p.id)).toEqual([INT64_MIN, 0n])
    expect(await store.get('a', 5n)).toEqual({ id: 5n, name: 'p5', tag: 'odd' })
    expect(await store.get('b', 5n)).toEqual({ id: 5n, name: 'b-five' })
    expect(await store.replace('a', { id: 5n, name: 'renamed' })).toBe(true)
    expect(await store.get('a', 5n)).toEqual({ id: 5n, name: 'renamed' })
    expect(await store.replace('a', { id: 6n, name: 'none' })).toBe(false)
    expect(await store.delete('a', 5n)).toBe(true)
    expect(await store.delete('a', 5n)).toBe(false)
    expect(await store.get('a', 5n)).toBeUndefined()
    expect(await store.get('b', 5n)).toEqual({ id: 5n, name: 'b-five' })
  })
})

describe('memory and SQLite side by side', () => {
  const id = fc.oneof(fc.bigInt({ min: -3n, max: 3n }), fc.constantFrom(INT64_MIN, INT64_MAX))
  const owner = fc.constantFrom('a', 'b')
  const tag = fc.option(fc.constantFrom('herb', 'tree'), { nil: undefined })
  const command = fc.oneof(
    fc.record({ op: fc.constant('create' as const), owner, id, tag }),
    fc.record({ op: fc.constant('replace' as const), owner, id, tag }),
    fc.record({ op: fc.constant('delete' as const), owner, id }),
    fc.record({ op: fc.constant('get' as const), owner, id }),
    fc.record({
      op: fc.constant('list' as const),
      owner,
      tag,
      limit: fc.integer({ min: 1, max: 4 }),
      after: fc.option(id, { nil: undefined }),
    }),
  )

  it('give the same answer to every operation of random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40 }), async (commands) => {
        const both = [open('memory'), open('sqlite')]
        for (const c of commands) {
          const answers = await Promise.all(
            both.map((store) => {
              switch (c.op) {
                case 'create':
                  return store.create(c.owner, {
                    id: c.id,
                    name: `n${c.id}`,
                    ...(c.tag ? { tag: c.tag } : {}),
                  })
                case 'replace':
                  return store.replace(c.owner, {
                    id: c.id,
                    name: `r${c.id}`,
                    ...(c.tag ? { tag: c.tag } : {}),
                  })
                case 'delete':
                  return store.delete(c.owner, c.id)
                case 'get':
                  return store.get(c.owner, c.id)
                default:
                  return store.list(c.owner, { limit: c.limit, after: c.after, tag: c.tag })
              }
            }),
          )
          expect(
            answers[0],
            JSON.stringify(c, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
          ).toEqual(answers[1])
        }
        await Promise.all(both.map((store) => store.close()))
      }),
      { numRuns: 150 },
    )
  })
})
