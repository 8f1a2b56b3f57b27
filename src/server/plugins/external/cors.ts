// CORS, so that browser apps on the allowed origins can call the server; Link and the challenge stay readable.
import cors from '@fastify/cors'
import fp from 'fastify-plugin'

export default fp(async (app, { origins }: { origins: '*' | string[] }) => {
  // No origin allowed: no CORS answers at all, and a browser keeps pages of other origins out.
  if (origins !== '*' && origins.length === 0) return
  await app.register(cors, {
    origin: origins === '*' ? true : origins,
    // The methods the document uses; @fastify/cors would allow only GET, HEAD and POST.
    methods: [...new Set(app.spec.operations.map((entry) => entry.method.toUpperCase()))],
    exposedHeaders: ['Link', 'WWW-Authenticate', 'X-Request-Id'],
  })
})
