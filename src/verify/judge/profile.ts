// How the verifier reads a server's answers by what the document promises, not by how the kit's own
// server writes them: the schemas are open, so a property the document does not name is allowed and
// said once per operation among the warnings; an example is met when the answer shows every property
// the example shows, with its value.
import type { Profile } from '../document.js'
import type { Results } from '../report/results.js'
import type { Judging } from './plant.js'

/**
 * The judging of a server under test: by promise, its undocumented properties told as warnings; with
 * the kit profile, exactly as the kit's server answers, and held to the profile's headers.
 */
export function judgingFor(results: Results, profile: Profile = 'interface'): Judging {
  return {
    exact: profile === 'kit',
    kitProfile: profile === 'kit',
    bodilessRefusals: profile !== 'kit',
    undocumented: (operationId, property) =>
      results.warn(
        `undocumented property \`${property}\` in \`${operationId}\`'s answer (allowed: the schema does not close it)`,
        `${operationId}\t${property}`,
      ),
  }
}

/**
 * Whether an answer (read with parseExact: integers as bigint) shows what an example shows: every
 * property of the example there with the example's value, element by element for a list. Other
 * properties are the schema's to judge.
 */
export function showsExample(example: unknown, answer: unknown): boolean {
  if (Array.isArray(example))
    return (
      Array.isArray(answer) &&
      answer.length === example.length &&
      example.every((item, i) => showsExample(item, answer[i]))
    )
  if (example !== null && typeof example === 'object') {
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return false
    const shown = answer as Record<string, unknown>
    return Object.entries(example).every(([key, value]) => showsExample(value, shown[key]))
  }
  if (typeof example === 'number' && Number.isInteger(example) && typeof answer === 'bigint')
    return BigInt(example) === answer
  return example === answer
}
