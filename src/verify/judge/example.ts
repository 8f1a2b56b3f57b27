// An example met by what the document promises, not by how the kit's own server writes its answers:
// the answer shows every property the example shows, with its value; the schemas are open, so other
// properties are the schema's to judge.

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
