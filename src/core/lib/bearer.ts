// The bearer scheme's rules (RFC 6750), shared by the server and the in-process handlers.
import { HttpError } from './errors.js'

const bearer = /^Bearer +(\S+) *$/i
export const challenge = 'Bearer realm="plant-store"'

/** The token of an Authorization header, or undefined when it holds no bearer token. */
export const bearerToken = (authorization: string | null | undefined): string | undefined =>
  // Stryker disable next-line StringLiteral: equivalent: no header is matched against a text the pattern does not match either.
  bearer.exec(authorization ?? '')?.[1]

export const tokenRequired = () =>
  new HttpError(401, 'a bearer token is required', { 'www-authenticate': challenge })

/** A 401 for a token that is not valid; `why`, when known, is said in the body and the challenge. */
export const tokenInvalid = (why?: string) => {
  const message = why
    ? // Stryker disable next-line StringLiteral: unreachable: only a JSON Web Token's check gives a reason, and the runner's store takes none (no identity provider); src/server/test/jwt.test.ts covers it.
      `the bearer token is not valid: ${why}`
    : 'the bearer token is not valid'
  const description = why
    ? // Stryker disable next-line StringLiteral: unreachable: only a JSON Web Token's check gives a reason, and the runner's store takes none (no identity provider); src/server/test/jwt.test.ts covers it.
      `, error_description="${why}"`
    : ''
  return new HttpError(401, message, {
    'www-authenticate': `${challenge}, error="invalid_token"${description}`,
  })
}
