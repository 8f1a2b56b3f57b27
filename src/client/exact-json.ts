// JSON with int64 kept exact, guided by the document: on reading, every integer a schema types int64
// becomes a bigint (whatever its size, so a field is never sometimes a number) and every other number
// a number; on writing, a bigint is written as its digits.

import { isLosslessNumber, parse, stringify } from 'lossless-json'

/** Where a JSON value holds int64s, as `npm run generate` reads it off the document's schemas. */
export type Int64Shape = 'int64' | { items?: Int64Shape; properties?: Record<string, Int64Shape> }

export function parseExact(text: string, shape: Int64Shape | undefined): unknown {
  return revive(parse(text), shape)
}

export const stringifyExact = (value: unknown): string => stringify(value) ?? ''

function revive(value: unknown, shape: Int64Shape | undefined): unknown {
  if (isLosslessNumber(value)) return shape === 'int64' ? BigInt(value.value) : value.valueOf()
  const inner = typeof shape === 'object' ? shape : undefined
  if (Array.isArray(value)) return value.map((item) => revive(item, inner?.items))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, revive(item, inner?.properties?.[key])]),
    )
  }
  return value
}
