// Security headers by what an answer is (OWASP's REST Security Cheat Sheet). A JSON answer gets the REST
// API's set: nothing in it may run, be framed or be sniffed as another type, over HTTPS only. The /docs
// page, the one HTML document, gets helmet 8's headers for a document with a CSP that lets Swagger UI
// run and nothing else (documentHeaders in plugins/external/docs.ts, with the page). Both are written
// once: @fastify/helmet built helmet's middleware, CSP text included, again for every request, which
// cost more than the rest of the server's own work on a read.
import fp from 'fastify-plugin'

export const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * Every JSON answer's. A browser-document header (COOP, CORP, Referrer-Policy, …) would only cost
 * bytes: a JSON answer is never a page a browser renders, and cross-origin reads are CORS's call.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': HSTS,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
})

export default fp(
  async (app) => {
    // A callback hook: no promise per request. Written on every answer without asking the route
    // (Fastify builds request.routeOptions anew at every read): the /docs routes write the
    // document's over them, the same names and more.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(API_HEADERS)
      done()
    })
  },
  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: a plugin's name serves only the plugins that depend on it, and none depends on this one; no answer shows it.
  { name: 'security-headers' },
)
