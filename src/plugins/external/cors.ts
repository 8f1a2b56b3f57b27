// CORS, so that browser apps on other origins can call the server; Link and the challenge stay readable.
import cors from '@fastify/cors'
import fp from 'fastify-plugin'

export default fp(async (app, { origin }: { origin: string }) => {
  await app.register(cors, {
    origin: origin === '*' ? true : origin.split(','),
    // The methods the document uses; @fastify/cors would allow only GET, HEAD and POST.
    methods: [...new Set(app.spec.operations.map((entry) => entry.method.toUpperCase()))],
    exposedHeaders: ['Link', 'WWW-Authenticate', 'X-Request-Id'],
  })
})
