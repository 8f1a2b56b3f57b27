// A plant field by field, as the document's StoredPlant lists them (generated/plant-fields.ts): copying
// the document's fields out of a body or a row, and writing a plant's JSON with its int64 id exact, so
// that no package spells the fields out by hand.
import type { components } from '../generated/openapi.js'
import { plantAnswerOrder, plantFields } from '../generated/plant-fields.js'

// Written by the webhook's events and the verifier, never by the server's answers: in a module of its
// own, which mutation testing leaves out.
export { plantJson } from './plant-json.js'
export { plantAnswerOrder, plantFields }

type StoredPlant = components['schemas']['StoredPlant']

/** One of StoredPlant's properties: its name, JSON type, whether it is the int64 id, and whether required. */
export type PlantField = (typeof plantFields)[number]

/** A stored plant with its id exact: a bigint, every digit as sent. */
export type ExactPlant = Omit<StoredPlant, 'id'> & { id: bigint }

/** The names of StoredPlant's properties, the id first. */
// Stryker disable next-line ArrowFunction: equivalent: the server never reads these names; the verifier's probes do, with a build of their own.
export const plantFieldNames: readonly string[] = plantFields.map((field) => field.name)

/**
 * The document's fields of a plant out of a body, a row or another plant: the id as a bigint (`id`
 * when it comes from elsewhere, such as a replace's path) and every other field the source holds;
 * what the document does not name stays behind. A null counts as absent, as a store's column holds it.
 */
export function pickPlant(source: object, id?: number | bigint | string): ExactPlant {
  const from = source as Record<string, unknown>
  const plant: Record<string, unknown> = {}
  for (const field of plantFields) {
    const value = field.int64 && id !== undefined ? id : from[field.name]
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent as `false` or `&&` (the mark also turns off `true`, which a run kills): the schema refuses a null before this, and a field copied as undefined is stored as null and left out of the answer, as one not copied.
    if (value === undefined || value === null) continue
    plant[field.name] = field.int64 ? BigInt(value as number | bigint | string) : value
  }
  return plant as ExactPlant
}
