// The plant operations, one handler per operationId of spec/openapi.yaml.
import { HttpError } from '../lib/errors.js'
import { integerText, isInt64 } from '../lib/int64.js'
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
    const rows = await request.server.repository.list(request.principal, { limit: limit + 1, after, tag })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    if (rows.length > limit && last) {
      const next = new URLSearchParams({ limit: String(limit), ...(tag === undefined ? {} : { tag }) })
      next.set('cursor', encodeCursor(BigInt(last.id)))
      reply.header('link', `</plants?${next}>; rel="next"`)
    }
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
