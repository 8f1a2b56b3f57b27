// The coverage cases of one body field: valid values at each keyword's boundaries, one invalid value
// per keyword, nested objects field by field.
import { flatten, type JsonSchema } from '../document.js'
import {
  ASTRAL,
  BUILDABLE,
  baseNode,
  boundLabel,
  clamp,
  integerBounds,
  listed,
  mainType,
  nodeOf,
  num,
  wrongTypes,
} from './coverage-schemas.js'
import { type Defect, entriesOf, type Feature, withField } from './generated.js'
import { integer, type JsonNode, render, string } from './json-text.js'

/** A field of a body, as the path of keys that leads to it. */
type FieldPath = string[]

/** The node with the field at `path` replaced, or removed when `replacement` is undefined. */
function atPath(node: JsonNode, path: FieldPath, replacement: JsonNode | undefined): JsonNode {
  const [head, ...rest] = path
  if (head === undefined) return replacement ?? node
  if (rest.length === 0) {
    if (replacement !== undefined) return withField(node, head, replacement)
    return { kind: 'object', entries: entriesOf(node).filter(([k]) => k !== head) }
  }
  const child = entriesOf(node).find(([k]) => k === head)?.[1] ?? { kind: 'object', entries: [] }
  return withField(node, head, atPath(child, rest, replacement))
}

interface Case {
  covers: string
  node: JsonNode
  defect?: Defect
  features?: Feature[]
}

/**
 * The cases of one body field: valid values at each keyword's boundaries, then one invalid value per
 * keyword. `base` is the whole valid body the field's value goes into.
 */
export function fieldCases(
  base: JsonNode,
  path: FieldPath,
  schema: JsonSchema,
  required: boolean,
  bodyLimit: number,
): Case[] {
  const label = path.join('.')
  const out: Case[] = []
  const put = (covers: string, replacement: JsonNode, defect?: Defect) =>
    out.push({ covers, node: atPath(base, path, replacement), ...(defect ? { defect } : {}) })

  if (required)
    out.push({
      covers: `${label} missing (required)`,
      node: atPath(base, path, undefined),
      defect: 'body: required field missing',
    })
  else {
    out.push({ covers: `${label} absent (valid)`, node: atPath(base, path, undefined) })
    put(`${label} present (valid)`, baseNode(schema, path.at(-1) ?? label))
  }

  const values = listed(schema)
  if (values?.length) {
    for (const v of values)
      put(`${label} ${'const' in schema ? 'const' : 'enum'} ${JSON.stringify(v)} (valid)`, nodeOf(v))
    const outside = typeof values[0] === 'string' ? 'not-listed' : 987654321
    if (!values.includes(outside)) put(`${label} not in enum`, nodeOf(outside), 'body: not in enum')
  } else {
    const type = mainType(schema)
    if (type === 'string') {
      const min = num(schema.minLength)
      const max = num(schema.maxLength)
      put(min ? `${label} minLength ${min} (valid)` : `${label} empty (valid)`, string('x'.repeat(min ?? 0)))
      if (min) put(`${label} minLength-1`, string('x'.repeat(min - 1)), 'body: string too short')
      if (max !== undefined && max <= BUILDABLE) {
        // The bounds are the document's: a boundary body past the body limit is still sent, so that
        // the oracle reports the inconsistency.
        put(`${label} maxLength ${max} (valid)`, string('x'.repeat(max)))
        // maxLength counts code points, as JSON Schema does: a reader that counts UTF-16 units refuses it.
        out.push({
          covers: `${label} maxLength ${max} astral (valid)`,
          node: atPath(base, path, string(ASTRAL.repeat(max))),
        })
        const tooLong = atPath(base, path, string('x'.repeat(max + 1)))
        // One character past a bound at the body limit makes a body too large: that is its status.
        const large = Buffer.byteLength(render(tooLong)) > bodyLimit
        out.push({
          covers: `${label} maxLength+1${large ? ' (body too large)' : ''}`,
          node: tooLong,
          defect: large ? 'body: too large' : 'body: string too long',
        })
      }
      put(`${label} not Unicode text (lone surrogate)`, string('\ud800'), 'body: not Unicode text')
    } else if (type === 'integer') {
      const bounds = integerBounds(schema)
      put(
        `${label} ${boundLabel('minimum', bounds.minStated, schema, bounds.min)} (valid)`,
        integer(bounds.min),
      )
      put(
        `${label} ${boundLabel('maximum', bounds.maxStated, schema, bounds.max)} (valid)`,
        integer(bounds.max),
      )
      put(`${label} minimum-1`, integer(bounds.min - 1n), 'body: integer out of range')
      put(`${label} maximum+1`, integer(bounds.max + 1n), 'body: integer out of range')
      put(`${label} not an integer (1.5)`, { kind: 'raw', text: '1.5' }, 'body: not an integer')
      // The same integer in the other forms JSON allows.
      const current = entriesAt(base, path)
      const plain = current?.kind === 'integer' ? current.value : clamp(1n, bounds.min, bounds.max)
      put(`${label} written with a fraction (valid)`, integer(plain, 'fraction'))
      const tens = largestPowerOfTen(bounds.min, bounds.max)
      if (tens !== undefined) put(`${label} written with an exponent (valid)`, integer(tens, 'exponent'))
    } else if (type === 'object') {
      const shape = flatten(schema)
      const inner = entriesAt(base, path) ?? baseNode(schema, label)
      const whole = atPath(base, path, inner)
      for (const [name, property] of Object.entries(shape.properties))
        out.push(...fieldCases(whole, [...path, name], property, shape.required.includes(name), bodyLimit))
    }
  }
  for (const [type, wrong] of wrongTypes(schema)) put(`${label} type: ${type}`, wrong, 'body: wrong type')
  return out
}

function entriesAt(node: JsonNode, path: FieldPath): JsonNode | undefined {
  let here: JsonNode | undefined = node
  for (const key of path) here = here ? entriesOf(here).findLast(([k]) => k === key)?.[1] : undefined
  return here
}

/** The largest power of ten (10 at least) in [min, max]: an integer `1e<n>` can write. */
function largestPowerOfTen(min: bigint, max: bigint): bigint | undefined {
  let tens = 10n
  if (tens > max) return undefined
  while (tens * 10n <= max) tens *= 10n
  return tens >= min ? tens : undefined
}
