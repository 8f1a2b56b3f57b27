// Bearer authentication for every operation whose security the document requires.
import { createHash, timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'
import { HttpError } from '../../lib/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the bearer token belongs to; '' on routes without security. */
    principal: string
  }
}

const bearer = /^Bearer +(\S+) *$/i
const challenge = 'Bearer realm="plant-store"'
const digest = (token: string) => createHash('sha256').update(token).digest()

export default fp(
  async (app, { config }: { config: Config }) => {
    const known = [...config.tokens].map(([token, principal]) => ({ digest: digest(token), principal }))
    // Compares against every known token without stopping early, so timing tells nothing of a token.
    const principalOf = (token: string): string | undefined => {
      const presented = digest(token)
      if (config.sandbox) return `sandbox:${presented.toString('hex', 0, 16)}`
      let found: string | undefined
      for (const entry of known) if (timingSafeEqual(entry.digest, presented)) found = entry.principal
      return found
    }

    app.decorateRequest('principal', '')
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.config.secured) return
      const token = bearer.exec(request.headers.authorization ?? '')?.[1]
      if (token === undefined) {
        throw new HttpError(401, 'a bearer token is required', { 'www-authenticate': challenge })
      }
      const principal = principalOf(token)
      if (principal === undefined) {
        throw new HttpError(401, 'the bearer token is not valid', {
          'www-authenticate': `${challenge}, error="invalid_token"`,
        })
      }
      request.principal = principal
    })
  },
  { name: 'auth' },
)
