// Rate limits (@fastify/rate-limit): each principal may make RATE_LIMIT_MAX requests a window, and each
// client address AUTH_FAILURE_LIMIT requests with a missing or unknown token, so that guessing tokens
// is slow. Past either, 429 in the Error shape with Retry-After. Limits are per instance.
//
// Every answer counted against a limit says so in the fields of the IETF httpapi draft "RateLimit
// header fields for HTTP" (RateLimit-Policy and RateLimit, structured fields): `"default"` is the
// principal's quota, `"failed-auth"` the address's. @fastify/rate-limit counts; its headers are off,
// because even its `enableDraftSpec` writes the draft's older RateLimit-Limit/-Remaining/-Reset
// triple, which the current draft replaced. So the two fields are written here from what it counted.
import rateLimit from '@fastify/rate-limit'
import { HttpError } from '@plant-store/core'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one failed authentication from the request's address; true once over the limit. */
    authFailureLimited(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ limited: boolean; retryAfter: number }>
  }
}

type Policy = 'default' | 'failed-auth'

// The message names no figure: the limits are configuration, and the wait is in Retry-After.
const tooMany = (retryAfter: number, who: 'principal' | 'address') =>
  new HttpError(
    429,
    who === 'principal'
      ? 'too many requests from this principal; try again after Retry-After seconds'
      : 'too many failed authentications from this address; try again after Retry-After seconds',
    { 'retry-after': String(retryAfter) },
  )

interface Counted {
  max: number
  remaining: number
  ttlInSeconds: number
}

/** The seconds until a window's quota is whole again; at least 1, so a client never retries at once. */
const resetIn = (counted: Counted) => Math.max(1, counted.ttlInSeconds)

export default fp(
  async (app, { config }: { config: Config }) => {
    const { max, authFailures, windowSeconds } = config.rateLimit
    // Counting only: no hook of its own (global: false) and none of its headers.
    await app.register(rateLimit, { global: false })
    const policies: Record<Policy, string> = {
      default: `"default";q=${max};w=${windowSeconds}`,
      'failed-auth': `"failed-auth";q=${authFailures};w=${windowSeconds}`,
    }
    const quotaHeaders = (reply: FastifyReply, policy: Policy, counted: Counted) => {
      reply.header('ratelimit-policy', policies[policy])
      reply.header('ratelimit', `"${policy}";r=${counted.remaining};t=${resetIn(counted)}`)
    }

    const principalLimit = app.createRateLimit({
      max,
      timeWindow: windowSeconds * 1000,
      // A prefix of its own, so that no principal's name is ever an address's key.
      keyGenerator: (request) => `principal:${request.principal}`,
    })
    // After authentication (onRequest), before the body is read: a refused or invalid request counts
    // too. Routes without security (health, the document, /docs) have no principal to count against.
    app.addHook('preParsing', (request, reply, payload, done) => {
      if (!request.routeOptions.config.secured) return done(null, payload)
      principalLimit(request).then((counted) => {
        if (counted.isAllowed) return done(null, payload)
        quotaHeaders(reply, 'default', counted)
        done(counted.isExceeded ? tooMany(resetIn(counted), 'principal') : null, payload)
      }, done)
    })

    const failures = app.createRateLimit({
      max: authFailures,
      timeWindow: windowSeconds * 1000,
      keyGenerator: (request) => `auth-failure:${request.ip}`,
    })
    app.decorate('authFailureLimited', async (request: FastifyRequest, reply: FastifyReply) => {
      const counted = await failures(request)
      if (counted.isAllowed) return { limited: false, retryAfter: 0 }
      quotaHeaders(reply, 'failed-auth', counted)
      return { limited: counted.isExceeded, retryAfter: resetIn(counted) }
    })
  },
  { name: 'rate-limit' },
)

export { tooMany }
