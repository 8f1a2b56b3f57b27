// SQLite storage through better-sqlite3. Writes arriving in one event-loop turn share one transaction
// (group commit), and each is answered only after that transaction is durably committed.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { INT64_MAX, INT64_MIN } from '../lib/int64.js'
import { checkSchemaVersion, migrations } from './migrations.js'
import type { ListQuery, PlantRepository, StoredPlant } from './plant-repository.js'

/** A row as an array (better-sqlite3's raw mode): id, name, tag. */
type Row = [id: bigint, name: string, tag: string | null]

interface PendingWrite {
  run: () => boolean
  resolve: (done: boolean) => void
  reject: (error: unknown) => void
}

export function openSqliteRepository(file: string): PlantRepository {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  // FULL: a commit is on disk before its requests are answered; group commit pays for the fsync.
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.defaultSafeIntegers(true)
  try {
    migrate(db)
  } catch (error) {
    db.close()
    throw error
  }

  const insert = db.prepare(
    'INSERT INTO plants (owner, id, name, tag) VALUES (?, ?, ?, ?) ON CONFLICT (owner, id) DO NOTHING',
  )
  const update = db.prepare('UPDATE plants SET name = ?, tag = ? WHERE owner = ? AND id = ?')
  const remove = db.prepare('DELETE FROM plants WHERE owner = ? AND id = ?')
  // Raw mode: rows as arrays, which better-sqlite3 builds at about two thirds of the cost of objects
  // (a page of 51 rows: 63 against 96 µs CPU with serialization, measured in isolation).
  const select = db
    .prepare<[string, bigint], Row>('SELECT id, name, tag FROM plants WHERE owner = ? AND id = ?')
    .raw(true)
  const page = db
    .prepare<[string, bigint, number], Row>(
      'SELECT id, name, tag FROM plants WHERE owner = ? AND id >= ? ORDER BY id LIMIT ?',
    )
    .raw(true)
  const pageByTag = db
    .prepare<[string, string, bigint, number], Row>(
      'SELECT id, name, tag FROM plants WHERE owner = ? AND tag = ? AND id >= ? ORDER BY id LIMIT ?',
    )
    .raw(true)

  let pending: PendingWrite[] = []
  const commit = db.transaction((batch: PendingWrite[]) => batch.map((write) => write.run()))
  const flush = () => {
    const batch = pending
    pending = []
    if (batch.length === 0) return
    let results: boolean[]
    try {
      results = commit(batch)
    } catch (error) {
      // The transaction rolled back as a whole: nothing of the batch is stored, so none succeeded.
      for (const write of batch) write.reject(error)
      return
    }
    batch.forEach((write, i) => {
      write.resolve(results[i] === true)
    })
  }
  const write = (run: () => boolean) =>
    new Promise<boolean>((resolve, reject) => {
      pending.push({ run, resolve, reject })
      if (pending.length === 1) setImmediate(flush)
    })

  return {
    create: (owner, plant) =>
      write(() => insert.run(owner, BigInt(plant.id), plant.name, plant.tag ?? null).changes === 1),
    replace: (owner, plant) =>
      write(() => update.run(plant.name, plant.tag ?? null, owner, BigInt(plant.id)).changes === 1),
    delete: (owner, id) => write(() => remove.run(owner, id).changes === 1),
    get: async (owner, id) => {
      const row = select.get(owner, id)
      return row && toPlant(row)
    },
    ping: async () => {
      select.get('', 0n)
    },
    list: async (owner, { limit, after, tag }: ListQuery) => {
      if (after === INT64_MAX) return []
      const from = after === undefined ? INT64_MIN : after + 1n
      const rows = tag === undefined ? page.all(owner, from, limit) : pageByTag.all(owner, tag, from, limit)
      return rows.map(toPlant)
    },
    close: async () => {
      flush()
      db.close()
    },
  }
}

function migrate(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }))
  checkSchemaVersion(version, 'SQLite')
  db.transaction(() => {
    migrations.slice(version).forEach((step, i) => {
      db.exec(step.sqlite)
      db.pragma(`user_version = ${version + i + 1}`)
    })
  })()
}

function toPlant([id, name, tag]: Row): StoredPlant {
  return tag === null ? { id, name } : { id, name, tag }
}
