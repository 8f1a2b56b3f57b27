// JSON read and written without losing a digit: integers as bigint, other numbers as their exact text;
// and one canonical text per value, what two answers are compared by.
import { LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json'

const integerToken = /^-?\d+$/

/**
 * Parses JSON without losing digits: integers become bigint, other numbers keep their exact text. Of
 * duplicate keys the last counts, as JSON.parse and the document have it.
 */
export function parseExact(text: string): unknown {
  return parseLossless(text, null, {
    parseNumber: (token) => (integerToken.test(token) ? BigInt(token) : new LosslessNumber(token)),
    onDuplicateKey: ({ newValue }) => newValue,
  })
}

/** JSON text with bigints as digits. */
export const jsonText = (value: unknown): string => stringifyLossless(value) ?? 'undefined'

/** One text per value, whatever the order of its keys: what two values are compared by. */
export function canonical(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted)
    if (v && typeof v === 'object' && !(v instanceof LosslessNumber)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      )
    }
    return v
  }
  return jsonText(sorted(value))
}
