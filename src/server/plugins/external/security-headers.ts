// Security headers by what an answer is (OWASP's REST Security Cheat Sheet). A JSON answer gets the REST
// API's set: nothing in it may run, be framed or be sniffed as another type, over HTTPS only. The /docs
// page, the one HTML document, gets helmet 8's headers for a document with a CSP that lets Swagger UI
// run and nothing else (plugins/external/docs.ts). Both are written here once: @fastify/helmet built
// helmet's middleware, CSP text included, again for every request, which cost more than the rest of
// the server's own work on a read.
import fp from 'fastify-plugin'

const HSTS = 'max-age=31536000; includeSubDomains'

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

/**
 * The /docs page's and its assets': helmet 8's defaults, framing refused, with the page's CSP. Every
 * name of API_HEADERS is among them, so that written over those they leave none of the API's values.
 */
export function documentHeaders(contentSecurityPolicy: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': HSTS,
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  })
}

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
  { name: 'security-headers' },
)
