// JWT bearer tokens: minted here, verified against a key set served on 127.0.0.1 or a shared secret.
import { exportJWK, SignJWT, UnsecuredJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AUDIENCE,
  claims,
  ISSUER,
  KeySet,
  SHARED_SECRET,
  type SigningKey,
  sign,
  signingKey,
  signWithSecret,
} from '../../../scripts/lib/key-set.js'
import { ALICE, build, captureLogs } from '../../../test/helpers/build.js'

const now = () => Math.floor(Date.now() / 1000)
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const keySet = new KeySet()
let jwksUrl: string
let key: SigningKey
let other: SigningKey
beforeAll(async () => {
  jwksUrl = await keySet.start()
  key = await signingKey('key-1')
  other = await signingKey('key-1')
  await keySet.publish(key)
})
afterAll(() => keySet.close())
afterEach(() => {
  vi.useRealTimers()
  keySet.answer = 'keys'
})

const withKeySet = (env: Record<string, string> = {}) => build({ ...keySet.env(), ...env })

function expectRefused(
  res: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  why: string,
) {
  expect(res.statusCode).toBe(401)
  // RFC 6750: error_description is a quoted string without `"` or `\`.
  expect(why).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/)
  expect(res.json()).toEqual({ error: 401, message: `the bearer token is not valid: ${why}` })
  expect(res.headers['www-authenticate']).toBe(
    `Bearer realm="plant-store", error="invalid_token", error_description="${why}"`,
  )
}

describe('JWTs from a key set', () => {
  it('accepts a good token on every operation, as the principal its sub names', async () => {
    const app = await withKeySet()
    const token = bearer(await sign(key, claims({ sub: 'alice' })))
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: token,
      payload: { id: 7, name: 'Fern' },
    })
    expect(created.statusCode).toBe(200)
    // sub 'alice' is the principal alice of AUTH_TOKENS: the same plants.
    expect((await app.inject({ url: '/plants/7', headers: ALICE })).json()).toEqual({ id: 7, name: 'Fern' })
    expect((await app.inject({ url: '/plants', headers: token })).json()).toEqual([{ id: 7, name: 'Fern' }])
    const replaced = await app.inject({
      method: 'PUT',
      url: '/plants/7',
      headers: token,
      payload: { id: 7, name: 'Fern', tag: 'shade' },
    })
    expect(replaced.statusCode).toBe(200)
    expect((await app.inject({ method: 'DELETE', url: '/plants/7', headers: token })).statusCode).toBe(204)
    // The static tokens still work beside the key set.
    expect((await app.inject({ url: '/plants', headers: ALICE })).statusCode).toBe(200)
  })

  it.each<[string, () => Promise<string>, string]>([
    ['expired', () => sign(key, claims({ exp: now() - 60 })), 'the token has expired'],
    ['not yet valid', () => sign(key, claims({ nbf: now() + 600 })), 'the token is not valid yet'],
    [
      'whose nbf is not a time',
      () => sign(key, claims({ nbf: 'tomorrow' as unknown as number })),
      "the token's nbf claim is not a number",
    ],
    [
      'from another issuer',
      () => sign(key, claims({ iss: 'https://evil.example' })),
      "the token's iss claim is not the one expected",
    ],
    [
      'for another audience',
      () => sign(key, claims({ aud: 'billing' })),
      "the token's aud claim is not the one expected",
    ],
    ['without an issuer', () => sign(key, claims({ iss: undefined })), 'the token has no iss claim'],
    ['without an expiry', () => sign(key, claims({ exp: undefined })), 'the token has no exp claim'],
    ['without a subject', () => sign(key, claims({ sub: undefined })), 'the token has no sub claim'],
    ['with an empty subject', () => sign(key, claims({ sub: '' })), "the token's sub claim is not a name"],
    [
      'signed by another key with the same kid',
      () => sign(other, claims()),
      "the token's signature does not verify",
    ],
    [
      'signed by a key the set does not have',
      async () => sign(await signingKey('key-9'), claims()),
      "no key of the identity provider's key set matches the token",
    ],
    [
      'unsigned (alg: none)',
      async () => new UnsecuredJWT(claims()).encode(),
      "the token's signing algorithm is not accepted",
    ],
    [
      'signed with HS256 and the public key as the secret',
      async () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: key.kid })
          .sign(new TextEncoder().encode(JSON.stringify(await exportJWK(key.publicKey)))),
      "the token's signing algorithm is not accepted",
    ],
    [
      'with a tampered payload',
      async () => {
        const [header, , signature] = (await sign(key, claims({ sub: 'carol' }))).split('.')
        const payload = Buffer.from(JSON.stringify(claims({ sub: 'alice' }))).toString('base64url')
        return `${header}.${payload}.${signature}`
      },
      "the token's signature does not verify",
    ],
    ['cut short', async () => 'eyJhbGciOiJSUzI1NiJ9.e30.', "the token's signature does not verify"],
    ['not JSON inside', async () => 'bm90.anNvbg.c2ln', 'the token is malformed'],
  ])('refuses a token %s with 401 naming the error', async (_case, mint, why) => {
    const app = await withKeySet()
    const token = await mint()
    for (const [method, url] of [
      ['GET', '/plants'],
      ['DELETE', '/plants/1'],
    ] as const) {
      expectRefused(await app.inject({ method, url, headers: bearer(token) }), why)
    }
  })

  it('takes a key added to the set later: an unknown kid fetches the set again', async () => {
    const app = await withKeySet()
    expect((await app.inject({ url: '/plants', headers: bearer(await sign(key)) })).statusCode).toBe(200)
    const fetched = keySet.fetches
    // Known keys are served from the cache.
    expect((await app.inject({ url: '/plants', headers: bearer(await sign(key)) })).statusCode).toBe(200)
    expect(keySet.fetches).toBe(fetched)

    const rotated = await signingKey('key-2')
    await keySet.publish(key, rotated)
    // jose fetches again at most every 30 s: let that much time pass.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 31_000)
    expect((await app.inject({ url: '/plants', headers: bearer(await sign(rotated)) })).statusCode).toBe(200)
    expect(keySet.fetches).toBe(fetched + 1)
  })

  it('refuses a token once it expires, though it was accepted a moment before', async () => {
    const app = await withKeySet()
    const token = bearer(await sign(key, claims({ exp: now() + 2 })))
    expect((await app.inject({ url: '/plants', headers: token })).statusCode).toBe(200)
    expect((await app.inject({ url: '/plants', headers: token })).statusCode).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 3_000)
    expectRefused(await app.inject({ url: '/plants', headers: token }), 'the token has expired')
  })

  it.each(['error', 'garbage', 'down'] as const)(
    'answers 503 with Retry-After, never 500 or 401, while the key set is %s',
    async (state) => {
      const url = state === 'down' ? 'http://127.0.0.1:1/jwks.json' : jwksUrl
      const app = await withKeySet({ JWT_JWKS_URL: url, AUTH_FAILURE_LIMIT: '1' })
      if (state !== 'down') keySet.answer = state
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ url: '/plants', headers: bearer(await sign(key)) })
        expect(res.statusCode).toBe(503)
        expect(res.headers['retry-after']).toBe('5')
        expect(res.json()).toEqual({
          error: 503,
          message: 'the bearer token cannot be checked now: the identity provider is unreachable',
        })
      }
      // Not counted as failed authentication: the address is not throttled.
      expect((await app.inject({ url: '/plants', headers: { authorization: 'Bearer x' } })).statusCode).toBe(
        401,
      )
    },
  )

  it('keeps accepting tokens for cached keys while the key set is unreachable', async () => {
    const app = await withKeySet()
    expect((await app.inject({ url: '/plants', headers: bearer(await sign(key)) })).statusCode).toBe(200)
    keySet.answer = 'error'
    expect((await app.inject({ url: '/plants', headers: bearer(await sign(key)) })).statusCode).toBe(200)
  })

  it('counts refused tokens against the address, like unknown static tokens', async () => {
    const app = await withKeySet({ AUTH_FAILURE_LIMIT: '2' })
    const expired = bearer(await sign(key, claims({ exp: now() - 60 })))
    expect((await app.inject({ url: '/plants', headers: expired })).statusCode).toBe(401)
    expect((await app.inject({ url: '/plants', headers: expired })).statusCode).toBe(401)
    expect((await app.inject({ url: '/plants', headers: expired })).statusCode).toBe(429)
  })

  it('writes no token to a log at trace level', async () => {
    const { stream, logs } = captureLogs()
    const logged = await build(keySet.env(), { level: 'trace', stream })
    const valid = await sign(key)
    const expired = await sign(key, claims({ exp: now() - 60 }))
    await logged.inject({ url: '/plants', headers: bearer(valid) })
    await logged.inject({ url: '/plants', headers: bearer(expired) })
    await logged.close()
    expect(logs()).toContain('request completed')
    for (const token of [valid, expired]) {
      for (const part of token.split('.')) expect(logs()).not.toContain(part)
    }
  })
})

describe('JWTs with a shared secret', () => {
  const withSecret = () => build({ JWT_SECRET: SHARED_SECRET, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE })

  it.each(['HS256', 'HS384', 'HS512'])('accepts a token signed %s with the secret', async (alg) => {
    const app = await withSecret()
    const token = await signWithSecret(claims(), alg)
    expect((await app.inject({ url: '/plants', headers: bearer(token) })).statusCode).toBe(200)
  })

  it('refuses a token signed with another secret, or by a key pair', async () => {
    const app = await withSecret()
    const wrong = await signWithSecret(claims(), 'HS256', `${SHARED_SECRET}!`)
    expectRefused(
      await app.inject({ url: '/plants', headers: bearer(wrong) }),
      "the token's signature does not verify",
    )
    expectRefused(
      await app.inject({ url: '/plants', headers: bearer(await sign(key)) }),
      "the token's signing algorithm is not accepted",
    )
  })
})
