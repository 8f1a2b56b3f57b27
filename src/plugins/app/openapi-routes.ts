// Registers one route per operation of the document, with its schemas, security and handler.
import type { RouteHandlerMethod } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../../lib/errors.js'
import { routePath, routeSchema } from '../../spec.js'
import type { Handlers, ProbeHandlers } from '../../types.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whether the route's operation requires credentials (src/spec.ts isSecured). */
    secured?: boolean
  }
}

export default fp(
  async (
    app,
    {
      handlers,
      routeConfig = {},
    }: { handlers: Handlers & ProbeHandlers; routeConfig?: Record<string, object> },
  ) => {
    const { operations } = app.spec
    const documented = new Set(operations.map((entry) => entry.operationId))
    const extra = Object.keys(handlers).filter((id) => !documented.has(id))
    if (extra.length > 0)
      throw new Error(`handlers without an operation in the document: ${extra.join(', ')}`)
    for (const entry of operations) {
      const handler = handlers[entry.operationId as keyof Handlers] as RouteHandlerMethod | undefined
      if (!handler) throw new Error(`no handler for operation ${entry.operationId}`)
      app.route({
        method: entry.method.toUpperCase(),
        url: routePath(entry),
        schema: routeSchema(entry),
        config: { ...routeConfig[entry.operationId], secured: entry.secured },
        handler,
      })
    }

    // A documented path with an undocumented method is 405, as HTTP asks, not 404.
    const paths = [...new Set(operations.map((entry) => entry.path))].map((path) => ({
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      allow: operations.filter((entry) => entry.path === path).map((entry) => entry.method.toUpperCase()),
    }))
    app.setNotFoundHandler(async (request) => {
      const path = request.url.split('?')[0] ?? ''
      const known = paths.find((candidate) => candidate.pattern.test(path))
      if (known) {
        throw new HttpError(405, `method ${request.method} is not allowed on ${path}`, {
          allow: known.allow.join(', '),
        })
      }
      throw new HttpError(404, `no route for ${request.method} ${path}`)
    })
  },
  { name: 'openapi-routes', dependencies: ['auth'] },
)
