// Parses JSON request bodies without losing digits: integers beyond 2^53 become bigint, so int64 ids are exact.
import { parse as parseLossless } from 'lossless-json'
import sjson from 'secure-json-parse'
import { HttpError } from './errors.js'

// Only a body with 16 or more digits in a row can hold an unsafe integer; the rest take the fast path.
const longDigits = /\d{16}/
const integerToken = /^-?\d+$/

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new HttpError(400, 'body must not be empty when the content type is application/json')
  }
  try {
    if (!longDigits.test(text)) return sjson.parse(text, { protoAction: 'error', constructorAction: 'error' })
    const value = parseLossless(text, null, {
      parseNumber: toNumber,
      // JSON.parse keeps the last of duplicate keys; the slow path must not differ from the fast one.
      onDuplicateKey: ({ newValue }) => newValue,
    })
    if (typeof value === 'object' && value !== null) {
      sjson.scan(value, { protoAction: 'error', constructorAction: 'error' })
    }
    return value
  } catch (error) {
    throw new HttpError(400, `body is not valid JSON: ${(error as Error).message}`)
  }
}

function toNumber(token: string): number | bigint {
  const value = Number(token)
  return integerToken.test(token) && !Number.isSafeInteger(value) ? BigInt(token) : value
}
