// The plants the document's examples assume their caller already owns (x-given-plants): the handlers'
// and the sandbox's seeds, and the verifier's examples.
import type { components } from '../generated/openapi.js'

/** A plant an example assumes the caller already owns. */
export type GivenPlant = components['schemas']['StoredPlant']

/** Every plant that some example of the document lists under x-given-plants, once per id. */
export function givenPlants(node: unknown, found = new Map<string, GivenPlant>()): GivenPlant[] {
  if (Array.isArray(node)) for (const item of node) givenPlants(item, found)
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(value)) {
        for (const plant of value as GivenPlant[])
          if (!found.has(String(plant.id))) found.set(String(plant.id), plant)
      } else givenPlants(value, found)
    }
  }
  return [...found.values()]
}
