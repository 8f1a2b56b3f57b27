// Sandbox mode: each new principal's store starts with the plants the document's examples assume.

import { givenPlants } from '@plant-store/core'
import fp from 'fastify-plugin'

export default fp(
  async (app) => {
    const seeds = givenPlants(app.spec.dereferenced)
    const seeded = new Map<string, Promise<unknown>>()
    app.addHook('preHandler', async (request) => {
      const { principal } = request
      if (!principal) return
      let seeding = seeded.get(principal)
      if (!seeding) {
        seeding = Promise.all(seeds.map((plant) => app.repository.create(principal, plant)))
        seeded.set(principal, seeding)
        // A seed that failed is tried again on the principal's next request, not remembered as done.
        seeding.catch(() => seeded.delete(principal))
      }
      await seeding
    })
    app.log.warn(`SANDBOX: any bearer token is accepted; each starts with ${seeds.length} example plants`)
  },
  { name: 'sandbox', dependencies: ['auth', 'repository'] },
)
