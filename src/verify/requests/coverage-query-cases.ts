// The coverage cases of one query parameter: the values each sends, what it covers, its one defect;
// and a parameter's longest and ordinary valid values.
import { HEADER_LIMIT } from '@plant-store/core'
import type { Parameter } from '../document.js'
import {
  ASTRAL,
  BUILDABLE,
  baseNode,
  boundLabel,
  integerBounds,
  listed,
  mainType,
  num,
} from './coverage-schemas.js'
import type { Defect, Feature } from './generated.js'
import { render } from './json-text.js'

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
      out.push({
        covers: `${name} not made by the server`,
        values: ['not-a-cursor'],
        defect: 'query: unknown cursor',
      })
    else {
      out.push({
        covers: min ? `${name} minLength ${min} (valid)` : `${name} empty (valid)`,
        values: ['x'.repeat(min ?? 0)],
        ...(min ? {} : { features: ['query: empty value'] as Feature[] }),
      })
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
    // defect names (as generated.ts does).
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
