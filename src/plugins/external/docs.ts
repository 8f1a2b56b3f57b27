// Serves spec/openapi.yaml as /openapi.json and as an interactive page at /docs.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'

export default fp(async (app) => {
  const document = app.spec.document
  await app.register(swagger, { mode: 'static', specification: { document: document as never } })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  app.get('/openapi.json', async () => document)
})
