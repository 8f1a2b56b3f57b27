// The newPlant event as stored in the outbox: its id and its body, written as the text that is sent.
import { randomUUID } from 'node:crypto'
import { plantJson, type StoredPlant } from '@plant-store/core'

export interface NewPlantEvent {
  /** `webhook-id`: the same on every attempt, so that a receiver can drop a repeat. */
  id: string
  owner: string
  /** The body exactly as sent: the id written in all its digits, never through a double. */
  body: string
}

export function newPlantEvent(owner: string, plant: StoredPlant): NewPlantEvent {
  return { id: `msg_${randomUUID()}`, owner, body: plantJson(plant) }
}
