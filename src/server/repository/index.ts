// Opens the repository that DATABASE_URL names: SQLite (`sqlite:`) or PostgreSQL (`postgres://`).
import type { PlantRepository } from '@plant-store/core'
import { openPostgresRepository } from './postgres-repository.js'
import { openSqliteRepository, type SqliteOptions } from './sqlite-repository.js'

export interface StoreOptions {
  databaseUrl: string
  /** PostgreSQL: the most connections one instance opens. */
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
  /** SQLite: a size cap and read-only opening, for the fault tests. */
  sqlite?: SqliteOptions
}

export async function openRepository({
  databaseUrl,
  sqlite,
  ...pool
}: StoreOptions): Promise<PlantRepository> {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteRepository(databaseUrl.slice('sqlite:'.length), sqlite)
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgresRepository({ url: databaseUrl, ...pool })
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
