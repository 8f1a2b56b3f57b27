// CORS, so that browser apps on the allowed origins can call the server; Link and the challenge stay readable.
import type { FastifyCorsOptions } from '@fastify/cors'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

// The Fetch standard's preflight: OPTIONS with Origin and Access-Control-Request-Method.
const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' &&
  request.headers.origin !== undefined &&
  request.headers['access-control-request-method'] !== undefined

export default fp(async (app, { origins }: { origins: '*' | string[] }) => {
  // No origin allowed: no CORS answers at all, and a browser keeps pages of other origins out.
  if (origins !== '*' && origins.length === 0) return
  // Loaded only when some origin is allowed: a production server without CORS_ORIGIN does without.
  const { default: cors } = await import('@fastify/cors')
  const options: FastifyCorsOptions = {
    origin: origins === '*' ? true : origins,
    // The methods the document uses; @fastify/cors would allow only GET, HEAD and POST.
    methods: [...new Set(app.spec.operations.map((entry) => entry.method.toUpperCase()))],
    exposedHeaders: ['Link', 'WWW-Authenticate', 'X-Request-Id'],
  }
  // Any other OPTIONS is not a preflight, and is answered as the document answers a method no
  // operation takes (405 with Allow, or 404), not with @fastify/cors's `400 text/plain`.
  const notPreflight: FastifyCorsOptions = { ...options, preflight: false }
  await app.register(cors, {
    delegator: (request, callback) => callback(null, isPreflight(request) ? options : notPreflight),
  })
})
