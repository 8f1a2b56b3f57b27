// Rate limits: a principal past RATE_LIMIT_MAX in a window gets 429 with Retry-After in the Error
// shape, others are unaffected; an address past AUTH_FAILURE_LIMIT failed authentications gets 429
// instead of 401; routes without security are not counted.
import { describe, expect, it } from 'vitest'
import { ALICE, BOB, build } from './helpers/build.js'

describe('rate limits', () => {
  it('answers 429 with Retry-After once a principal spends its requests, and only that principal', async () => {
    const app = await build({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60' })
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ url: '/plants', headers: ALICE })).statusCode).toBe(200)
    const limited = await app.inject({ url: '/plants/1', headers: ALICE })
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(limited.json()).toEqual({
      error: 429,
      message: 'too many requests from this principal; try again after Retry-After seconds',
    })
    // An invalid request counts and is refused as well: the limit comes before validation.
    expect((await app.inject({ url: '/plants/abc', headers: ALICE })).statusCode).toBe(429)
    expect((await app.inject({ url: '/plants', headers: BOB })).statusCode).toBe(200)
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200)
  })

  it('throttles failed authentication from one address, without touching valid tokens', async () => {
    const app = await build({ AUTH_FAILURE_LIMIT: '2' })
    const wrong = { authorization: 'Bearer guess' }
    expect((await app.inject({ url: '/plants', headers: wrong })).statusCode).toBe(401)
    expect((await app.inject({ url: '/plants' })).statusCode).toBe(401)
    const limited = await app.inject({ url: '/plants', headers: wrong })
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toMatch(/^\d+$/)
    expect(limited.json().message).toMatch(/too many failed authentications from this address/)
    expect((await app.inject({ url: '/plants', headers: ALICE })).statusCode).toBe(200)
    // Another address has its own count.
    expect((await app.inject({ url: '/plants', headers: wrong, remoteAddress: '10.0.0.2' })).statusCode).toBe(
      401,
    )
  })

  it('refuses limits that are not positive whole numbers, naming the setting', async () => {
    await expect(build({ RATE_LIMIT_MAX: '0' })).rejects.toThrow(/RATE_LIMIT_MAX/)
    await expect(build({ AUTH_FAILURE_LIMIT: 'many' })).rejects.toThrow(/AUTH_FAILURE_LIMIT/)
  })
})
