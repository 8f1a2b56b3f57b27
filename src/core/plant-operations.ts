// What each plant operation does, apart from any HTTP framework: given the caller, the validated
// request and a repository, the answer to give. The Fastify routes (src/server/routes/plants.ts)
// and the in-process handlers (src/msw/) both adapt it, so the behaviour is written once.
import type { operations } from './generated/openapi.js'
import { HttpError } from './lib/errors.js'
import { integerText, isInt64 } from './lib/int64.js'
import { nextLink } from './lib/link.js'
import { pickPlant } from './lib/plant-fields.js'
import type { PlantRepository, StoredPlant } from './repository/plant-repository.js'

type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never
type Id = number | bigint

/** The validated parts of a request of operation K, as the document types them. */
export interface InputOf<K extends keyof operations> {
  body: operations[K] extends { requestBody: infer R } ? JsonBody<R> : undefined
  params: operations[K]['parameters'] extends { path: infer P } ? P : undefined
  query: NonNullable<operations[K]['parameters']['query']>
}

/** What to answer: the status, the JSON body (none for 204) and any headers beyond the defaults. */
export interface Answer {
  status: number
  body?: unknown
  /** Instead of `body`: its JSON text, as a store wrote it (a page from `listJson`), sent as it is. */
  json?: string
  headers?: Record<string, string>
}

export type Operation<K extends keyof operations> = (
  repository: PlantRepository,
  principal: string,
  input: InputOf<K>,
) => Promise<Answer>

/** The operations that answer from the instance alone, without the store's data: liveness and readiness. */
export type ProbeOperationId = 'getHealth' | 'getReadiness'

/** The webhooks: requests the server sends, not operations it answers. */
export type WebhookOperationId = 'newPlant'

/** The operations on plants; the health checks (src/server/routes/probes.ts) concern the instance, not plants. */
export type PlantOperationId = Exclude<keyof operations, ProbeOperationId | WebhookOperationId>

export type PlantOperations = { [K in PlantOperationId]: Operation<K> }

export const plantOperations: PlantOperations = {
  async createPlant(repository, principal, { body }) {
    const { id, ...created } = pickPlant(body)
    if (!(await repository.create(principal, { id, ...created }))) {
      throw new HttpError(409, `plant ${id} already exists`)
    }
    // The create answers a Plant: the fields without the id.
    return { status: 200, body: created }
  },

  async listPlants(repository, principal, { query }) {
    const { cursor, tag } = query
    // The schema's default has filled the limit in.
    const limit = query.limit as number
    const after = cursor === undefined ? undefined : decodeCursor(cursor, principal)
    // A store that writes the page's JSON itself spares building each plant and serializing it.
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent: the general path below writes the same page.
    if (repository.listJson) {
      const { json, lastId, more } = await repository.listJson(principal, { limit, after, tag })
      return { status: 200, json, ...nextPage(principal, limit, tag, more ? lastId : undefined) }
    }
    // Stryker disable all: unreachable: the server's SQLite store writes its pages (listJson above); this is the in-memory store's (the MSW handlers') and PostgreSQL's path, judged by src/msw/test and src/server/test/postgres-instances.test.ts.
    const rows = await repository.list(principal, { limit: limit + 1, after, tag })
    const page: StoredPlant[] = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      status: 200,
      body: page,
      ...nextPage(principal, limit, tag, rows.length > limit && last ? last.id : undefined),
    }
  },

  // Stryker restore all
  async getPlant(repository, principal, { params }) {
    const plant = await repository.get(principal, BigInt(params.id))
    if (!plant) throw notFound(params.id)
    return { status: 200, body: plant }
  },

  async replacePlant(repository, principal, { params, body }) {
    const plant = pickPlant(body, params.id)
    if (!(await repository.replace(principal, plant))) throw notFound(plant.id)
    return { status: 200, body: plant }
  },

  async deletePlant(repository, principal, { params }) {
    if (!(await repository.delete(principal, BigInt(params.id)))) throw notFound(params.id)
    return { status: 204 }
  },
}

/** The Link to the page after the one ending at `lastId`; none when no plant follows. */
function nextPage(principal: string, limit: number, tag: string | undefined, lastId: Id | undefined) {
  if (lastId === undefined) return {}
  const cursor = encodeCursor(BigInt(lastId), principal)
  // The limit's digits and the cursor's characters need no escaping, so without a tag the query is
  // written as it is; URLSearchParams (a µs a page) escapes the tag as forms do.
  const query =
    tag === undefined
      ? `limit=${limit}&cursor=${cursor}`
      : String(new URLSearchParams({ limit: String(limit), tag, cursor }))
  // Query-only: it keeps the path the request came by, prefix and all (RFC 3986 §5.2).
  return { headers: { link: nextLink(`?${query}`) } }
}

const notFound = (id: Id) => new HttpError(404, `plant ${id} not found`)

// Opaque to clients by contract; today it is the last id of the page, base64url-encoded, then a dot
// and a mark of the principal it was made for. The document refuses a cursor made for another
// principal as one the server did not make, so that its answer never tells where the other's plants
// are. The digits and the sign are ASCII, so btoa/atob (in browsers and Node alike) encode them as
// Buffer did; their base64 never holds '+' or '/', so without its padding it is base64url as it is.
export function encodeCursor(lastId: bigint, principal: string): string {
  // '=' appears in base64 only as its padding.
  const id = btoa(String(lastId)).replace(/=/g, '')
  return `${id}.${principalMark(principal)}`
}

function decodeCursor(cursor: string, principal: string): bigint {
  // Only what encodeCursor makes for this principal, checked by making it again.
  const id = cursor.slice(0, Math.max(0, cursor.indexOf('.')))
  // Stryker disable next-line StringLiteral: equivalent: whatever it starts as, text that atob did not make is refused below.
  let text = ''
  try {
    text = atob(id)
  } catch {
    // Not base64 at all: the check below refuses it.
  }
  if (integerText.test(text) && isInt64(BigInt(text)) && encodeCursor(BigInt(text), principal) === cursor)
    return BigInt(text)
  throw new HttpError(400, 'querystring/cursor is not a cursor this server made')
}

/**
 * Tells principals apart, nothing more: two 32-bit FNV-1a hashes of the principal (from two offset
 * bases), in hex. It need not be a secret, since a page only ever holds the caller's own plants: a
 * forged mark gains nothing. A synchronous hash runs wherever the handlers do (Web Crypto is missing
 * from insecure pages), and 32-bit arithmetic keeps it cheap.
 */
function principalMark(principal: string): string {
  let a = 0x811c9dc5
  let b = 0x050c5d1f
  // By UTF-16 code unit: any text, each principal's the same every time.
  // `!==`: a loop that ran one unit past the end would still tell principals apart, unseen.
  for (let i = 0; i !== principal.length; i++) {
    const unit = principal.charCodeAt(i)
    a = Math.imul(a ^ unit, 0x01000193)
    b = Math.imul(b ^ unit, 0x01000193)
  }
  // Stryker disable next-line StringLiteral: equivalent: unpadded, the two hashes still tell principals apart.
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return `${hex(a)}${hex(b)}`
}
