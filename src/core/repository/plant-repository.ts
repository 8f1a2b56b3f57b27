// The storage interface the routes use: async, so that a PostgreSQL adapter can stand beside SQLite.
import type { components } from '../generated/openapi.js'

export type StoredPlant = components['schemas']['StoredPlant']

export interface ListQuery {
  limit: number
  /** Only plants with an id greater than this (keyset pagination). */
  after?: bigint
  tag?: string
}

export interface PlantRepository {
  /** False when the owner already has a plant with this id; nothing is changed then. */
  create(owner: string, plant: StoredPlant): Promise<boolean>
  get(owner: string, id: bigint): Promise<StoredPlant | undefined>
  /** The owner's plants in ascending id order. */
  list(owner: string, query: ListQuery): Promise<StoredPlant[]>
  /** False when the owner has no plant with this id. */
  replace(owner: string, plant: StoredPlant): Promise<boolean>
  /** False when the owner has no plant with this id. */
  delete(owner: string, id: bigint): Promise<boolean>
  /** Resolves once the store has answered a trivial query (readiness). */
  ping(): Promise<void>
  /** Finishes pending writes, then releases the store. */
  close(): Promise<void>
}
