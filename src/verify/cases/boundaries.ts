// The boundary values of one body field or query parameter, by its schema: valid values at each of
// its keywords' bounds, and one invalid value per keyword, each with its one defect. Nested objects
// field by field; a query parameter's longest and ordinary valid values too.
import { HEADER_LIMIT } from '@plant-store/core'
import { flatten, type JsonSchema, type Parameter } from '../document.js'
import { integer, type JsonNode, render, string } from './json-text.js'
import { type Defect, entriesOf, type Feature, withField } from './probe.js'
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
} from './schema-values.js'

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
      // JSON bounds no exponent: past every int64, refused as any other and at once, by a reader that
      // does not write the number out digit by digit first.
      put(
        `${label} past any int64, with an exponent (1e400000000)`,
        { kind: 'raw', text: '1e400000000' },
        'body: integer out of range',
      )
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

/** The cases of one query parameter: each as the value or values it sends, and what it covers. */
interface QueryCase {
  covers: string
  values: string[] | undefined
  defect?: Defect
  features?: Feature[]
}

export function queryCases(p: Parameter): QueryCase[] {
  const schema = p.schema ?? {}
  const out: QueryCase[] = []
  const name = p.name
  if (p.required)
    out.push({
      covers: `${name} missing (required)`,
      values: undefined,
      defect: 'query: required parameter missing',
    })
  const values = listed(schema)
  if (values?.length) {
    for (const v of values)
      out.push({ covers: `${name} enum ${JSON.stringify(v)} (valid)`, values: [String(v)] })
    if (!values.map(String).includes('not-listed'))
      out.push({ covers: `${name} not in enum`, values: ['not-listed'], defect: 'query: not in enum' })
    return out
  }
  const type = mainType(schema)
  if (type === 'integer') {
    const b = integerBounds(schema)
    out.push(
      {
        covers: `${name} ${boundLabel('minimum', b.minStated, schema, b.min)} (valid)`,
        values: [String(b.min)],
      },
      {
        covers: `${name} ${boundLabel('maximum', b.maxStated, schema, b.max)} (valid)`,
        values: [String(b.max)],
      },
      { covers: `${name} minimum-1`, values: [String(b.min - 1n)], defect: 'query: out of range' },
      { covers: `${name} maximum+1`, values: [String(b.max + 1n)], defect: 'query: out of range' },
      { covers: `${name} not an integer (1.5)`, values: ['1.5'], defect: 'query: not an integer' },
      { covers: `${name} type: string`, values: ['ten'], defect: 'query: not an integer' },
      // Two valid values: the repetition is the one defect.
      { covers: `${name} repeated`, values: [String(b.min), String(b.max)], defect: 'query: repeated' },
    )
  } else if (type === 'string') {
    const min = num(schema.minLength)
    const max = num(schema.maxLength)
    // A cursor is the server's to make: no value a client makes up is valid, whatever its length.
    const opaque = name === 'cursor'
    if (opaque)
      out.push(
        {
          covers: `${name} not made by the server`,
          values: ['not-a-cursor'],
          defect: 'query: unknown cursor',
        },
        // Made up in two parts joined by a dot, as many stores' cursors are (a position and a mark),
        // the first base64url of text that is no number: a store that reads the parts refuses it too.
        {
          covers: `${name} made up in two parts`,
          values: ['bm90LWEtY3Vyc29y.bm90LWEtbWFyaw'],
          defect: 'query: unknown cursor',
        },
      )
    else {
      out.push({
        covers: min ? `${name} minLength ${min} (valid)` : `${name} empty (valid)`,
        values: ['x'.repeat(min ?? 0)],
        ...(min ? {} : { features: ['query: empty value'] as Feature[] }),
      })
      // Digits are text to a string parameter: a store that reads them as a number refuses them.
      if ((min ?? 0) <= 2 && (max === undefined || max >= 2))
        out.push({ covers: `${name} digits only (valid)`, values: ['42'] })
      if (max !== undefined && max <= BUILDABLE)
        out.push(
          { covers: `${name} maxLength ${max} (valid)`, values: ['x'.repeat(max)] },
          {
            covers: `${name} maxLength ${max} astral (valid)`,
            values: [ASTRAL.repeat(max)],
            features: ['string: astral or combining'],
          },
        )
    }
    if (min)
      out.push({
        covers: `${name} minLength-1`,
        values: ['x'.repeat(min - 1)],
        defect: 'query: string too short',
      })
    // A bound at or past the request line's limit cannot be passed: a longer query is a 431, which no
    // defect names (as the random requests have it).
    if (max !== undefined && max + 1 < HEADER_LIMIT - 1024)
      out.push({
        covers: `${name} maxLength+1`,
        values: ['x'.repeat(max + 1)],
        defect: 'query: string too long',
      })
  }
  return out
}

/** The longest valid value of a query parameter, when it has one. */
export function longestQueryValue(p: Parameter): string | undefined {
  const schema = p.schema ?? {}
  if (p.name === 'cursor') return undefined
  const values = listed(schema)
  if (values?.length) return values.map(String).sort((a, b) => b.length - a.length)[0]
  const type = mainType(schema)
  if (type === 'integer') {
    const b = integerBounds(schema)
    return String(b.max)
  }
  const max = num(schema.maxLength)
  return type === 'string' && max !== undefined && max <= BUILDABLE ? 'x'.repeat(max) : undefined
}

/** A valid value of a query parameter, for probes about something else (only required ones get one). */
export function baseQueryValue(p: Parameter): string {
  const node = baseNode(p.schema ?? {}, p.name)
  return node.kind === 'string' ? node.value : node.kind === 'integer' ? String(node.value) : render(node)
}
