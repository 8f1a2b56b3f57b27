// Sandbox mode: each new principal's store starts with the plants the document's examples assume, and a
// caller names where its own token's newPlant events go with the Sandbox-Webhook-Url header. At most
// SANDBOX_MAX_PRINCIPALS principals are kept (lib/sandbox-principals.ts).

import { givenPlants, HttpError } from '@plant-store/core'
import fp from 'fastify-plugin'
import { SANDBOX_WEBHOOK_SECRET } from '../../config.js'
import { SandboxPrincipals } from '../../lib/sandbox-principals.js'
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
      maxPrincipals,
    }: {
      destinations: Destinations | undefined
      secrets?: string[]
      seed?: string | undefined
      maxPrincipals: number
    },
  ) => {
    const seeds = givenPlants(app.spec.dereferenced)
    // A recording's principals start as it left them (--seed FILE.har); every other token, as before.
    const recorded = seed === undefined ? undefined : await recordedSeeds(seed, app.spec.operations, app.log)
    const principals = new SandboxPrincipals({
      repository: app.repository,
      seedsOf: (principal) => recorded?.get(principal) ?? seeds,
      destinations,
      max: maxPrincipals,
      log: app.log,
    })
    app.addHook('preHandler', async (request) => {
      const { principal } = request
      if (!principal) return
      await principals.use(principal)
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
        `its new plants are sent to the URL of its Sandbox-Webhook-Url header, signed with ${secret}; ` +
        `at most ${maxPrincipals} tokens are kept: past it, the one used least recently starts afresh`,
    )
  },
  { name: 'sandbox', dependencies: ['auth', 'repository'] },
)
