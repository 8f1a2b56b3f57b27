// Parses JSON request bodies without losing digits: an integer beyond 2^53, however it is written
// (`9007199254740993`, `1e18`, `9007199254740993.0`), becomes a bigint, so int64 ids are exact.
// Keys that would reach a prototype in a careless reader (`__proto__`, `constructor.prototype`) are
// unknown keys like any other: the document allows them, and they are dropped.
import { parse as parseLossless } from 'lossless-json'
import sjson from 'secure-json-parse'
import { HttpError } from './errors.js'

// Only a body with 16 or more digits in a row, or a number with a fraction or an exponent, can hold
// an integer JSON.parse would round; the rest take the fast path.
const mayRound = /\d{16}|\d[.eE]/
const numberToken = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/
const secure = { protoAction: 'remove', constructorAction: 'remove' } as const
// Only an escape can write a surrogate: UTF-8 has no bytes for one.
const surrogateEscape = /\\u[dD][89a-fA-F]/

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new HttpError(400, 'body must not be empty when the content type is application/json')
  }
  let value: unknown
  try {
    if (!mayRound.test(text)) value = sjson.parse(text, secure)
    else {
      value = parseLossless(text, null, {
        parseNumber: toNumber,
        // JSON.parse keeps the last of duplicate keys; the slow path must not differ from the fast one.
        onDuplicateKey: ({ newValue }) => newValue,
      })
      if (typeof value === 'object' && value !== null) sjson.scan(value, secure)
    }
  } catch (error) {
    throw new HttpError(400, `body is not valid JSON: ${(error as Error).message}`)
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

const loneSurrogate = /[\ud800-\udfff]/
const pairs = /[\ud800-\udbff][\udc00-\udfff]/g

/** Whether a string is well-formed UTF-16 (no lone surrogate), so storable as Unicode text. */
export const isUnicodeText = (text: string): boolean => !loneSurrogate.test(text.replace(pairs, ''))

/** Whether every string and key in the value is Unicode text. */
function unicodeText(value: unknown): boolean {
  if (typeof value === 'string') return isUnicodeText(value)
  if (Array.isArray(value)) return value.every(unicodeText)
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([key, item]) => isUnicodeText(key) && unicodeText(item))
  }
  return true
}

/** The token's value: exact as a bigint when it is an integer a number cannot hold, else a number. */
export function toNumber(token: string): number | bigint {
  const value = Number(token)
  if (Number.isSafeInteger(value) || !Number.isFinite(value)) return value
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = numberToken.exec(token) ?? []
  const exponent = Number(exponentText)
  // Far beyond int64 either way: the number (rounded, or Infinity) fails validation as it should.
  if (Math.abs(exponent) > 400) return value
  // The digits without the point, and how far the point must move to the right.
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '')
  const shift = exponent - fraction.length
  if (shift >= 0) return BigInt(`${sign}${digits}${'0'.repeat(shift)}`)
  const kept = digits.slice(0, digits.length + shift)
  const dropped = digits.slice(digits.length + shift)
  // A fraction that is not all zeros: not an integer, and a number says so well enough.
  if (/[1-9]/.test(dropped)) return value
  return BigInt(`${sign}${kept || '0'}`)
}
