// JSON Web Tokens from an identity provider: a key set's URL or a shared secret, with the issuer and
// audience every token must name.
import type { Env } from './env-schema.js'
import { loopback } from './loopback.js'

export interface JwtConfig {
  /** The identity provider's JSON Web Key Set, fetched when first needed and again for an unknown `kid`. */
  jwksUrl?: URL
  /** A shared secret for HMAC-signed tokens (HS256, HS384, HS512), instead of a key set. */
  secret?: string
  /** The `iss` and `aud` every token must carry. */
  issuer: string
  audience: string
}

export function jwtConfig(parsed: Env): JwtConfig | undefined {
  const { JWT_JWKS_URL: jwks, JWT_SECRET: secret, JWT_ISSUER: issuer, JWT_AUDIENCE: audience } = parsed
  if (jwks === undefined && secret === undefined) {
    if (issuer !== undefined || audience !== undefined) {
      throw new Error(
        'invalid configuration: JWT_ISSUER and JWT_AUDIENCE need JWT_JWKS_URL or JWT_SECRET, the key that signs the tokens',
      )
    }
    return undefined
  }
  if (jwks !== undefined && secret !== undefined) {
    throw new Error('invalid configuration: set JWT_JWKS_URL or JWT_SECRET, not both')
  }
  // Without both, a token from any issuer, or one meant for another service, would be taken.
  if (issuer === undefined || audience === undefined) {
    throw new Error(
      `invalid configuration: JWT_ISSUER and JWT_AUDIENCE must be set with ${jwks ? 'JWT_JWKS_URL' : 'JWT_SECRET'}: ` +
        'the issuer and audience every token must name',
    )
  }
  if (jwks === undefined) return { secret, issuer, audience }
  const url = URL.canParse(jwks) ? new URL(jwks) : undefined
  // Keys fetched in the clear could be swapped on the way; plain http only on this machine.
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback.has(url.hostname)))) {
    throw new Error(
      `invalid configuration: JWT_JWKS_URL must be an https:// URL (http:// only on localhost), not ${JSON.stringify(jwks)}`,
    )
  }
  return { jwksUrl: url, issuer, audience }
}
