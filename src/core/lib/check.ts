// A request part's check around a compiled validator, int64 exact and with the server's coercion of
// path and query strings. Free of Ajv itself, so that validators compiled ahead of time need no Ajv.
import type { ErrorObject } from 'ajv'
import type { Schema } from '../document.js'
import { integerText, isInt64 } from './int64.js'

/** A compiled JSON Schema validator, as Ajv compiles one at run time or ahead of time. */
export type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }

export type Check = ((data: unknown) => boolean | { value: unknown }) & { errors?: ErrorObject[] | null }

/** The part of Fastify's route schema definition a compiler reads; the in-process handlers pass it too. */
export interface SchemaDef {
  schema: Schema
  httpPart?: string
}

/**
 * The check of one part of a request: bodies keep their types; params and query strings are coerced
 * exactly. `validator` gives the compiled validator when first needed.
 */
export function checkOf({ schema, httpPart }: SchemaDef, validator: () => Validate): Check {
  let compiled: Validate | undefined
  const coerce = httpPart === 'params' || httpPart === 'querystring'
  const check: Check = (data) => {
    const input = coerce ? coerceStrings(schema, data) : data
    const seen = validatable(input)
    compiled ??= validator()
    const ok = compiled(seen)
    check.errors = compiled.errors
    if (!ok || !coerce) return ok
    // Defaults were filled into the copy Ajv saw; carry them back to what handlers get.
    if (seen !== input && isRecord(seen) && isRecord(input)) {
      for (const [key, value] of Object.entries(seen)) if (!(key in input)) input[key] = value
    }
    return { value: input }
  }
  return check
}

/**
 * What Ajv validates in place of a value holding bigints: Ajv knows no bigint, so an in-range one
 * stands in as the largest safe integer of its sign, and an out-of-range one as an unsafe number
 * that the int64 format rejects. Returns the value itself when it holds no bigint.
 */
export function validatable(value: unknown): unknown {
  if (typeof value === 'bigint') {
    if (!isInt64(value)) return Number(value)
    return value < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER
  }
  if (Array.isArray(value)) {
    const items = value.map(validatable)
    return items.some((item, i) => item !== value[i]) ? items : value
  }
  if (isRecord(value)) {
    let copy: Record<string, unknown> | undefined
    for (const [key, item] of Object.entries(value)) {
      const seen = validatable(item)
      if (seen !== item) {
        copy ??= { ...value }
        copy[key] = seen
      }
    }
    return copy ?? value
  }
  return value
}

const numberText = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/** Turns the strings of a path or query string into the numbers its schema asks for, digit for digit. */
function coerceStrings(schema: Schema, data: unknown): unknown {
  if (!isRecord(data)) return data
  const out: Record<string, unknown> = { ...data }
  for (const [key, value] of Object.entries(out)) {
    const type = (schema.properties?.[key] as Schema | undefined)?.type
    if (typeof value !== 'string') continue
    if (type === 'integer' && integerText.test(value)) {
      const n = Number(value)
      out[key] = Number.isSafeInteger(n) ? n : BigInt(value)
    } else if (type === 'number' && numberText.test(value)) {
      out[key] = Number(value)
    }
  }
  return out
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
