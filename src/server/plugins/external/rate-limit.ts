// Rate limits (@fastify/rate-limit): each principal may make RATE_LIMIT_MAX requests a window, and each
// client address AUTH_FAILURE_LIMIT requests with a missing or unknown token, so that guessing tokens
// is slow. Past either, 429 in the Error shape with Retry-After. Limits are per instance.
import rateLimit from '@fastify/rate-limit'
import { HttpError } from '@plant-store/core'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one failed authentication from the request's address; true once over the limit. */
    authFailureLimited(request: FastifyRequest): Promise<{ limited: boolean; retryAfter: number }>
  }
}

// The message names no figure: the limits are configuration, and the wait is in Retry-After.
const tooMany = (retryAfter: number, who: 'principal' | 'address') =>
  new HttpError(
    429,
    who === 'principal'
      ? 'too many requests from this principal; try again after Retry-After seconds'
      : 'too many failed authentications from this address; try again after Retry-After seconds',
    { 'retry-after': String(retryAfter) },
  )

export default fp(
  async (app, { config }: { config: Config }) => {
    const { max, authFailures, windowSeconds } = config.rateLimit
    await app.register(rateLimit, {
      max,
      timeWindow: windowSeconds * 1000,
      // After authentication (onRequest), before validation: an invalid request counts too.
      hook: 'preValidation',
      keyGenerator: (request) => request.principal,
      // Routes without security (health, the document, /docs) have no principal to count against.
      allowList: (request) => !request.routeOptions.config.secured,
      // No rate headers on every answer: they cost time, and the document promises only Retry-After.
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      addHeaders: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
        'retry-after': true,
      },
      errorResponseBuilder: (_request, context) =>
        tooMany(Math.max(1, Math.ceil(context.ttl / 1000)), 'principal'),
    })
    const failures = app.createRateLimit({
      max: authFailures,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `auth-failure:${request.ip}`,
    })
    app.decorate('authFailureLimited', async (request: FastifyRequest) => {
      const result = await failures(request)
      if (result.isAllowed) return { limited: false, retryAfter: 0 }
      return { limited: result.isExceeded, retryAfter: Math.max(1, result.ttlInSeconds) }
    })
  },
  { name: 'rate-limit' },
)

export { tooMany }
