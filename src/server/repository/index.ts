// Opens the repository that DATABASE_URL names: SQLite (`sqlite:`) or PostgreSQL (`postgres://`).
import type { PlantRepository } from '@plant-store/core'
import type { Outbox, OutboxOptions } from './outbox.js'
import type { SqliteOptions } from './sqlite-repository.js'

export interface StoreOptions {
  databaseUrl: string
  /** PostgreSQL: the most connections one instance opens. */
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
  /** SQLite: a size cap and read-only opening, for the fault tests. */
  sqlite?: SqliteOptions
  /** Store a newPlant event with each create of an owner it wants, in the create's transaction. */
  outbox?: OutboxOptions
}

type Open = (options: StoreOptions) => Promise<PlantRepository & { outbox: Outbox }>

// Each store's driver is loaded only when it is the one used: pg costs a SQLite server's start nothing.
const openSqlite: Open = async ({ databaseUrl, sqlite, outbox }) => {
  const { openSqliteRepository } = await import('./sqlite-repository.js')
  // Stryker disable next-line MethodExpression,StringLiteral,ObjectLiteral: unreachable: DATABASE_URL and the store's options are start-up settings the runner fixes (in memory, no options), and a store opened from the whole URL as a file's name answers alike; src/server/test/repository.test.ts opens stores on files.
  return openSqliteRepository(databaseUrl.slice('sqlite:'.length), { ...sqlite, outbox })
}

// Stryker disable all: unreachable: PostgreSQL, or a scheme no store has, and the runner starts SQLite; src/server/test/postgres-instances.test.ts, and src/server/config.ts refuses another scheme first (src/server/test/config.test.ts).
const openPostgres: Open = async ({ databaseUrl, sqlite: _, outbox, ...pool }) => {
  const { openPostgresRepository } = await import('./postgres-repository.js')
  return openPostgresRepository({ url: databaseUrl, ...pool, outbox })
}

const unsupported: Open = async ({ databaseUrl }) => {
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
// Stryker restore all

/** The store each scheme of DATABASE_URL names (the text before its first colon). */
const stores = new Map<string, Open>([
  ['sqlite', openSqlite],
  // Stryker disable next-line all: unreachable: PostgreSQL, and the runner starts SQLite; src/server/test/postgres-instances.test.ts.
  ['postgres', openPostgres],
  // Stryker disable next-line all: unreachable: PostgreSQL, and the runner starts SQLite; src/server/test/postgres-instances.test.ts.
  ['postgresql', openPostgres],
])

export async function openRepository(options: StoreOptions): Promise<PlantRepository & { outbox: Outbox }> {
  const { databaseUrl } = options
  return (stores.get(databaseUrl.slice(0, databaseUrl.indexOf(':'))) ?? unsupported)(options)
}
