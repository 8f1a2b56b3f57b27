// Bearer authentication for every operation whose security the document requires.
import { hash } from 'node:crypto'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'
import { bearerToken, tokenInvalid, tokenRequired } from '../../lib/bearer.js'
import { tooMany } from '../external/rate-limit.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the bearer token belongs to; '' on routes without security. */
    principal: string
  }
}

const digest = (token: string) => hash('sha256', token, 'base64')

export default fp(
  async (app, { config }: { config: Config }) => {
    // Keyed by the SHA-256 digest of each token, never by the token: a lookup compares digests, whose
    // bytes say nothing of the token a caller must guess, so its timing leaks nothing of a token.
    const known = new Map([...config.tokens].map(([token, principal]) => [digest(token), principal]))
    const principalOf = (token: string): string | undefined => {
      if (config.sandbox) return `sandbox:${hash('sha256', token, 'hex').slice(0, 32)}`
      return known.get(digest(token))
    }

    app.decorateRequest('principal', '')
    // A callback hook, not an async one: no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.routeOptions.config.secured) return done()
      // An answer for one principal is no one else's: no cache may keep it, a 401 included.
      reply.header('cache-control', 'no-store')
      const token = bearerToken(request.headers.authorization)
      const principal = token === undefined ? undefined : principalOf(token)
      if (principal !== undefined) {
        request.principal = principal
        return done()
      }
      // A failure counts against the client's address: past the limit, guessing gets 429, not 401.
      const refusal = token === undefined ? tokenRequired() : tokenInvalid()
      app
        .authFailureLimited(request)
        .then(({ limited, retryAfter }) => done(limited ? tooMany(retryAfter, 'address') : refusal), done)
    })
  },
  { name: 'auth', dependencies: ['rate-limit'] },
)
