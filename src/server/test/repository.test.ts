// The repository contract, one table of cases run against every store: what SQLite does, PostgreSQL
// does, id for id and page for page.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { INT64_MAX, INT64_MIN, type PlantRepository } from '@plant-store/core'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { freshDatabase, postgresMissing } from '../../../test/helpers/postgres.js'
import { openRepository } from '../repository/index.js'
import { migrations, StoreStartError } from '../repository/migrations.js'
import { openSqliteRepository, pageSql } from '../repository/sqlite-repository.js'

const pool = { poolSize: 4, connectTimeoutMs: 5000, statementTimeoutMs: 5000 }
const folder = mkdtempSync(join(tmpdir(), 'plant-store-repository-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
let files = 0

interface Store {
  name: string
  /** Why this store cannot be tested here. */
  missing?: string
  /** A URL for a new, empty database of this store. */
  fresh(): Promise<string>
  /** Sets the schema version recorded in the database at this URL. */
  setVersion(url: string, version: number): Promise<void>
}

const stores: Store[] = [
  {
    name: 'SQLite',
    fresh: async () => `sqlite:${join(folder, `plants-${++files}.db`)}`,
    setVersion: async (url, version) => {
      const db = new Database(url.slice('sqlite:'.length))
      db.pragma(`user_version = ${version}`)
      db.close()
    },
  },
  {
    name: 'PostgreSQL',
    missing: postgresMissing,
    fresh: freshDatabase,
    setVersion: async (url, version) => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query('UPDATE schema_version SET version = $1', [version])
      await client.end()
    },
  },
]

async function open(url: string): Promise<PlantRepository> {
  const repository = await openRepository({ databaseUrl: url, ...pool })
  onTestFinished(() => repository.close())
  return repository
}

describe.each(stores.map((store) => [store.name, store] as const))('the %s repository', (_, store) => {
  // A store without its binaries is skipped, and the helper has printed why.
  const test = it.skipIf(store.missing !== undefined)
  const fresh = async () => open(await store.fresh())
  const big = 2n ** 53n + 1n

  test('creates, reads, replaces and deletes, reporting what was there', async () => {
    const repo = await fresh()
    expect(await repo.create('alice', { id: 1n, name: 'Basil', tag: 'herb' })).toBe(true)
    expect(await repo.get('alice', 1n)).toEqual({ id: 1n, name: 'Basil', tag: 'herb' })
    expect(await repo.replace('alice', { id: 1n, name: 'Thai basil' })).toBe(true)
    expect(await repo.get('alice', 1n)).toEqual({ id: 1n, name: 'Thai basil' })
    expect(await repo.replace('alice', { id: 2n, name: 'Mint' })).toBe(false)
    expect(await repo.delete('alice', 1n)).toBe(true)
    expect(await repo.delete('alice', 1n)).toBe(false)
    expect(await repo.get('alice', 1n)).toBeUndefined()
  })

  test('answers false for an id the owner already uses and keeps the first plant', async () => {
    const repo = await fresh()
    expect(await repo.create('alice', { id: 7n, name: 'Basil' })).toBe(true)
    expect(await repo.create('alice', { id: 7n, name: 'Rosemary', tag: 'herb' })).toBe(false)
    expect(await repo.get('alice', 7n)).toEqual({ id: 7n, name: 'Basil' })
  })

  test('of concurrent creates of one id, exactly one succeeds', async () => {
    const repo = await fresh()
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => repo.create('alice', { id: 5n, name: `Plant ${i}` })),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await repo.list('alice', { limit: 10 })).toHaveLength(1)
  })

  test('keeps each owner apart', async () => {
    const repo = await fresh()
    await repo.create('alice', { id: 1n, name: 'Basil' })
    expect(await repo.create('bob', { id: 1n, name: 'Fern' })).toBe(true)
    expect(await repo.get('bob', 1n)).toEqual({ id: 1n, name: 'Fern' })
    expect(await repo.list('bob', { limit: 10 })).toEqual([{ id: 1n, name: 'Fern' }])
    expect(await repo.delete('bob', 1n)).toBe(true)
    expect(await repo.get('alice', 1n)).toEqual({ id: 1n, name: 'Basil' })
    expect(await repo.replace('carol', { id: 1n, name: 'Ivy' })).toBe(false)
  })

  test('keeps every int64 exact, the extremes and ids beyond 2^53 included', async () => {
    const repo = await fresh()
    for (const id of [INT64_MIN, -big, -1n, 0n, big, INT64_MAX]) {
      expect(await repo.create('alice', { id, name: `n${id}` })).toBe(true)
      expect(await repo.get('alice', id)).toEqual({ id, name: `n${id}` })
    }
    // 2^53 + 1 and 2^53 are one number to a JavaScript double: a store that rounds would find it.
    expect(await repo.get('alice', 2n ** 53n)).toBeUndefined()
    const ids = (await repo.list('alice', { limit: 10 })).map((plant) => plant.id)
    expect(ids).toEqual([INT64_MIN, -big, -1n, 0n, big, INT64_MAX])
    for (const id of ids) expect(typeof id).toBe('bigint')
  })

  test('lists in ascending id order, page after page by the last id, with nothing lost', async () => {
    const repo = await fresh()
    const ids = [40n, -3n, big, 12n, INT64_MAX, INT64_MIN, 0n, 7n]
    for (const id of ids) await repo.create('alice', { id, name: 'p' })
    const seen: bigint[] = []
    let after: bigint | undefined
    for (let pages = 0; pages < 10; pages++) {
      const page = await repo.list('alice', { limit: 3, after })
      seen.push(...page.map((plant) => BigInt(plant.id)))
      if (page.length < 3) break
      after = BigInt(page.at(-1)?.id ?? 0)
    }
    expect(seen).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)))
    expect(await repo.list('alice', { limit: 3, after: INT64_MAX })).toEqual([])
  })

  test('filters by tag, exactly, and pages within the tag', async () => {
    const repo = await fresh()
    await repo.create('alice', { id: 1n, name: 'Basil', tag: 'herb' })
    await repo.create('alice', { id: 2n, name: 'Fern' })
    await repo.create('alice', { id: 3n, name: 'Mint', tag: 'herb' })
    await repo.create('alice', { id: 4n, name: 'Rose', tag: 'Herb' })
    await repo.create('bob', { id: 5n, name: 'Sage', tag: 'herb' })
    expect(await repo.list('alice', { limit: 10, tag: 'herb' })).toEqual([
      { id: 1n, name: 'Basil', tag: 'herb' },
      { id: 3n, name: 'Mint', tag: 'herb' },
    ])
    expect(await repo.list('alice', { limit: 10, tag: 'herb', after: 1n })).toEqual([
      { id: 3n, name: 'Mint', tag: 'herb' },
    ])
    expect(await repo.list('alice', { limit: 10, tag: '' })).toEqual([])
  })

  test('stores names and tags as given, Unicode, NUL and quotes included', async () => {
    const repo = await fresh()
    const name = 'Jasmine 茉莉 🌼 \u0000 \u2028 \'quoted\' "double" \\ back'
    await repo.create("o'wner", { id: 1n, name, tag: 'ünï\u0000' })
    expect(await repo.get("o'wner", 1n)).toEqual({ id: 1n, name, tag: 'ünï\u0000' })
    expect(await repo.list("o'wner", { limit: 2, tag: 'ünï\u0000' })).toEqual([
      { id: 1n, name, tag: 'ünï\u0000' },
    ])
  })

  test('answers a readiness ping', async () => {
    const repo = await fresh()
    await expect(repo.ping()).resolves.toBeUndefined()
  })

  test('keeps what is stored across a close and a reopen, without migrating again', async () => {
    const url = await store.fresh()
    const first = await open(url)
    await first.create('alice', { id: big, name: 'Basil' })
    await first.close()
    const second = await open(url)
    expect(await second.get('alice', big)).toEqual({ id: big, name: 'Basil' })
  })

  test('migrates once when several instances open one new database at the same moment', async () => {
    const url = await store.fresh()
    const repos = await Promise.all(Array.from({ length: 4 }, () => open(url)))
    const created = await Promise.all(repos.map((repo, i) => repo.create('alice', { id: 1n, name: `r${i}` })))
    expect(created.filter(Boolean)).toHaveLength(1)
    for (const repo of repos) expect(await repo.list('alice', { limit: 5 })).toHaveLength(1)
  })

  test('refuses a database whose schema is newer than this server knows, in one line', async () => {
    const url = await store.fresh()
    await (await open(url)).close()
    await store.setVersion(url, migrations.length + 1)
    const refusal = openRepository({ databaseUrl: url, ...pool })
    await expect(refusal).rejects.toBeInstanceOf(StoreStartError)
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `^the ${store.name} database has schema version ${migrations.length + 1}, newer than the ${migrations.length} this server knows`,
      ),
    )
    await expect(refusal).rejects.not.toThrow(/\n/)
  })
})

describe('a SQLite file from an earlier release', () => {
  it('is read as it is, and one at an earlier schema version is brought up to date', async () => {
    // The first schema step alone: what a release before the tag index wrote.
    const file = join(folder, 'earlier.db')
    const db = new Database(file)
    db.exec(migrations[0]?.sqlite ?? '')
    db.pragma('user_version = 1')
    db.prepare('INSERT INTO plants (owner, id, name, tag) VALUES (?, ?, ?, ?)').run(
      'alice',
      3,
      'Basil',
      'herb',
    )
    db.close()
    const repo = await open(`sqlite:${file}`)
    expect(await repo.list('alice', { limit: 5, tag: 'herb' })).toEqual([
      { id: 3n, name: 'Basil', tag: 'herb' },
    ])
    // A row stored before the answer column has its answer written by the migration.
    expect(await repo.listJson?.('alice', { limit: 5 })).toEqual({
      json: '[{"name":"Basil","id":3,"tag":"herb"}]',
      lastId: 3n,
      more: false,
    })
    await repo.replace('alice', { id: 3n, name: 'Mint' })
    expect((await repo.listJson?.('alice', { limit: 5 }))?.json).toBe('[{"name":"Mint","id":3}]')
    await repo.close()
    const check = new Database(file)
    expect(check.pragma('user_version', { simple: true })).toBe(migrations.length)
    check.close()
  })

  it('opens read-only when migrated, and is refused read-only while a migration is due', async () => {
    const file = join(folder, 'read-only-earlier.db')
    const db = new Database(file)
    db.exec(migrations[0]?.sqlite ?? '')
    db.pragma('user_version = 1')
    db.close()
    expect(() => openSqliteRepository(file, { readOnly: true })).toThrow(
      /read-only-earlier\.db needs a schema step, which a read-only file cannot take: open it writable once to migrate/,
    )
    const unchanged = new Database(file)
    expect(unchanged.pragma('user_version', { simple: true })).toBe(1)
    unchanged.close()
    await openSqliteRepository(file).close()
    const repo = openSqliteRepository(file, { readOnly: true })
    onTestFinished(() => repo.close())
    expect(await repo.get('alice', 3n)).toBeUndefined()
    await expect(repo.create('alice', { id: 3n, name: 'Basil' })).rejects.toThrow(/cannot take writes/)
  })
})

describe('SQLite reads in one turn sharing a snapshot', () => {
  const basil = (id: bigint) => ({ id, name: 'Basil', tag: 'herb' })
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

  async function withOther() {
    const url = await stores[0]?.fresh()
    if (!url) throw new Error('no SQLite store')
    const repo = await open(url)
    // Another instance on the same file, writing at once rather than in the next turn.
    const other = new Database(url.slice('sqlite:'.length))
    onTestFinished(() => {
      other.close()
    })
    const insert = other.prepare('INSERT INTO plants (owner, id, name, tag) VALUES (?, ?, ?, ?)')
    return { repo, write: (id: bigint) => insert.run('alice', id, 'Basil', 'herb') }
  }

  it('see in the next turn what another instance committed after the snapshot opened', async () => {
    const { repo, write } = await withOther()
    expect(await repo.get('alice', 1n)).toBeUndefined()
    write(1n)
    // The same turn's reads share the snapshot taken before that commit.
    expect(await repo.get('alice', 1n)).toBeUndefined()
    await nextTurn()
    expect(await repo.get('alice', 1n)).toEqual(basil(1n))
    expect(await repo.list('alice', { limit: 5 })).toEqual([basil(1n)])
  })

  it('go alone after the instance committed a write, until the next turn', async () => {
    const { repo, write } = await withOther()
    // Its continuation runs where the write committed (the check phase): a snapshot opened there
    // would outlive the next poll phase and serve requests that arrived after it.
    expect(await repo.create('alice', basil(1n))).toBe(true)
    expect(await repo.get('alice', 1n)).toEqual(basil(1n))
    write(2n)
    expect(await repo.get('alice', 2n)).toEqual(basil(2n))
  })

  it('never hold a write of the same instance back, nor lose one', async () => {
    const { repo } = await withOther()
    const created = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const id = BigInt(i + 1)
        // A read before and after each create, in the turns the creates commit in.
        await repo.get('alice', id)
        const done = await repo.create('alice', basil(id))
        return done && (await repo.get('alice', id)) !== undefined
      }),
    )
    expect(created.every(Boolean)).toBe(true)
    expect(await repo.list('alice', { limit: 100 })).toHaveLength(50)
  })
})

describe("SQLite's page statements, their parameters bound as casts", () => {
  /** EXPLAIN QUERY PLAN's steps for a statement on a new, migrated SQLite file. */
  async function planner() {
    const url = await stores[0]?.fresh()
    if (!url) throw new Error('no SQLite store')
    await (await open(url)).close()
    const db = new Database(url.slice('sqlite:'.length), { readonly: true })
    onTestFinished(() => {
      db.close()
    })
    return (sql: string, ...values: unknown[]) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...values)
        .map((step) => (step as { detail: string }).detail)
  }

  it('are planned as with bare parameters: by the primary key from the id on, in its order', async () => {
    const plan = await planner()
    const bare = 'SELECT name FROM plants WHERE owner = ? AND id >= ? ORDER BY id LIMIT ?'
    expect(plan(pageSql('name', false), 'alice', 5n, 51)).toEqual(plan(bare, 'alice', 5n, 51))
    expect(plan(pageSql('name', false), 'alice', 5n, 51)).toEqual([
      'SEARCH plants USING PRIMARY KEY (owner=? AND id>?)',
    ])
  })

  it("read a tag's page by plants_by_tag, not by testing the tag of each of the owner's plants", async () => {
    const plan = await planner()
    expect(plan(pageSql('name', true), 'alice', 'herb', 5n, 51)).toEqual([
      'SEARCH plants USING INDEX plants_by_tag (owner=? AND tag=? AND id>?)',
    ])
  })
})
