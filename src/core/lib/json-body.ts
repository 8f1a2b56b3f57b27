// Parses JSON request bodies without losing digits: an integer beyond 2^53, however it is written
// (`9007199254740993`, `1e18`, `9007199254740993.0`), becomes a bigint, so int64 ids are exact.
// Keys that would reach a prototype in a careless reader (`__proto__`, `constructor.prototype`) are
// unknown keys like any other: the document allows them, and they are dropped.
import { parse as parseLossless } from 'lossless-json'
import sjson from 'secure-json-parse'
import { HttpError } from './errors.js'

// Only a body with 16 or more digits in a row, or a number with a fraction or an exponent, can hold
// an integer JSON.parse would round: only such a body is read again by the exact reader.
// Stryker disable next-line Regex: equivalent: a body the pattern sends to the exact reader as well is read to the same values, JSON.parse having read it first; only the time taken changes.
const mayRound = /\d{16}|\d[.eE]/
/**
 * Objects and arrays within each other, at most: the exact reader recurses, and this is far below
 * where its stack would overflow, and as deep as the readers of many stacks go (Python's, Jackson's).
 */
export const JSON_DEPTH_LIMIT = 1000
// Matched against one JSON number token, from its start to its end: it needs no anchors.
const numberToken = /(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/
const secure = { protoAction: 'remove', constructorAction: 'remove' } as const
// Only an escape can write a surrogate: UTF-8 has no bytes for one.
const surrogateEscape = /\\u[dD][89a-fA-F]/

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new HttpError(400, 'body must not be empty when the content type is application/json')
  }
  let value: unknown
  try {
    // JSON.parse first, whatever the body: what is not JSON is refused in its words, and a body nested
    // too deep is refused before the exact reader, which recurses, would overflow its stack on it.
    value = sjson.parse(text, secure)
  } catch (error) {
    throw new HttpError(400, `body is not valid JSON: ${(error as Error).message}`)
  }
  if (nestedPast(value, JSON_DEPTH_LIMIT))
    throw new HttpError(400, `body is nested more than ${JSON_DEPTH_LIMIT} levels deep`)
  // Stryker disable next-line ConditionalExpression: equivalent: the exact reader gives every body JSON.parse read the same values, but for the integers JSON.parse rounds, which only a body the pattern matches holds (the mark also covers the killed twin that never reads exactly).
  if (mayRound.test(text)) {
    value = parseLossless(text, null, {
      parseNumber: toNumber,
      // JSON.parse keeps the last of duplicate keys; the slow path must not differ from the fast one.
      onDuplicateKey: ({ newValue }) => newValue,
    })
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,CallExpression: equivalent: lossless-json makes a `__proto__` or `constructor` key an own property (never a prototype), and every reader of a body takes only its named fields (pickPlant), so no answer changes with it left in; a top-level null never takes this path (it has no digits).
    if (typeof value === 'object' && value !== null) sjson.scan(value, secure)
  }
  // JSON lets `\ud800` stand alone; no store can keep it, so it would not read back as sent.
  if (surrogateEscape.test(text) && !unicodeText(value)) {
    throw new HttpError(
      400,
      'body holds a string that is not Unicode text (a lone surrogate escape such as \\ud800)',
    )
  }
  return value
}

/** Whether objects and arrays lie within each other more than `levels` deep, counting `value` as one. */
function nestedPast(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false
  return levels === 0 || Object.values(value).some((item) => nestedPast(item, levels - 1))
}

const loneSurrogate = /[\ud800-\udfff]/
const pairs = /[\ud800-\udbff][\udc00-\udfff]/g

/** Whether a string is well-formed UTF-16 (no lone surrogate), so storable as Unicode text. */
// Stryker disable next-line StringLiteral: equivalent: the pairs replaced by any text without a surrogate leave the same lone ones.
export const isUnicodeText = (text: string): boolean => !loneSurrogate.test(text.replace(pairs, ''))

/** Whether every string and key in the value is Unicode text. */
function unicodeText(value: unknown): boolean {
  if (typeof value === 'string') return isUnicodeText(value)
  // An array's entries are its items under index keys; a number's, a bigint's and a boolean's, none.
  return (
    value === null ||
    Object.entries(value as object).every(([key, item]) => isUnicodeText(key) && unicodeText(item))
  )
}

/** The token's value: exact as a bigint when it is an integer a number cannot hold, else a number. */
export function toNumber(token: string): number | bigint {
  const value = Number(token)
  if (Number.isSafeInteger(value) || !Number.isFinite(value)) return value
  // A JSON number token always matches, its sign and whole part included.
  const [, sign, whole, fraction = '', exponent] = numberToken.exec(token) as RegExpExecArray
  // The digits without the point (BigInt reads the leading zeros a fraction brings), and how far the
  // point must move to the right. The exponent as written may be any size (`0.000…1e409` is 1): a
  // finite value is at least its digits times ten to the shift, so the shift stays under 309.
  const digits = `${whole}${fraction}`
  const shift = Number(exponent ?? 0) - fraction.length
  // Where the point falls: before the first digit at most (`100e-4` is 0.01, and keeps no digit).
  const point = Math.max(digits.length + shift, 0)
  // A fraction that is not all zeros: not an integer, and a number says so well enough. Were every
  // digit dropped, they would all be zeros only for 0, a safe integer: some digit is always kept.
  if (/[1-9]/.test(digits.slice(point))) return value
  return BigInt(`${sign}${digits.slice(0, point)}`) * 10n ** BigInt(Math.max(shift, 0))
}
