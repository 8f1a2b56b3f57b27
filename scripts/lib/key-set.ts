// An identity provider for tests and the benchmark: a JSON Web Key Set served on 127.0.0.1, tokens
// signed with its keys, and tokens signed with a shared secret.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  exportJWK,
  type GenerateKeyPairResult,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose'

export type SigningKey = GenerateKeyPairResult & { kid: string }

export const ISSUER = 'https://id.example'
export const AUDIENCE = 'plant-store'

export const signingKey = async (kid: string): Promise<SigningKey> => ({
  ...(await generateKeyPair('RS256')),
  kid,
})

/** Claims the server accepts: its issuer and audience, an hour of validity; `claims` may override any. */
export const claims = (more: JWTPayload = {}): JWTPayload => ({
  sub: 'carol',
  iss: ISSUER,
  aud: AUDIENCE,
  exp: Math.floor(Date.now() / 1000) + 3600,
  ...more,
})

export const sign = (key: SigningKey, payload: JWTPayload = claims()): Promise<string> =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(key.privateKey)

/** Without a key set: the secret a server is given as JWT_SECRET, and tokens signed with it. */
export const SHARED_SECRET = 'a shared secret of more than 32 characters'

export const signWithSecret = (
  payload: JWTPayload = claims(),
  alg = 'HS256',
  secret = SHARED_SECRET,
): Promise<string> => new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret))

/** The key set's server: what it publishes can change, it can fail, and it counts the fetches. */
export class KeySet {
  keys: JWK[] = []
  answer: 'keys' | 'error' | 'garbage' = 'keys'
  fetches = 0
  url = ''
  private readonly server: Server = createServer((_request, response) => {
    this.fetches++
    if (this.answer === 'error') {
      response.writeHead(500).end()
      return
    }
    response.setHeader('content-type', 'application/json')
    response.end(this.answer === 'garbage' ? '<html>' : JSON.stringify({ keys: this.keys }))
  })

  async publish(...keys: SigningKey[]): Promise<void> {
    this.keys = await Promise.all(
      keys.map(async (key) => ({ ...(await exportJWK(key.publicKey)), kid: key.kid, alg: 'RS256' })),
    )
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1')
    await once(this.server, 'listening')
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`
    return this.url
  }

  /** The server's environment for tokens from this key set. */
  env(): Record<string, string> {
    return { JWT_JWKS_URL: this.url, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE }
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
