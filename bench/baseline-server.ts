// The baseline: bare Fastify 5 with the document's own schemas and handlers that do nothing, so the
// benchmark can tell what the real server's storage, auth, logging and plugins cost on top of Fastify.
import Fastify, { type RouteHandlerMethod } from 'fastify'
import { type components, loadSpec, routePath, routeSchema } from '../scripts/lib/spec.js'

type NewPlant = components['schemas']['NewPlant']

// Answers shaped like the real server's, so both serialize the same amount of JSON.
const plants = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: 'Basil', tag: 'herb' }))
const handlers: Record<string, RouteHandlerMethod> = {
  // The create answers a Plant: its body's fields without the id.
  createPlant: async (request) => {
    const { id: _id, ...plant } = request.body as NewPlant
    return plant
  },
  listPlants: async (request) => plants.slice(0, (request.query as { limit: number }).limit),
  getPlant: async (request) => ({ id: (request.params as { id: number }).id, name: 'Basil', tag: 'herb' }),
  replacePlant: async (request) => ({
    id: (request.params as { id: number }).id,
    ...(request.body as object),
  }),
  deletePlant: async (_request, reply) => reply.code(204).send(),
  getHealth: async () => ({ status: 'ok' }),
  getReadiness: async () => ({ status: 'ok' }),
}

const app = Fastify()
for (const entry of (await loadSpec()).operations) {
  const handler = handlers[entry.operationId]
  if (!handler) throw new Error(`baseline: no handler for ${entry.operationId}`)
  app.route({
    method: entry.method.toUpperCase(),
    url: routePath(entry),
    // The same schemas the real server registers: body, path, query string and every JSON response.
    schema: routeSchema(entry),
    handler,
  })
}

const address = await app.listen({ host: '127.0.0.1', port: 0 })
// The same words Fastify's logger would print, so one pattern finds both servers' ports.
console.log(`Server listening at ${address}`)
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)))
}
