// Reading a schema for the coverage phase and the boundary values: its types and bounds, the values
// it lists, an ordinary valid value of it and values of the wrong type.
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import { flatten, type JsonSchema } from '../document.js'
import { integer, type JsonNode, string } from './json-text.js'

const INT32_MIN = -(2n ** 31n)
const INT32_MAX = 2n ** 31n - 1n
/** One character outside the Basic Multilingual Plane: 1 code point, 2 UTF-16 units, 4 UTF-8 bytes. */
export const ASTRAL = '🌵'
/** A string longer than this cannot be built in memory sensibly: its bound is no bound. */
export const BUILDABLE = 2 ** 24

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object'

/** The JSON types a schema allows (3.1 type arrays included); none when it says nothing. */
function typesOf(schema: JsonSchema): JsonType[] {
  const { type } = schema
  if (Array.isArray(type)) return type as JsonType[]
  if (typeof type === 'string') return [type as JsonType]
  if (schema.allOf || schema.properties) return ['object']
  return []
}

export const mainType = (schema: JsonSchema): JsonType | undefined =>
  typesOf(schema).find((t) => t !== 'null')

export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined

/** An integer schema's bounds, and whether the schema states them or only its format implies them. */
export function integerBounds(schema: JsonSchema): {
  min: bigint
  max: bigint
  minStated: boolean
  maxStated: boolean
} {
  const int64 = schema.format === 'int64'
  const minimum = num(schema.minimum)
  const exclusiveMinimum = num(schema.exclusiveMinimum)
  const maximum = num(schema.maximum)
  const exclusiveMaximum = num(schema.exclusiveMaximum)
  const min =
    minimum !== undefined
      ? BigInt(Math.ceil(minimum))
      : exclusiveMinimum !== undefined
        ? BigInt(Math.floor(exclusiveMinimum)) + 1n
        : undefined
  const max =
    maximum !== undefined
      ? BigInt(Math.floor(maximum))
      : exclusiveMaximum !== undefined
        ? BigInt(Math.ceil(exclusiveMaximum)) - 1n
        : undefined
  return {
    min: min ?? (int64 ? INT64_MIN : INT32_MIN),
    max: max ?? (int64 ? INT64_MAX : INT32_MAX),
    minStated: min !== undefined,
    maxStated: max !== undefined,
  }
}

/** How a bound is named in a label: `minimum 1`, or `minimum int64 -9223372036854775808`. */
export const boundLabel = (keyword: string, stated: boolean, schema: JsonSchema, v: bigint) =>
  `${keyword}${stated ? '' : ` ${schema.format === 'int64' ? 'int64' : 'int32'}`} ${v}`

export const clamp = (v: bigint, min: bigint, max: bigint) => (v < min ? min : v > max ? max : v)

/** The values an enum or const allows, when the schema lists them. */
export function listed(schema: JsonSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

/** A JSON value as a node; integers as bigint so that no digit is lost. */
export function nodeOf(v: unknown): JsonNode {
  if (v === null || v === undefined) return { kind: 'null' }
  if (typeof v === 'bigint') return integer(v)
  if (typeof v === 'number') return Number.isInteger(v) ? integer(BigInt(v)) : { kind: 'number', value: v }
  if (typeof v === 'string') return string(v)
  if (typeof v === 'boolean') return { kind: 'boolean', value: v }
  if (Array.isArray(v)) return { kind: 'array', items: v.map(nodeOf) }
  return {
    kind: 'object',
    entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, nodeOf(x)]),
  }
}

/** A string of `length` code points that fits the schema: the field's own name, cut or padded. */
function plainString(name: string, schema: JsonSchema): string {
  const min = num(schema.minLength) ?? 0
  const max = num(schema.maxLength) ?? Number.POSITIVE_INFINITY
  const text = name.length >= min ? name : name + 'x'.repeat(min - name.length)
  return [...text].slice(0, Math.max(0, Math.min(max, text.length))).join('')
}

/** An ordinary valid value of a schema: required properties only, integers near 1, strings short. */
export function baseNode(schema: JsonSchema, name: string): JsonNode {
  const values = listed(schema)
  if (values?.length) return nodeOf(values[0])
  switch (mainType(schema)) {
    case 'object': {
      const shape = flatten(schema)
      return {
        kind: 'object',
        entries: shape.required
          .filter((field) => shape.properties[field] !== undefined)
          .map((field) => [field, baseNode(shape.properties[field] as JsonSchema, field)]),
      }
    }
    case 'integer': {
      const { min, max } = integerBounds(schema)
      return integer(clamp(1n, min, max))
    }
    case 'number':
      return { kind: 'number', value: num(schema.minimum) ?? 1.5 }
    case 'string':
      return string(plainString(name, schema))
    case 'boolean':
      return { kind: 'boolean', value: true }
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {}
      const count = num(schema.minItems) ?? 0
      return { kind: 'array', items: Array.from({ length: count }, () => baseNode(items, name)) }
    }
    default:
      return { kind: 'null' }
  }
}

/** Values of the wrong JSON type for a schema: one of each type it does not allow. */
export function wrongTypes(schema: JsonSchema): [string, JsonNode][] {
  const allowed = typesOf(schema)
  const candidates: [JsonType, JsonNode][] = [
    ['string', string('1')],
    ['number', integer(7n)],
    ['boolean', { kind: 'boolean', value: true }],
    ['null', { kind: 'null' }],
    ['array', { kind: 'array', items: [] }],
    ['object', { kind: 'object', entries: [] }],
  ]
  // An integer is a number: a field that takes numbers takes 7.
  const takes = (t: JsonType) => allowed.includes(t) || (t === 'number' && allowed.includes('integer'))
  return candidates.filter(([t]) => !takes(t))
}
