// The state a probe is judged in: the caller's plants, by id.
import { type GivenPlant, pickPlant } from '@plant-store/core'
import type { Plant } from './plant.js'

export type State = Map<bigint, Plant>

export function stateOf(plants: GivenPlant[]): State {
  return new Map(plants.map((p) => [BigInt(p.id), pickPlant(p)]))
}
