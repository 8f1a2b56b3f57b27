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

export async function openRepository({
  databaseUrl,
  sqlite,
  outbox,
  ...pool
}: StoreOptions): Promise<PlantRepository & { outbox: Outbox }> {
  // Each store's driver is loaded only when it is the one used: pg costs a SQLite server's start nothing.
  if (databaseUrl.startsWith('sqlite:')) {
    const { openSqliteRepository } = await import('./sqlite-repository.js')
    return openSqliteRepository(databaseUrl.slice('sqlite:'.length), { ...sqlite, outbox })
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { openPostgresRepository } = await import('./postgres-repository.js')
    return openPostgresRepository({ url: databaseUrl, ...pool, outbox })
  }
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
