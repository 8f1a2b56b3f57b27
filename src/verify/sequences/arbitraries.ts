// The values the sequences send, drawn from the operations' schemas: request bodies, and keys from a
// small pool so that creates collide and reads miss.
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import fc from 'fast-check'
import { flatten, type JsonSchema } from '../document.js'
import { COMPOSED } from '../requests/filter-values.js'
import { escapePointer } from './json-pointer.js'

// `café` in both Unicode forms: the same text as two strings, which an exact filter tells apart.
const WORDS = [
  'Basil',
  'Fern',
  'Mint',
  'Thai basil',
  'Oak',
  'herb',
  'tree',
  '',
  COMPOSED,
  COMPOSED.normalize('NFD'),
]

/** Values of a schema, with the arbitraries in `overrides` (by JSON pointer) standing in for parts of it. */
export function valueArbitrary(
  schema: JsonSchema,
  overrides: Map<string, fc.Arbitrary<unknown>> = new Map(),
  pointer = '',
): fc.Arbitrary<unknown> {
  const override = overrides.get(pointer)
  if (override) return override
  const flat = flatten(schema)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  if ('const' in schema) return fc.constant(schema.const)
  switch (flat.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [name, property] of Object.entries(flat.properties))
        model[name] = valueArbitrary(property, overrides, `${pointer}/${escapePointer(name)}`)
      const required = flat.required.filter((name) => name in model)
      for (const name of Object.keys(model))
        if (overrides.has(`${pointer}/${escapePointer(name)}`) && !required.includes(name))
          required.push(name)
      return fc.record(model, { requiredKeys: required })
    }
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0
      const max = (schema.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY
      // No filter: for bounds that no word and no short string meets, a filter would never end. A
      // bounded string is ASCII, so that the length drawn is the length JSON Schema counts.
      const text =
        min === 0 && max === Number.POSITIVE_INFINITY
          ? fc.string({ unit: 'grapheme', maxLength: 12 })
          : fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, min + 12) })
      const words = WORDS.filter((w) => w.length >= min && w.length <= max)
      if (words.length === 0) return text
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...words) }, { weight: 1, arbitrary: text })
    }
    case 'integer':
      return integerArbitrary(flat.format, schema)
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(
        valueArbitrary((schema.items as JsonSchema | undefined) ?? {}, overrides, `${pointer}/0`),
        {
          maxLength: 3,
        },
      )
    default:
      throw new Error(`no generator for the schema at ${pointer || '/'}: ${JSON.stringify(schema)}`)
  }
}

function integerArbitrary(format: string | undefined, schema: JsonSchema): fc.Arbitrary<unknown> {
  const min = schema.minimum as number | undefined
  const max = schema.maximum as number | undefined
  if (format === 'int64')
    return fc.bigInt(min === undefined ? INT64_MIN : BigInt(min), max === undefined ? INT64_MAX : BigInt(max))
  return fc.integer({ min: min ?? -(2 ** 31), max: max ?? 2 ** 31 - 1 })
}

/**
 * Keys: mostly from a small pool, so that creates collide, reads miss and both principals share ids;
 * sometimes the edges of the type (±(2^63−1), −2^63, ±(2^53+1), where a double would lose digits);
 * sometimes any value of the type.
 */
export const KEY_POOL = { min: -3n, max: 10n }
/** Part of the pool drawn more often, so that creates collide (the sandbox's seed ids among them). */
const HOT_KEYS = { min: 0n, max: 3n }
const INT64_EDGES = [INT64_MAX, -INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n + 1n)]

export function keyArbitrary(schema: JsonSchema, base = 0n): fc.Arbitrary<bigint> {
  const flat = flatten(schema)
  if (flat.type !== 'integer')
    throw new Error(`the key's schema is not an integer: ${JSON.stringify(schema)}`)
  const int64 = flat.format === 'int64'
  const lowest = int64 ? INT64_MIN : -(2n ** 31n)
  const highest = int64 ? INT64_MAX : 2n ** 31n - 1n
  const edges = int64 ? INT64_EDGES : [highest, -highest, lowest]
  return fc.oneof(
    { weight: 8, arbitrary: fc.bigInt(base + HOT_KEYS.min, base + HOT_KEYS.max) },
    { weight: 8, arbitrary: fc.bigInt(base + KEY_POOL.min, base + KEY_POOL.max) },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.bigInt(lowest, highest) },
  )
}
