// Rate limits: a principal past RATE_LIMIT_MAX in a window gets 429 with Retry-After in the Error
// shape, others are unaffected; an address past AUTH_FAILURE_LIMIT failed authentications gets 429
// instead of 401; routes without security are not counted. Every counted answer carries the draft's
// RateLimit-Policy and RateLimit fields, as the document declares them.
import { describe, expect, it } from 'vitest'
import { loadSpec } from '../../../scripts/lib/spec.js'
import { ALICE, BOB, build } from '../../../test/helpers/build.js'

/** The pattern the document gives a header of components.headers. */
async function documentedPattern(name: string): Promise<RegExp> {
  const header = (await loadSpec()).dereferenced.components?.headers?.[name] as
    | { schema: { pattern: string } }
    | undefined
  if (!header) throw new Error(`the document declares no ${name} header`)
  return new RegExp(header.schema.pattern)
}

/** The RateLimit field's remaining requests and seconds to reset, for `policy`. */
function rateLimitOf(value: string | string[] | number | undefined, policy: string) {
  const match = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(String(value))
  if (!match || match[1] !== policy) throw new Error(`not a RateLimit field of "${policy}": ${value}`)
  return { remaining: Number(match[2]), reset: Number(match[3]) }
}

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

  it('says on every counted answer, 2xx and errors alike, how much of the quota is left', async () => {
    const policyPattern = await documentedPattern('RateLimit-Policy')
    const fieldPattern = await documentedPattern('RateLimit')
    const app = await build({ RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW: '60' })
    const answers = [
      await app.inject({ url: '/plants', headers: ALICE }),
      await app.inject({ url: '/plants/abc', headers: ALICE }),
      await app.inject({ url: '/plants/404', headers: ALICE }),
      // Refused before its body is read, and counted all the same.
      await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'text/plain' },
        payload: 'Basil',
      }),
      await app.inject({ url: '/plants', headers: ALICE }),
    ]
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 400, 404, 415, 429])
    for (const answer of answers) {
      expect(answer.headers['ratelimit-policy']).toBe('"default";q=4;w=60')
      expect(String(answer.headers['ratelimit-policy'])).toMatch(policyPattern)
      expect(String(answer.headers.ratelimit)).toMatch(fieldPattern)
    }
    const fields = answers.map((answer) => rateLimitOf(answer.headers.ratelimit, 'default'))
    expect(fields.map((field) => field.remaining)).toEqual([3, 2, 1, 0, 0])
    for (const field of fields) {
      expect(field.reset).toBeGreaterThan(0)
      expect(field.reset).toBeLessThanOrEqual(60)
    }
    // On the 429, the reset is the wait Retry-After gives.
    expect(fields[4]?.reset).toBe(Number(answers[4]?.headers['retry-after']))
    // Another principal has a quota of its own; routes without security are not counted and say nothing.
    expect(
      rateLimitOf((await app.inject({ url: '/plants', headers: BOB })).headers.ratelimit, 'default'),
    ).toMatchObject({ remaining: 3 })
    const health = await app.inject({ url: '/healthz' })
    expect(health.headers['ratelimit-policy']).toBeUndefined()
    expect(health.headers.ratelimit).toBeUndefined()
  })

  it('says on a 401 and on the 429 after it how much of the failed-auth quota of the address is left', async () => {
    const app = await build({ AUTH_FAILURE_LIMIT: '2', RATE_LIMIT_WINDOW: '30' })
    const answers = [
      await app.inject({ url: '/plants', headers: { authorization: 'Bearer guess' } }),
      await app.inject({ url: '/plants/1' }),
      await app.inject({ url: '/plants', headers: { authorization: 'Bearer guess' } }),
    ]
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 429])
    for (const answer of answers) expect(answer.headers['ratelimit-policy']).toBe('"failed-auth";q=2;w=30')
    const fields = answers.map((answer) => rateLimitOf(answer.headers.ratelimit, 'failed-auth'))
    expect(fields.map((field) => field.remaining)).toEqual([1, 0, 0])
    expect(fields[2]?.reset).toBe(Number(answers[2]?.headers['retry-after']))
  })

  it('refuses limits that are not positive whole numbers, naming the setting', async () => {
    await expect(build({ RATE_LIMIT_MAX: '0' })).rejects.toThrow(/RATE_LIMIT_MAX/)
    await expect(build({ AUTH_FAILURE_LIMIT: 'many' })).rejects.toThrow(/AUTH_FAILURE_LIMIT/)
  })
})
