// Rate limits: each principal may make RATE_LIMIT_MAX requests a window, and each client address
// AUTH_FAILURE_LIMIT requests with a missing or unknown token, so that guessing tokens is slow. Past
// either, 429 in the Error shape with Retry-After. Limits are per instance; the counting is
// lib/window-counter.ts (fixed windows from a key's first request, as @fastify/rate-limit counts).
//
// Every answer counted against a limit says so in the fields of the IETF httpapi draft "RateLimit
// header fields for HTTP" (RateLimit-Policy and RateLimit, structured fields): `"default"` is the
// principal's quota, `"failed-auth"` the address's.
import { HttpError } from '@plant-store/core'
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'
import { withHook } from '../../lib/route-hooks.js'
import { type Window, WindowCounter } from '../../lib/window-counter.js'

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

export default fp(
  async (app, { config }: { config: Config }) => {
    const { max, authFailures, windowSeconds } = config.rateLimit
    const principals = new WindowCounter(max, windowSeconds * 1000)
    const addresses = new WindowCounter(authFailures, windowSeconds * 1000)
    const policies: Record<Policy, string> = {
      default: `"default";q=${max};w=${windowSeconds}`,
      'failed-auth': `"failed-auth";q=${authFailures};w=${windowSeconds}`,
    }
    /** Writes the fields and returns the seconds until the quota is whole again. */
    const quotaHeaders = (
      reply: FastifyReply,
      policy: Policy,
      counter: WindowCounter,
      window: Window,
      now: number,
    ) => {
      const reset = counter.resetSeconds(window, now)
      reply.header('ratelimit-policy', policies[policy])
      reply.header('ratelimit', `"${policy}";r=${counter.remaining(window)};t=${reset}`)
      return reset
    }

    // After authentication (onRequest), before the body is read: a refused or invalid request counts
    // too. Routes without security (health, the document, /docs) have no principal to count against.
    const count: preParsingHookHandler = (request, reply, payload, done) => {
      const now = Date.now()
      const window = principals.hit(request.principal, now)
      const reset = quotaHeaders(reply, 'default', principals, window, now)
      done(window.count > max ? tooMany(reset, 'principal') : null, payload)
    }
    app.addHook('onRoute', (route) => {
      // Stryker disable next-line OptionalChaining: equivalent: Fastify gives every route a config object before its onRoute hooks run.
      if (route.config?.secured) route.preParsing = withHook(route.preParsing, count)
    })

    app.decorate('authFailureLimited', async (request: FastifyRequest, reply: FastifyReply) => {
      const now = Date.now()
      const window = addresses.hit(request.ip, now)
      const retryAfter = quotaHeaders(reply, 'failed-auth', addresses, window, now)
      return { limited: window.count > authFailures, retryAfter }
    })
  },
  { name: 'rate-limit' },
)

export { tooMany }
