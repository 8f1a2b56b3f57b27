// Sandbox mode: each new principal's store starts with the plants the document's examples assume.
import fp from 'fastify-plugin'
import type { StoredPlant } from '../../repository/plant-repository.js'

export default fp(
  async (app) => {
    const seeds = givenPlants(app.spec.dereferenced)
    const seeded = new Map<string, Promise<unknown>>()
    app.addHook('preHandler', async (request) => {
      if (!request.principal) return
      let seeding = seeded.get(request.principal)
      if (!seeding) {
        seeding = Promise.all(seeds.map((plant) => app.repository.create(request.principal, plant)))
        seeded.set(request.principal, seeding)
      }
      await seeding
    })
    app.log.warn(`SANDBOX: any bearer token is accepted; each starts with ${seeds.length} example plants`)
  },
  { name: 'sandbox', dependencies: ['auth'] },
)

/** Every plant that some example of the document lists under x-given-plants, once per id. */
export function givenPlants(node: unknown, found = new Map<string, StoredPlant>()): StoredPlant[] {
  if (Array.isArray(node)) for (const item of node) givenPlants(item, found)
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(value)) {
        for (const plant of value as StoredPlant[])
          if (!found.has(String(plant.id))) found.set(String(plant.id), plant)
      } else givenPlants(value, found)
    }
  }
  return [...found.values()]
}
