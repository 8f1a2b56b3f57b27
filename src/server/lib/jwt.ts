// JSON Web Tokens from an identity provider (jose): a key set fetched from its URL, or a shared secret.

import { HttpError, tokenInvalid } from '@plant-store/core'
import { createRemoteJWKSet, type JWTVerifyOptions, jwtVerify } from 'jose'
import type { JwtConfig } from '../config.js'

/** Compact JWS: three base64url parts. Anything else is not a JWT and is not worth a verification. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)

// Signatures a key set's keys make; HMAC and `none` are never taken from a key set.
const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]
const HMAC = ['HS256', 'HS384', 'HS512']

/**
 * Why a token was refused, in words a caller can act on. It is the challenge's `error_description`,
 * whose quoted string RFC 6750 forbids `"` and `\` in: claim names are written bare.
 */
function why(error: { code?: string; claim?: string; reason?: string }): string {
  switch (error.code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired'
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (error.reason === 'missing') return `the token has no ${error.claim} claim`
      // jose's one `invalid`: a time claim (exp, nbf, iat) that is not a number of seconds.
      if (error.reason === 'invalid') return `the token's ${error.claim} claim is not a number`
      if (error.claim === 'nbf') return 'the token is not valid yet'
      return `the token's ${error.claim} claim is not the one expected`
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return "the token's signature does not verify"
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return "the token's signing algorithm is not accepted"
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return "no key of the identity provider's key set matches the token"
    default:
      return 'the token is malformed'
  }
}

// The key set could not be had (down, slow, not a key set): the token may be good, so not a 401.
const KEY_SET_UNAVAILABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC'])

// Verifying a signature costs about as much as the rest of a request: a token seen lately is taken
// from memory. An entry lasts at most a minute (and never past the token's expiry), about as long as a
// key the provider withdrew is trusted anyway, since the key set itself is kept for ten minutes.
const REMEMBER_MS = 60_000
const REMEMBERED = 10_000

export interface JwtVerifier {
  /** The principal of a token verified less than a minute ago, by the token's digest. */
  remembered(digest: string): string | undefined
  /**
   * Resolves to the token's principal (`sub`), or rejects with the answer to give: a 401 naming what is
   * wrong, or a 503 while the identity provider's key set cannot be fetched.
   */
  verify(token: string, digest: string): Promise<string>
}

export function createJwtVerifier(config: JwtConfig, retryAfterSeconds: number): JwtVerifier {
  const options: JWTVerifyOptions = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: config.jwksUrl ? ASYMMETRIC : HMAC,
    // A token without an expiry would be good for ever once leaked.
    requiredClaims: ['sub', 'exp'],
  }
  // jose keeps the fetched set (ten minutes), and fetches again at once for a `kid` it does not know,
  // at most every 30 s: a provider's rotated key is taken without a restart.
  const keySet = config.jwksUrl && createRemoteJWKSet(config.jwksUrl)
  const secret = new TextEncoder().encode(config.secret)
  const check = (token: string) =>
    keySet ? jwtVerify(token, keySet, options) : jwtVerify(token, secret, options)
  const memory = new Map<string, { principal: string; until: number }>()
  return {
    remembered(digest) {
      const entry = memory.get(digest)
      if (!entry) return undefined
      if (Date.now() < entry.until) return entry.principal
      memory.delete(digest)
      return undefined
    },
    async verify(token, digest) {
      let payload: { sub?: unknown; exp?: number }
      try {
        ;({ payload } = await check(token))
      } catch (caught) {
        const error = caught as Error & { code?: string }
        if (error.code === undefined || KEY_SET_UNAVAILABLE.has(error.code)) {
          throw new HttpError(
            503,
            'the bearer token cannot be checked now: the identity provider is unreachable',
            { 'retry-after': String(retryAfterSeconds) },
          )
        }
        throw tokenInvalid(why(error))
      }
      const { sub, exp = 0 } = payload
      if (typeof sub !== 'string' || sub === '') throw tokenInvalid("the token's sub claim is not a name")
      // The oldest entry goes first when memory is full: Maps keep insertion order.
      if (memory.size >= REMEMBERED) memory.delete(memory.keys().next().value as string)
      memory.set(digest, { principal: sub, until: Math.min(exp * 1000, Date.now() + REMEMBER_MS) })
      return sub
    },
  }
}
