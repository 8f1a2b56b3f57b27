// buildApp's `parts`: an embedder's own store, authentication and body reader are the ones used, and a
// part left out is gone; every part not named stays the real one.
import { HttpError } from '@plant-store/core'
import fp from 'fastify-plugin'
import { describe, expect, it, onTestFinished } from 'vitest'
import { generousLimits } from '../../../scripts/lib/commands.js'
import { type AppParts, buildApp } from '../app.js'
import { loadConfig } from '../config.js'
import { openRepository, type StoreOptions } from '../repository/index.js'

const ALICE = { authorization: 'Bearer token-a' }

async function built(parts?: AppParts) {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    AUTH_TOKENS: 'alice:token-a',
    ...generousLimits,
  })
  const app = await buildApp({ config, logger: false, parts })
  onTestFinished(() => app.close())
  return app
}

describe("buildApp's parts", () => {
  it('opens the store through openRepository, given the configured store settings', async () => {
    const given: StoreOptions[] = []
    const app = await built({
      openRepository: async (options) => {
        given.push(options)
        return openRepository(options)
      },
    })
    expect(given.map((options) => options.databaseUrl)).toEqual(['sqlite::memory:'])
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: ALICE,
      payload: { id: 1, name: 'Basil' },
    })
    expect(created.statusCode).toBe(200)
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({ id: 1, name: 'Basil' })
  })

  it('takes the principal from the auth plugin given in place of bearer tokens', async () => {
    const everyoneIsAlice = fp(
      async (app) => {
        app.decorateRequest('principal', 'alice')
      },
      { name: 'auth' },
    )
    const app = await built({ auth: everyoneIsAlice })
    const created = await app.inject({ method: 'POST', url: '/plants', payload: { id: 2, name: 'Mint' } })
    expect(created.statusCode).toBe(200)
    // The real authentication is gone: alice's token is not needed, and the plant is alice's.
    expect((await app.inject({ url: '/plants/2' })).json()).toEqual({ id: 2, name: 'Mint' })
  })

  it('reads JSON bodies with the parseJson given, and answers its refusal in the Error shape', async () => {
    const app = await built({
      parseJson: (text) => {
        if (text.includes('Nettle')) throw new HttpError(400, 'no nettles')
        return JSON.parse(text)
      },
    })
    const refused = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload: '{"id": 3, "name": "Nettle"}',
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error: 400, message: 'no nettles' })
  })

  it('leaves the security headers and the overload guard out when told, and keeps them otherwise', async () => {
    const whole = await built()
    const lean = await built({ securityHeaders: false, overloadGuard: false })
    const full = await whole.inject({ url: '/plants', headers: ALICE })
    const bare = await lean.inject({ url: '/plants', headers: ALICE })
    expect(full.headers['x-content-type-options']).toBe('nosniff')
    expect(bare.statusCode).toBe(200)
    expect(bare.headers['x-content-type-options']).toBeUndefined()
    // under-pressure decorates the app with its readings.
    expect(whole.hasDecorator('memoryUsage')).toBe(true)
    expect(lean.hasDecorator('memoryUsage')).toBe(false)
  })
})
