// JSON with int64 kept exact, guided by the document: on reading, every integer a schema types int64
// becomes a bigint (whatever its size, so a field is never sometimes a number) and every other number
// a number; on writing, a bigint is written as its digits.

import { flatten } from '@plant-store/core'
import { isLosslessNumber, parse, stringify } from 'lossless-json'

type JsonSchema = Record<string, unknown>

export function parseExact(text: string, schema: JsonSchema | undefined): unknown {
  return revive(parse(text), schema)
}

export const stringifyExact = (value: unknown): string => stringify(value) ?? ''

function revive(value: unknown, schema: JsonSchema | undefined): unknown {
  if (isLosslessNumber(value)) {
    const flat = schema && flatten(schema)
    return flat?.format === 'int64' ? BigInt(value.value) : value.valueOf()
  }
  if (Array.isArray(value)) {
    const items = schema && (flatten(schema).schema.items as JsonSchema | undefined)
    return value.map((item) => revive(item, items))
  }
  if (typeof value === 'object' && value !== null) {
    const properties = schema ? flatten(schema).properties : {}
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, revive(item, properties[key])]),
    )
  }
  return value
}
