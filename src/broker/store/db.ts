// One SQL interface over SQLite (better-sqlite3, WAL, synchronous=FULL) and PostgreSQL (pg): statements
// are written once with `?` placeholders, and every write runs in a transaction, so that several
// broker instances on one PostgreSQL database see each other's writes whole or not at all.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { migrations } from './migrations.js'

export type Row = Record<string, unknown>

export interface Sql {
  all<T = Row>(sql: string, params?: unknown[]): Promise<T[]>
  run(sql: string, params?: unknown[]): Promise<number>
}

export interface Db extends Sql {
  dialect: 'sqlite' | 'postgres'
  /** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** A write refused by a uniqueness constraint: another writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

// PostgreSQL numbers its placeholders; `?` never appears in the broker's SQL otherwise.
const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

export function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  // FULL: a commit is on disk before its request is answered.
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  const version = Number(db.pragma('user_version', { simple: true }))
  if (version > migrations.length)
    throw new Error(`${file} is at schema version ${version}, newer than this broker's ${migrations.length}`)
  db.transaction(() => {
    for (let i = version; i < migrations.length; i++) db.exec(migrations[i]?.sqlite ?? '')
    db.pragma(`user_version = ${migrations.length}`)
  }).immediate()
  const cache = new Map<string, Database.Statement>()
  const statement = (sql: string) => {
    const found = cache.get(sql)
    if (found) return found
    const made = db.prepare(sql)
    cache.set(sql, made)
    return made
  }
  const toSqlite = (params: unknown[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p))
  const sql: Sql = {
    all: async <T>(text: string, params: unknown[] = []) => statement(text).all(...toSqlite(params)) as T[],
    run: async (text: string, params: unknown[] = []) => statement(text).run(...toSqlite(params)).changes,
  }
  // better-sqlite3 is synchronous, so a transaction whose work awaits must not let another in between:
  // they queue, one after the other, on this connection.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    dialect: 'sqlite',
    ...sql,
    transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      const turn = queue.then(async () => {
        db.exec('BEGIN IMMEDIATE')
        try {
          const result = await work(sql)
          db.exec('COMMIT')
          return result
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK')
          throw error
        }
      })
      queue = turn.catch(() => undefined)
      return turn
    },
    async close() {
      await queue
      db.close()
    },
  }
}

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // int8 (counts, ids) as numbers: the broker's ids stay far below 2^53.
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text'),
  }
  const on = (client: pg.Pool | pg.PoolClient): Sql => ({
    all: async <T>(text: string, params: unknown[] = []) =>
      (await client.query({ text: numbered(text), values: params, types })).rows as T[],
    run: async (text: string, params: unknown[] = []) =>
      (await client.query({ text: numbered(text), values: params, types })).rowCount ?? 0,
  })
  const client = await pool.connect()
  try {
    // Instances starting together migrate one at a time.
    await client.query('SELECT pg_advisory_lock(5808)')
    await client.query('CREATE TABLE IF NOT EXISTS broker_schema (version integer NOT NULL)')
    const rows = (await client.query('SELECT version FROM broker_schema')).rows as { version: number }[]
    const version = rows[0]?.version ?? 0
    if (version > migrations.length)
      throw new Error(
        `the database is at schema version ${version}, newer than this broker's ${migrations.length}`,
      )
    if (version < migrations.length) {
      await client.query('BEGIN')
      for (let i = version; i < migrations.length; i++) await client.query(migrations[i]?.postgres ?? '')
      await client.query('DELETE FROM broker_schema')
      await client.query('INSERT INTO broker_schema (version) VALUES ($1)', [migrations.length])
      await client.query('COMMIT')
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    await client.query('SELECT pg_advisory_unlock(5808)').catch(() => undefined)
    client.release()
  }
  return {
    dialect: 'postgres',
    ...on(pool),
    async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      const tx = await pool.connect()
      try {
        await tx.query('BEGIN')
        const result = await work(on(tx))
        await tx.query('COMMIT')
        return result
      } catch (error) {
        await tx.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        tx.release()
      }
    },
    close: () => pool.end(),
  }
}

/** The store DATABASE_URL names: PostgreSQL for postgres:// and postgresql://, else a SQLite file. */
export function openDb(databaseUrl: string): Promise<Db> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgres(databaseUrl)
  return Promise.resolve(openSqlite(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '')))
}
