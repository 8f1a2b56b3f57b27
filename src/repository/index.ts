// Opens the repository that DATABASE_URL names: SQLite (`sqlite:`) or PostgreSQL (`postgres://`).
import type { PlantRepository } from './plant-repository.js'
import { openPostgresRepository } from './postgres-repository.js'
import { openSqliteRepository } from './sqlite-repository.js'

export interface StoreOptions {
  databaseUrl: string
  /** PostgreSQL: the most connections one instance opens. */
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
}

export async function openRepository({ databaseUrl, ...pool }: StoreOptions): Promise<PlantRepository> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteRepository(databaseUrl.slice('sqlite:'.length))
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgresRepository({ url: databaseUrl, ...pool })
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
