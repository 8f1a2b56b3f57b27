// The plant operations, one handler per operationId of spec/openapi.yaml.
import type { FastifyReply } from 'fastify'
import { HttpError } from '../lib/errors.js'
import { integerText, isInt64 } from '../lib/int64.js'
import type { PlantField } from '../repository/plant-repository.js'
import type { Handlers } from '../types.js'

export const plantHandlers: Handlers = {
  async createPlant(request) {
    const { id, name, tag } = request.body
    if (!(await request.server.repository.create(request.principal, { id: BigInt(id), name, tag }))) {
      throw new HttpError(409, `plant ${id} already exists`)
    }
    return { name, tag }
  },

  async listPlants(request, reply) {
    const { cursor, tag } = request.query
    // The schema's default has filled the limit in.
    const limit = request.query.limit as number
    const after = cursor === undefined ? undefined : decodeCursor(cursor)
    const link = (last: bigint) => {
      const next = new URLSearchParams({ limit: String(limit), ...(tag === undefined ? {} : { tag }) })
      next.set('cursor', encodeCursor(last))
      reply.header('link', `</plants?${next}>; rel="next"`)
    }
    // The store writes the page's JSON itself when it can, in the shape the response schema gives.
    const fields = pageFields(reply)
    const { repository } = request.server
    const json = fields && (await repository.listJson?.(request.principal, { limit, after, tag }, fields))
    if (json) {
      if (json.nextAfter !== undefined) link(json.nextAfter)
      reply.header('content-type', 'application/json; charset=utf-8')
      // A string with a JSON content type is sent as it is: SQLite has serialized it.
      return json.json as never
    }
    const rows = await repository.list(request.principal, { limit: limit + 1, after, tag })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    if (rows.length > limit && last) link(BigInt(last.id))
    return page
  },

  async getPlant(request) {
    const { id } = request.params
    const plant = await request.server.repository.get(request.principal, BigInt(id))
    if (!plant) throw notFound(id)
    return plant
  },

  async replacePlant(request) {
    const plant = { id: BigInt(request.params.id), name: request.body.name, tag: request.body.tag }
    if (!(await request.server.repository.replace(request.principal, plant))) throw notFound(plant.id)
    return plant
  },

  async deletePlant(request, reply) {
    const { id } = request.params
    if (!(await request.server.repository.delete(request.principal, BigInt(id)))) throw notFound(id)
    reply.code(204)
    return undefined
  },
}

// The order of a plant's fields in the listPlants answer, read from the route's own serializer (the
// document's schema): undefined, and so no store-made JSON, unless that serializer writes exactly
// id, name and an optional tag, each as JSON.stringify would, in one fixed order.
type Serialize = (payload: unknown) => string
const fieldsOf = new WeakMap<Serialize, readonly PlantField[] | undefined>()
function pageFields(reply: FastifyReply): readonly PlantField[] | undefined {
  const serialize = reply.getSerializationFunction('200') as Serialize | undefined
  if (!serialize) return undefined
  if (fieldsOf.has(serialize)) return fieldsOf.get(serialize)
  const probe = { id: -9223372036854775808n, name: 'n "1"', tag: 't\\2' }
  const untagged = { id: probe.id, name: probe.name }
  // What JSON.stringify would write for these fields in this order (bigints as their digits).
  const write = (plant: Partial<Record<PlantField, unknown>>, which: readonly PlantField[]) =>
    `[{${which.map((f) => `"${f}":${typeof plant[f] === 'bigint' ? plant[f] : JSON.stringify(plant[f])}`).join(',')}}]`
  let found: readonly PlantField[] | undefined
  try {
    const text = serialize([probe])
    const keys = Object.keys((JSON.parse(text) as object[])[0] ?? {})
    const fields = keys.filter((key): key is PlantField => key === 'id' || key === 'name' || key === 'tag')
    const withoutTag = fields.filter((f) => f !== 'tag')
    const exact =
      fields.length === 3 &&
      keys.length === 3 &&
      text === write(probe, fields) &&
      serialize([untagged]) === write(untagged, withoutTag)
    found = exact ? fields : undefined
  } catch {
    found = undefined
  }
  fieldsOf.set(serialize, found)
  return found
}

const notFound = (id: number | bigint) => new HttpError(404, `plant ${id} not found`)

// Opaque to clients by contract; today it is the last id of the page, base64url-encoded.
function encodeCursor(lastId: bigint): string {
  return Buffer.from(String(lastId)).toString('base64url')
}

function decodeCursor(cursor: string): bigint {
  const text = Buffer.from(cursor, 'base64url').toString()
  if (integerText.test(text) && encodeCursor(BigInt(text)) === cursor && isInt64(BigInt(text)))
    return BigInt(text)
  throw new HttpError(400, 'querystring/cursor is not a cursor this server made')
}
