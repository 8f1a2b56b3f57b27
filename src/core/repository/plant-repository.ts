// The storage interface the routes use: async, so that a PostgreSQL adapter can stand beside SQLite.
import type { components } from '../generated/openapi.js'

export type StoredPlant = components['schemas']['StoredPlant']

export interface ListQuery {
  limit: number
  /** Only plants with an id greater than this (keyset pagination). */
  after?: bigint
  tag?: string
}

/** A page of plants as the JSON text an answer sends, for a store that writes it without building the plants. */
export interface JsonPage {
  /** The page's plants as a JSON array: each plant's fields in an answer's order (plantAnswerOrder), the id in all its digits. */
  json: string
  /** The id of the page's last plant; undefined when the page is empty. */
  lastId?: bigint
  /** Whether plants follow the page. */
  more: boolean
}

export interface PlantRepository {
  /** False when the owner already has a plant with this id; nothing is changed then. */
  create(owner: string, plant: StoredPlant): Promise<boolean>
  get(owner: string, id: bigint): Promise<StoredPlant | undefined>
  /** The owner's plants in ascending id order. */
  list(owner: string, query: ListQuery): Promise<StoredPlant[]>
  /**
   * The page of `query.limit` plants `list` would give, as an answer's JSON text: what a store that can
   * write it straight from its rows offers, so a page costs no plant objects and no serializer pass.
   */
  listJson?(owner: string, query: ListQuery): Promise<JsonPage>
  /** False when the owner has no plant with this id. */
  replace(owner: string, plant: StoredPlant): Promise<boolean>
  /** False when the owner has no plant with this id. */
  delete(owner: string, id: bigint): Promise<boolean>
  /** Resolves once the store has answered a trivial query (readiness). */
  ping(): Promise<void>
  /** Finishes pending writes, then releases the store. */
  close(): Promise<void>
}
