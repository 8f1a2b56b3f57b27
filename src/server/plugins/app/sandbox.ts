// Sandbox mode: each new principal's store starts with the plants the document's examples assume, and a
// caller names where its own token's newPlant events go with the Sandbox-Webhook-Url header.

import { givenPlants, HttpError } from '@plant-store/core'
import fp from 'fastify-plugin'
import { SANDBOX_WEBHOOK_SECRET } from '../../config.js'
import { recordedSeeds } from '../../lib/sandbox-seed.js'
import type { Destinations } from '../../webhooks/destinations.js'

/** The request header that names, for the request's own token, where its newPlant events go. */
export const SANDBOX_WEBHOOK_HEADER = 'sandbox-webhook-url'

export default fp(
  async (
    app,
    {
      destinations,
      secrets = [],
      seed,
    }: { destinations: Destinations | undefined; secrets?: string[]; seed?: string | undefined },
  ) => {
    const seeds = givenPlants(app.spec.dereferenced)
    // A recording's principals start as it left them (--seed FILE.har); every other token, as before.
    const recorded = seed === undefined ? undefined : await recordedSeeds(seed, app.spec.operations, app.log)
    const seeded = new Map<string, Promise<unknown>>()
    app.addHook('preHandler', async (request) => {
      const { principal } = request
      if (!principal) return
      let seeding = seeded.get(principal)
      if (!seeding) {
        const plants = recorded?.get(principal) ?? seeds
        const seed = () => Promise.all(plants.map((plant) => app.repository.create(principal, plant)))
        // The seeds are the sandbox's own plants: no event announces them.
        seeding = destinations ? destinations.quietly(principal, seed) : seed()
        seeded.set(principal, seeding)
        // A seed that failed is tried again on the principal's next request, not remembered as done.
        seeding.catch(() => seeded.delete(principal))
      }
      await seeding
      const named = request.headers[SANDBOX_WEBHOOK_HEADER]
      if (named === undefined || !destinations) return
      const text = Array.isArray(named) ? named.join(',') : named
      const url = URL.canParse(text) ? new URL(text) : undefined
      // Refused rather than ignored: a caller waiting for events that never come would not know why.
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        throw new HttpError(400, `Sandbox-Webhook-Url must be one http:// or https:// URL, not ${text}`)
      destinations.name(principal, url)
    })
    // The published secret is said in full; one given in WEBHOOK_SECRET never is.
    const secret = secrets.includes(SANDBOX_WEBHOOK_SECRET)
      ? `the sandbox secret ${SANDBOX_WEBHOOK_SECRET}`
      : 'WEBHOOK_SECRET'
    app.log.warn(
      `SANDBOX: any bearer token is accepted; each starts with ${seeds.length} example plants; ` +
        `its new plants are sent to the URL of its Sandbox-Webhook-Url header, signed with ${secret}`,
    )
  },
  { name: 'sandbox', dependencies: ['auth', 'repository'] },
)
