// Opens the repository named by DATABASE_URL.
import type { PlantRepository } from './plant-repository.js'
import { openSqliteRepository, type SqliteOptions } from './sqlite-repository.js'

export function openRepository(databaseUrl: string, sqlite: SqliteOptions = {}): PlantRepository {
  if (databaseUrl.startsWith('sqlite:'))
    return openSqliteRepository(databaseUrl.slice('sqlite:'.length), sqlite)
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
