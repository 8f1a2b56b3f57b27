// The baseline: bare Fastify 5 with the document's own schemas and handlers that do nothing, so the
// benchmark can tell what the real server's storage, auth, logging and plugins cost on top of Fastify.
import SwaggerParser from '@apidevtools/swagger-parser'
import Fastify, { type FastifySchema, type RouteHandlerMethod } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'

const specPath = new URL('../spec/openapi.yaml', import.meta.url).pathname
const document = (await SwaggerParser.dereference(specPath)) as OpenAPIV3_1.Document

type Parameter = OpenAPIV3_1.ParameterObject
type Schema = OpenAPIV3_1.SchemaObject

// The same schemas the real server registers: body, path, query string and every JSON response.
function routeSchema(operation: OpenAPIV3_1.OperationObject, shared: Parameter[]): FastifySchema {
  const parameters = [...shared, ...((operation.parameters ?? []) as Parameter[])]
  const objectOf = (where: string): Schema | undefined => {
    const chosen = parameters.filter((p) => p.in === where)
    if (chosen.length === 0) return undefined
    return {
      type: 'object',
      properties: Object.fromEntries(chosen.map((p) => [p.name, p.schema as Schema])),
      required: chosen.filter((p) => p.required).map((p) => p.name),
    }
  }
  const schema: FastifySchema = { response: {} }
  const body = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[
    'application/json'
  ]
  if (body?.schema) schema.body = body.schema
  const params = objectOf('path')
  if (params) schema.params = params
  const querystring = objectOf('query')
  if (querystring) schema.querystring = querystring
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const json = (answer as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema
    if (json) (schema.response as Record<string, unknown>)[status] = json
  }
  return schema
}

// Answers shaped like the real server's, so both serialize the same amount of JSON.
const plants = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: 'Basil', tag: 'herb' }))
const handlers: Record<string, RouteHandlerMethod> = {
  createPlant: async (request) => {
    const { name, tag } = request.body as { name: string; tag?: string }
    return { name, tag }
  },
  listPlants: async (request) => plants.slice(0, (request.query as { limit: number }).limit),
  getPlant: async (request) => ({ id: (request.params as { id: number }).id, name: 'Basil', tag: 'herb' }),
  replacePlant: async (request) => ({
    id: (request.params as { id: number }).id,
    ...(request.body as object),
  }),
  deletePlant: async (_request, reply) => reply.code(204).send(),
}

const app = Fastify()
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const method of ['get', 'put', 'post', 'delete'] as const) {
    const operation = item?.[method]
    if (!operation?.operationId) continue
    const handler = handlers[operation.operationId]
    if (!handler) throw new Error(`baseline: no handler for ${operation.operationId}`)
    app.route({
      method: method.toUpperCase(),
      url: path.replace(/\{([^}]+)\}/g, ':$1'),
      schema: routeSchema(operation, (item?.parameters ?? []) as Parameter[]),
      handler,
    })
  }
}

const address = await app.listen({ host: '127.0.0.1', port: 0 })
// The same words Fastify's logger would print, so one pattern finds both servers' ports.
console.log(`Server listening at ${address}`)
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)))
}
