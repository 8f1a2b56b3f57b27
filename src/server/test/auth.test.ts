// Bearer authentication: missing, malformed and unknown tokens, the dev principal, and logs (the
// sandbox's any token: sandbox.test.ts).
import { describe, expect, it } from 'vitest'
import { ALICE, build, captureLogs } from '../../../test/helpers/build.js'

describe('bearer authentication', () => {
  it.each([
    [undefined, 'a bearer token is required', 'Bearer realm="plant-store"'],
    ['Basic YWxpY2U6dG9rZW4tYQ==', 'a bearer token is required', 'Bearer realm="plant-store"'],
    ['Bearer', 'a bearer token is required', 'Bearer realm="plant-store"'],
    ['Bearer token-x', 'the bearer token is not valid', 'Bearer realm="plant-store", error="invalid_token"'],
    [
      'Bearer token-a-longer',
      'the bearer token is not valid',
      'Bearer realm="plant-store", error="invalid_token"',
    ],
  ])('answers 401 to Authorization %s on every operation', async (authorization, message, challenge) => {
    const app = await build()
    const headers = authorization === undefined ? {} : { authorization }
    for (const [method, url] of [
      ['POST', '/plants'],
      ['GET', '/plants'],
      ['GET', '/plants/1'],
      ['PUT', '/plants/1'],
      ['DELETE', '/plants/1'],
    ] as const) {
      const res = await app.inject({ method, url, headers, payload: method === 'POST' ? '{' : undefined })
      expect(res.statusCode, `${method} ${url}`).toBe(401)
      expect(res.json()).toEqual({ error: 401, message })
      expect(res.headers['www-authenticate']).toBe(challenge)
    }
  })

  it('accepts the scheme name in any case', async () => {
    const app = await build()
    const res = await app.inject({ url: '/plants', headers: { authorization: 'bearer token-a' } })
    expect(res.statusCode).toBe(200)
  })

  it('uses the development principal with dev-token when AUTH_TOKENS is not set', async () => {
    const app = await build({ AUTH_TOKENS: '' })
    expect(
      (await app.inject({ url: '/plants', headers: { authorization: 'Bearer dev-token' } })).statusCode,
    ).toBe(200)
    expect((await app.inject({ url: '/plants', headers: ALICE })).statusCode).toBe(401)
  })

  it('never writes the Authorization header to the logs', async () => {
    const { stream, logs } = captureLogs()
    const app = await build({}, { level: 'trace', stream })
    await app.inject({ url: '/plants', headers: ALICE })
    await app.inject({ url: '/plants', headers: { authorization: 'Bearer token-secret-x' } })
    await app.close()
    expect(logs()).toContain('request completed')
    expect(logs()).not.toContain('token-a')
    expect(logs()).not.toContain('token-secret-x')
  })
})

describe('token lookup', () => {
  it('finds each configured principal by its token, and no principal for near misses', async () => {
    const app = await build({ AUTH_TOKENS: 'alice:token-a,bob:token-b,carol:tok' })
    app.get('/whoami', { config: { secured: true } }, async (request) => ({ principal: request.principal }))
    for (const [token, principal] of [
      ['token-a', 'alice'],
      ['token-b', 'bob'],
      ['tok', 'carol'],
    ]) {
      const res = await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${token}` } })
      expect(res.json()).toEqual({ principal })
    }
    for (const token of ['token-', 'token-c', 'TOKEN-A', 'to', 'toke']) {
      const res = await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${token}` } })
      expect(res.statusCode, token).toBe(401)
    }
  })
})

describe('answers that leak nothing', () => {
  it('gives every answer its own request id, and keeps authenticated answers out of caches', async () => {
    const app = await build()
    const one = await app.inject({ url: '/plants', headers: ALICE })
    const two = await app.inject({ url: '/plants' })
    const health = await app.inject({ url: '/healthz' })
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
    expect(one.headers['x-request-id']).toMatch(uuid)
    expect(two.headers['x-request-id']).toMatch(uuid)
    expect(one.headers['x-request-id']).not.toBe(two.headers['x-request-id'])
    expect(one.headers['cache-control']).toBe('no-store')
    expect(two.statusCode).toBe(401)
    expect(two.headers['cache-control']).toBe('no-store')
    expect(health.headers['cache-control']).toBeUndefined()
  })

  it('answers a failure with 500 and no internal text, and logs it under the request id', async () => {
    const { stream, logs } = captureLogs()
    const app = await build({}, { level: 'trace', stream })
    app.repository.get = async () => {
      throw new Error('disk on fire at /var/secret/plants.db')
    }
    const res = await app.inject({ url: '/plants/1', headers: ALICE })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: 500, message: 'internal server error' })
    expect(res.body).not.toContain('secret')
    await app.close()
    const failure = logs()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string; err?: { message: string } })
      .find((line) => line.msg === 'request failed')
    expect(failure?.reqId).toBe(res.headers['x-request-id'])
    expect(failure?.err?.message).toContain('disk on fire')
    expect(logs()).not.toContain('token-a')
  })
})
