// Serves spec/openapi.yaml as /openapi.json and as an interactive page at /docs (from the copy made for
// people in lib/docs-document.ts).
//
// The page's plugins (@fastify/swagger, @fastify/swagger-ui and @fastify/static under it) cost about a
// tenth of the server's start, for a page few requests ever ask for. So they are loaded on the first
// request under /docs, into an app of their own, which answers through inject(); this app's hooks
// (CORS, the log line) run as for any route, and what that app does not know is this app's 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { docsDocument } from '../../lib/docs-document.js'
import { HSTS } from './security-headers.js'

/**
 * The /docs page's and its assets': helmet 8's defaults, framing refused, with the page's CSP. Every
 * name of API_HEADERS (security-headers.ts) is among them, so that written over those they leave none
 * of the API's values.
 */
function documentHeaders(contentSecurityPolicy: string): Readonly<Record<string, string>> {
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

const DOCS = '/docs'
// Set by this app's own reply for the body it sends.
const ownHeaders = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'])

export default fp(async (app) => {
  const document = app.spec.document
  const headers = documentHeaders(pagePolicy(document.servers))
  let docsApp: Promise<FastifyInstance> | undefined
  const build = async () => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ])
    const docs = Fastify({ logger: false, exposeHeadRoutes: false })
    const shown = docsDocument(app.spec.dereferenced)
    await docs.register(swagger, { mode: 'static', specification: { document: shown as never } })
    await docs.register(swaggerUi, { routePrefix: DOCS })
    await docs.ready()
    return docs
  }
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    docsApp ??= build().catch((error: unknown) => {
      docsApp = undefined
      throw error
    })
    const docs = await docsApp
    const answer = await docs.inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.url,
      headers: request.headers,
    })
    // The 404 is a JSON answer like any other, with the API's headers.
    if (answer.statusCode === 404) return reply.callNotFound()
    for (const [name, value] of Object.entries(answer.headers)) {
      // A HEAD answer carries the length of the body it leaves out.
      const own = ownHeaders.has(name) && !(name === 'content-length' && request.method === 'HEAD')
      if (value !== undefined && !own) reply.header(name, value)
    }
    reply.headers(headers).code(answer.statusCode)
    // An empty body without a content type (a redirect) stays without one.
    const empty = answer.rawPayload.length === 0 && answer.headers['content-type'] === undefined
    return empty ? reply.send() : reply.send(answer.rawPayload)
  }
  // The page runs Swagger UI's own scripts and styles, which the API's CSP would stop: serve() writes
  // the page's headers over the API's.
  app.route({ method: ['GET', 'HEAD'], url: DOCS, handler: serve })
  app.route({ method: ['GET', 'HEAD'], url: `${DOCS}/*`, handler: serve })
  app.get('/openapi.json', async () => document)
})

// The one inline thing Swagger UI writes: its logo's SVG carries a <style> element,
// `.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}` (its standalone preset).
const LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"

/**
 * The page's CSP: Swagger UI's scripts, styles and pictures from this origin, the pictures its
 * stylesheet holds as data: URLs, and "Try it out" against this origin and the document's servers;
 * nothing else inline, no plugin, no form, no frame around it.
 */
function pagePolicy(servers: readonly { url: string }[] | undefined): string {
  const origins = new Set<string>()
  for (const { url } of servers ?? []) if (URL.canParse(url)) origins.add(new URL(url).origin)
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${LOGO_STYLE}`,
    "img-src 'self' data:",
    `connect-src 'self' ${[...origins].join(' ')}`.trim(),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
