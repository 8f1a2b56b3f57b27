// A plant's JSON text with its int64 id exact, as the webhook's events and the verifier write one (the
// server's answers are written by Fastify's serializer or by SQLite).
import type { components } from '../generated/openapi.js'
import { plantFields } from '../generated/plant-fields.js'
import type { ExactPlant } from './plant-fields.js'

type StoredPlant = components['schemas']['StoredPlant']

/**
 * A plant's JSON text: its fields in the document's order, the id written in all its digits (never
 * through a double, which would round it beyond 2^53); a field it lacks is left out.
 */
export function plantJson(plant: Partial<StoredPlant> | Partial<ExactPlant>): string {
  const from = plant as Record<string, unknown>
  const members: string[] = []
  for (const field of plantFields) {
    const value = from[field.name]
    if (value === undefined) continue
    const text = field.int64 ? BigInt(value as number | bigint | string).toString() : JSON.stringify(value)
    members.push(`"${field.name}":${text}`)
  }
  return `{${members.join(',')}}`
}
