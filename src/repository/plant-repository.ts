// The storage interface the routes use: async, so that a PostgreSQL adapter can stand beside SQLite.
import type { components } from '../generated/openapi.js'

export type StoredPlant = components['schemas']['StoredPlant']

export interface ListQuery {
  limit: number
  /** Only plants with an id greater than this (keyset pagination). */
  after?: bigint
  tag?: string
}

/** The fields of a stored plant, in the order a caller wants them in JSON. */
export type PlantField = 'id' | 'name' | 'tag'

/** A page of plants as JSON text, each plant an object with the asked fields in the asked order. */
export interface JsonPage {
  /** `[{…},…]`, a plant without a tag lacking the `tag` key, as JSON.stringify would write it. */
  json: string
  /** The id of the page's last plant, when more plants follow it. */
  nextAfter?: bigint
}

export interface PlantRepository {
  /** False when the owner already has a plant with this id; nothing is changed then. */
  create(owner: string, plant: StoredPlant): Promise<boolean>
  get(owner: string, id: bigint): Promise<StoredPlant | undefined>
  /** The owner's plants in ascending id order. */
  list(owner: string, query: ListQuery): Promise<StoredPlant[]>
  /**
   * A page of list() (without the extra row) as JSON built by the store, or undefined when this store
   * cannot promise text identical to JSON.stringify for this page: the caller then uses list().
   */
  listJson?(owner: string, query: ListQuery, fields: readonly PlantField[]): Promise<JsonPage | undefined>
  /** False when the owner has no plant with this id. */
  replace(owner: string, plant: StoredPlant): Promise<boolean>
  /** False when the owner has no plant with this id. */
  delete(owner: string, id: bigint): Promise<boolean>
  /** Finishes pending writes, then releases the store. */
  close(): Promise<void>
}
