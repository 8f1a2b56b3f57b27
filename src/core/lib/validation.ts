// Validates requests with the document's own JSON Schemas (2020-12, as OpenAPI 3.1 uses), int64 kept exact.
import type { ErrorObject, ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { Schema } from '../document.js'
import { integerText, isInt64 } from './int64.js'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

export function createAjv(): Ajv2020 {
  // strict off: OpenAPI schemas may carry keywords JSON Schema does not know (example, xml, x-…).
  // validateSchema off: checking each schema against the 2020-12 meta-schema cost 300 ms on the first
  // compile; the document's schemas are checked where it is validated, in `npm test` (swagger-parser
  // and Redocly), not on every start.
  const ajv = new Ajv2020({ strict: false, useDefaults: true, coerceTypes: false, validateSchema: false })
  addFormats(ajv)
  // Ajv sees int64 values through validatable(): every in-range value arrives as a safe integer.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) })
  return ajv
}

export type Check = ((data: unknown) => boolean | { value: unknown }) & { errors?: ErrorObject[] | null }

/** The part of Fastify's route schema definition a compiler reads; the in-process handlers pass it too. */
export interface SchemaDef {
  schema: Schema
  httpPart?: string
}

/** Fastify's validator compiler: bodies keep their types; params and query strings are coerced exactly. */
export function validatorCompiler(ajv: Ajv2020): (route: SchemaDef) => Check {
  return ({ schema, httpPart }) => {
    // Compiled on first use, not at start: Ajv's code generation for every route was a fifth of start-up.
    let compiled: ValidateFunction | undefined
    const coerce = httpPart === 'params' || httpPart === 'querystring'
    const check: Check = (data) => {
      const input = coerce ? coerceStrings(schema, data) : data
      const seen = validatable(input)
      compiled ??= ajv.compile(schema)
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
