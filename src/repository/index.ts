// Opens the repository named by DATABASE_URL.
import type { PlantRepository } from './plant-repository.js'
import { openSqliteRepository } from './sqlite-repository.js'

export function openRepository(databaseUrl: string): PlantRepository {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteRepository(databaseUrl.slice('sqlite:'.length))
  throw new Error(`DATABASE_URL: unsupported scheme in ${databaseUrl}`)
}
