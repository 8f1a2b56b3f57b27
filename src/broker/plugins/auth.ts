// Bearer tokens from the configuration: a route says what it needs in its config (`access`), the write
// token does everything, the read token reads, and BROKER_OPEN_READS lets reads through without one.
import { timingSafeEqual } from 'node:crypto'
import { HttpError } from '@plant-store/core'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { BrokerConfig } from '../config.js'

export type Access = 'open' | 'read' | 'write'

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
  }
}

const same = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="plant-store-broker"' }

export default fp<{ config: BrokerConfig }>(
  async (app, { config }) => {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const url = request.routeOptions.url
      // Swagger UI's own routes, and a 404, say nothing of what the broker keeps.
      const access =
        url === undefined || url.startsWith('/docs')
          ? 'open'
          : (request.routeOptions.config.access ?? 'write')
      if (access === 'open' || (access === 'read' && config.openReads)) return
      const header = request.headers.authorization
      const token = /^Bearer (\S+)$/i.exec(header ?? '')?.[1]
      if (!token)
        throw new HttpError(
          401,
          access === 'write'
            ? 'a write needs the write token: Authorization: Bearer <token>'
            : 'a read needs the read or the write token: Authorization: Bearer <token>',
          CHALLENGE,
        )
      if (same(token, config.writeToken)) return
      if (access === 'read' && config.readToken && same(token, config.readToken)) return
      if (access === 'write' && config.readToken && same(token, config.readToken))
        throw new HttpError(403, 'the read token does not write: a write needs the write token')
      throw new HttpError(401, "the token is not one of this broker's", CHALLENGE)
    })
  },
  { name: 'auth' },
)
