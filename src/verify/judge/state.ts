// The state a probe is judged in: the caller's plants, by id.
import type { GivenPlant } from '@plant-store/core'
import type { Plant } from './plant.js'

export type State = Map<bigint, Plant>

export function stateOf(plants: GivenPlant[]): State {
  return new Map(
    plants.map((p) => [
      BigInt(p.id),
      { id: BigInt(p.id), name: p.name, ...(p.tag === undefined ? {} : { tag: p.tag }) },
    ]),
  )
}
