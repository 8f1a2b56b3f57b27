// The broker's document at /openapi.json and as Swagger UI at /docs, whose scripts and styles need a
// CSP of their own.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { brokerDocument } from '../openapi.js'

const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export default fp(async (app) => {
  await app.register(swagger, { mode: 'static', specification: { document: brokerDocument as never } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {},
    uiHooks: {
      onRequest: async (_request, reply) => void reply.header('content-security-policy', DOCS_POLICY),
    },
  })
  app.get('/openapi.json', { config: { access: 'open' } }, async () => brokerDocument)
})
