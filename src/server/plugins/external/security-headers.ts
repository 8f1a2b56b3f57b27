// Security headers on every answer, chosen for a JSON API that browser apps on other origins call:
// nothing in an answer may run, be framed or be sniffed as another type. They are helmet 8's defaults
// with a CSP that allows nothing and a Cross-Origin-Resource-Policy that lets other origins read,
// written here once: @fastify/helmet built helmet's middleware, CSP text included, again for every
// request, which cost more than the rest of the server's own work on a read.
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on a route whose answers must go without them (the /docs page runs its own scripts). */
    securityHeaders?: false
  }
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // A JSON answer loads nothing; the /docs page, which does, goes without these headers.
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  // Browser apps on other origins are the point of CORS here: their reads must not be blocked.
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
})

export default fp(
  async (app) => {
    // A callback hook: no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.securityHeaders !== false) reply.headers(SECURITY_HEADERS)
      done()
    })
  },
  { name: 'security-headers' },
)
