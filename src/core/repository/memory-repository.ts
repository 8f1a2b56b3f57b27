// Plants in memory, in plain JavaScript: the store of the in-process handlers, in Node and in a
// browser alike, with no native module. It answers exactly as the SQLite repository does.
import { pickPlant } from '../lib/plant-fields.js'
import type { ListQuery, PlantRepository, StoredPlant } from './plant-repository.js'

export function openMemoryRepository(): PlantRepository {
  // Per owner, the plants by id; the ids kept sorted beside them for keyset paging.
  const owners = new Map<string, { plants: Map<bigint, StoredPlant>; ids: bigint[] }>()
  const of = (owner: string) => {
    let store = owners.get(owner)
    if (!store) {
      store = { plants: new Map(), ids: [] }
      owners.set(owner, store)
    }
    return store
  }
  // The position of the first id greater than `after` (binary search).
  const firstAfter = (ids: bigint[], after: bigint) => {
    let low = 0
    let high = ids.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((ids[middle] as bigint) <= after) low = middle + 1
      else high = middle
    }
    return low
  }
  // A copy of the document's fields alone, so that no caller shares a stored plant's object.
  const copy = (plant: StoredPlant): StoredPlant => pickPlant(plant)

  return {
    async create(owner, plant) {
      const { plants, ids } = of(owner)
      const id = BigInt(plant.id)
      if (plants.has(id)) return false
      plants.set(id, copy(plant))
      ids.splice(firstAfter(ids, id), 0, id)
      return true
    },
    async get(owner, id) {
      const plant = owners.get(owner)?.plants.get(id)
      return plant && copy(plant)
    },
    async list(owner, { limit, after, tag }: ListQuery) {
      const store = owners.get(owner)
      if (!store) return []
      const page: StoredPlant[] = []
      for (let i = after === undefined ? 0 : firstAfter(store.ids, after); i < store.ids.length; i++) {
        if (page.length >= limit) break
        const plant = store.plants.get(store.ids[i] as bigint) as StoredPlant
        if (tag === undefined || plant.tag === tag) page.push(copy(plant))
      }
      return page
    },
    async replace(owner, plant) {
      const plants = owners.get(owner)?.plants
      const id = BigInt(plant.id)
      if (!plants?.has(id)) return false
      plants.set(id, copy(plant))
      return true
    },
    async delete(owner, id) {
      const store = owners.get(owner)
      if (!store?.plants.delete(id)) return false
      store.ids.splice(firstAfter(store.ids, id) - 1, 1)
      return true
    },
    // Memory is always there to answer.
    async ping() {},
    async close() {
      owners.clear()
    },
  }
}
