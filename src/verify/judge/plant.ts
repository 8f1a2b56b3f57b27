// How an answer's plant is judged against the plant the store holds: exactly as the kit's server writes
// it (the kit's own targets), or by what the document promises (any other server: the properties it
// names hold what the store holds, digit for digit; others are allowed and told once).
import { type ExactPlant, plantFieldNames } from '@plant-store/core'
import { canonical, jsonText } from '../exact-json.js'

/** A plant as the oracle keeps it: ids as bigint. */
export type Plant = ExactPlant

/** The properties the document names for a plant. */
export const PLANT_FIELDS = [...plantFieldNames]

/**
 * How answers about the store are judged. The kit's own targets are held to the body exactly as the
 * kit's server writes it; any other server by what the document promises: the properties it names
 * hold what the store holds, digit for digit, and a property it does not name is allowed (the schemas
 * are open) and told to `undocumented` once.
 */
export interface Judging {
  exact: boolean
  undocumented?: (operationId: string, property: string) => void
  /** Answers are held to the kit server's profile too (the document's info.x-kit-profile). */
  kitProfile?: boolean
  /**
   * A refusal the document marks `x-body-optional` may come without a body (a layer in front of the
   * store wrote it): so for a store judged by the interface, never for the kit's own targets.
   */
  bodilessRefusals?: boolean
}

/** What the document-only checks take from a judging. */
export const answerOptions = (judging: Judging) => ({
  kitProfile: judging.kitProfile === true,
  bodilessRefusals: judging.bodilessRefusals === true,
})
export const EXACT: Judging = { exact: true }

/** A value as the messages show it: JSON, ids as the digits the document shows. */
export const shown = (value: unknown): string => jsonText(value)

/**
 * What is wrong with a plant an answer shows, against the plant the store holds: `fields` are the
 * properties the document names for it, `optional` those the answer may leave out (a create's id).
 */
export function plantProblem(
  operationId: string,
  answered: unknown,
  expected: Plant | Readonly<Record<string, unknown>>,
  fields: string[],
  judging: Judging,
  optional: string[] = [],
): string | undefined {
  const want = expected as unknown as Record<string, unknown>
  if (judging.exact) {
    const projected = Object.fromEntries(fields.filter((f) => want[f] !== undefined).map((f) => [f, want[f]]))
    return canonical(answered) === canonical(projected)
      ? undefined
      : `the plant should be ${shown(projected)}`
  }
  if (answered === null || typeof answered !== 'object' || Array.isArray(answered))
    return `the answer is ${shown(answered)}, not a plant`
  const got = answered as Record<string, unknown>
  for (const key of Object.keys(got))
    if (!fields.includes(key) && !optional.includes(key)) judging.undocumented?.(operationId, key)
  const wrong = [...fields, ...optional]
    .filter((f) => !(optional.includes(f) && got[f] === undefined) && got[f] !== want[f])
    .map((f) =>
      want[f] === undefined
        ? `\`${f}\` is ${shown(got[f])}, and the plant has none`
        : `\`${f}\` is ${got[f] === undefined ? 'missing' : shown(got[f])}, the plant's is ${shown(want[f])}`,
    )
  return wrong.length ? `${wrong.join('; ')} (the plant: ${shown(expected)})` : undefined
}
