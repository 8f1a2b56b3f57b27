// Values drawn from the document's schemas for the random requests: ids around the run's own, strings
// to each bound, integers in every form JSON allows, objects with unknown keys; and a body with one
// defect of the schema's own making.
import { BODY_LIMIT, INT64_MAX, INT64_MIN } from '@plant-store/core'
import fc from 'fast-check'
import { flatten, type JsonSchema } from '../document.js'
import { type IntegerForm, integer, type JsonNode, string } from './json-text.js'
import { type Defect, entriesOf, SAFE, withField } from './probe.js'

/**
 * Ids: a small pool around `base` (so that requests meet the plants a state holds), the int64 edges,
 * and any int64. The kit's own targets use base 0; a server under test gets a base far from small
 * numbers, so that its existing plants are left alone.
 */
export function idArbitraryFrom(base: bigint): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.bigInt(base - 2n, base + 6n) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(INT64_MAX, INT64_MIN, SAFE, -SAFE, SAFE + 2n, -SAFE - 2n, 10n ** 18n, 0n),
    },
    { weight: 2, arbitrary: fc.bigInt(INT64_MIN, INT64_MAX) },
  )
}

/** What a run's values draw from: its ids, and the keys the document's body schemas name. */
export interface Draws {
  /** idArbitraryFrom(the run's id base). */
  ids: fc.Arbitrary<bigint>
  /**
   * Each key some body schema of the document names, with its schema: a key another schema names (a
   * create's `id`, sent in a replace) is one a server must ignore where this schema does not name it.
   */
  named: ReadonlyMap<string, JsonSchema>
}

/**
 * The ids of `ids` that lie in [min, max], drawn without a filter: a document may bound an id so
 * that almost no int64 passes, and a filter would then spin without end.
 */
function idsBetween(ids: fc.Arbitrary<bigint>, min: bigint, max: bigint): fc.Arbitrary<bigint> {
  if (min <= INT64_MIN && max >= INT64_MAX) return ids
  const clamp = (v: bigint) => (v < min ? min : v > max ? max : v)
  return fc.oneof(ids.map(clamp), fc.bigInt(min, max))
}

const specialStrings = fc.constantFrom('', ' ', '\u0000', 'e\u0301', '🌵', 'Ἀλόη', 'a"b\\c', '\u2028')

/** A string's length as JSON Schema counts it (maxLength): in code points, not UTF-16 units. */
export const codePoints = (text: string) => [...text].length

/**
 * Strings valid against a string schema: within its maxLength, the longest allowed among them; without
 * one, up to near the body limit, with room left for the rest of the body.
 */
export function stringArbitrary(schema: JsonSchema = {}): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined
  const fits = (text: string) => max === undefined || codePoints(text) <= max
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: Math.min(20, max ?? 20) }) },
    // A grapheme may be several code points: those that take a string past maxLength are left out.
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(10, max ?? 10) }).filter(fits),
    },
    { weight: 2, arbitrary: specialStrings.filter(fits) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.min(max ?? 40_000, 40_000))) },
  )
}

function integerNode(schema: JsonSchema, draws: Draws): fc.Arbitrary<JsonNode> {
  const int64 = schema.format === 'int64'
  const min = typeof schema.minimum === 'number' ? BigInt(schema.minimum) : int64 ? INT64_MIN : -(2n ** 31n)
  const max = typeof schema.maximum === 'number' ? BigInt(schema.maximum) : int64 ? INT64_MAX : 2n ** 31n - 1n
  const values = int64 ? idsBetween(draws.ids, min, max) : fc.bigInt(min, max)
  const form = fc.constantFrom<IntegerForm>(
    'plain',
    'plain',
    'plain',
    'exponent',
    'fraction',
    'negative zero',
  )
  return fc.tuple(values, form).map(([v, f]) => integer(v, f))
}

/** A JSON value valid against the schema (the subset of JSON Schema the document uses). */
export function validNode(schema: JsonSchema, draws: Draws): fc.Arbitrary<JsonNode> {
  if (schema.allOf || schema.type === 'object' || schema.properties) return objectNode(schema, draws)
  if (schema.type === 'integer') return integerNode(schema, draws)
  if (schema.type === 'string') return stringArbitrary(schema).map(string)
  if (schema.type === 'boolean') return fc.boolean().map((v) => ({ kind: 'boolean', value: v }) as JsonNode)
  if (schema.type === 'number')
    return fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((v) => ({ kind: 'number', value: v }) as JsonNode)
  if (schema.type === 'array' && schema.items) {
    return fc
      .array(validNode(schema.items as JsonSchema, draws), { maxLength: 3 })
      .map((items) => ({ kind: 'array', items }) as JsonNode)
  }
  return fc.constant<JsonNode>({ kind: 'null' })
}

// Unknown keys, those that reach a prototype in a careless parser among them. The document allows
// unknown keys (no additionalProperties): a server must ignore them.
const unknownKeys = fc.constantFrom('colour', '__proto__', 'constructor', 'prototype', 'id ', 'NAME')
const unknownValue: fc.Arbitrary<JsonNode> = fc.oneof(
  stringArbitrary().map(string),
  fc.constant<JsonNode>({ kind: 'object', entries: [] }),
  fc.constant<JsonNode>({
    kind: 'object',
    entries: [['prototype', { kind: 'object', entries: [['polluted', string('yes')]] }]],
  }),
  fc.constant<JsonNode>({ kind: 'object', entries: [['polluted', string('yes')]] }),
  // Deep nesting: a reader that recurses must not fall over.
  fc
    .constantFrom(64, 512)
    .map((depth): JsonNode => ({ kind: 'raw', text: `${'['.repeat(depth)}${']'.repeat(depth)}` })),
)

function objectNode(schema: JsonSchema, draws: Draws): fc.Arbitrary<JsonNode> {
  const shape = flatten(schema)
  const others = [...draws.named].filter(([name]) => !(name in shape.properties))
  const fields = Object.entries(shape.properties).map(([name, property]) => {
    const node = validNode(property, draws).map((v): [string, JsonNode] => [name, v])
    return shape.required.includes(name) ? node : fc.option(node, { nil: undefined })
  })
  for (const [name, property] of others)
    fields.push(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: validNode(property, draws).map((v): [string, JsonNode] => [name, v]) },
      ),
    )
  const extras = fc.array(fc.tuple(unknownKeys, unknownValue), { maxLength: 2 })
  return fc.tuple(fc.tuple(...fields), extras, fc.boolean()).map(([own, extra, duplicate]) => {
    const entries = own.filter((e): e is [string, JsonNode] => e !== undefined)
    const all: [string, JsonNode][] = [...extra, ...entries]
    // A duplicate key before the real one: JSON.parse, and so the server, keep the last.
    const first = entries[0]
    if (duplicate && first) all.unshift([first[0], string('an earlier duplicate')])
    return { kind: 'object', entries: all } as JsonNode
  })
}

/** A body with one defect of the schema's own making, and its label. */
export function defectiveBody(
  schema: JsonSchema,
  draws: Draws,
): fc.Arbitrary<{ node: JsonNode; defect: Defect }> {
  const shape = flatten(schema)
  const valid = objectNode(schema, draws)
  const options: fc.Arbitrary<{ node: JsonNode; defect: Defect }>[] = [
    validNode(schema, draws).map((node) => ({
      node: { kind: 'array', items: [node] } as JsonNode,
      defect: 'body: not an object' as Defect,
    })),
    fc
      .constantFrom<JsonNode>(string('Basil'), { kind: 'null' }, integer(1n))
      .map((node) => ({ node, defect: 'body: not an object' as Defect })),
  ]
  for (const field of shape.required) {
    options.push(
      valid.map((node) => ({
        node: { kind: 'object', entries: entriesOf(node).filter(([k]) => k !== field) } as JsonNode,
        defect: 'body: required field missing' as Defect,
      })),
    )
  }
  for (const [field, property] of Object.entries(shape.properties)) {
    // A bound at or past the body limit cannot be reached: a longer string is a body too large.
    if (
      property.type === 'string' &&
      typeof property.maxLength === 'number' &&
      property.maxLength < BODY_LIMIT - 1024
    ) {
      // One character past the bound: the shortest string the bound refuses.
      const tooLong = 'x'.repeat(property.maxLength + 1)
      options.push(
        valid.map((node) => ({
          node: withField(node, field, string(tooLong)),
          defect: 'body: string too long' as Defect,
        })),
      )
    }
    if (property.type === 'string') {
      options.push(
        fc.tuple(valid, fc.constantFrom('\ud800', 'x\udc00y', '\udbff\udbff')).map(([node, text]) => ({
          node: withField(node, field, string(text)),
          defect: 'body: not Unicode text' as Defect,
        })),
      )
    }
    const wrong: fc.Arbitrary<JsonNode> =
      property.type === 'string'
        ? fc.constantFrom<JsonNode>(
            integer(7n),
            { kind: 'null' },
            { kind: 'boolean', value: true },
            { kind: 'array', items: [] },
          )
        : fc.constantFrom<JsonNode>(
            string('1'),
            { kind: 'null' },
            { kind: 'boolean', value: false },
            { kind: 'object', entries: [] },
          )
    options.push(
      fc
        .tuple(valid, wrong)
        .map(([node, bad]) => ({ node: withField(node, field, bad), defect: 'body: wrong type' as Defect })),
    )
    if (property.type === 'integer') {
      const range =
        property.format === 'int64'
          ? [INT64_MIN - 1n, INT64_MAX + 1n, 2n ** 64n]
          : [-(2n ** 31n) - 1n, 2n ** 31n]
      options.push(
        fc
          .tuple(valid, fc.constantFrom(...range), fc.constantFrom<IntegerForm>('plain', 'exponent'))
          .map(([node, v, form]) => ({
            node: withField(node, field, integer(v, form)),
            defect: 'body: integer out of range' as Defect,
          })),
        fc
          .tuple(valid, fc.constantFrom('1.5', '-0.5', '9223372036854775807.5', '1e-3', '4.5e-1'))
          .map(([node, text]) => ({
            node: withField(node, field, { kind: 'raw', text }),
            defect: 'body: not an integer' as Defect,
          })),
      )
    }
  }
  return fc.oneof(...options)
}
