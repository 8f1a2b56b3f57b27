// What the broker keeps of a contract or a document: its text in one canonical form (keys sorted), so
// that the same content published twice is stored once, under the hash of that text; and that text read
// back.
import { createHash } from 'node:crypto'
import {
  type ConsumerContract,
  type Document,
  dereference,
  HttpError,
  parseContract,
  serializeContract,
} from '@plant-store/core'
import type { Sql } from './db.js'

export const hashOf = (text: string) => createHash('sha256').update(text).digest('hex')

/** A hash as people read it: its first 12 digits. */
export const short = (hash: string) => hash.slice(0, 12)

/** A contract read from a request body: 400 in the Error shape when it is not one. */
export function readContract(text: string): { contract: ConsumerContract; text: string } {
  try {
    const contract = parseContract(text, 'the body')
    return { contract, text: serializeContract(contract) }
  } catch (error) {
    throw new HttpError(400, (error as Error).message)
  }
}

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
        )
      : value

/** A store's document from a request body (JSON): 400 when it is not an OpenAPI 3.1 document. */
export function readDocument(text: string): { document: Document; text: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `the body is not JSON: ${(error as Error).message}`)
  }
  const wrong = (what: string) => new HttpError(400, `the body is not an OpenAPI 3.1 document: ${what}`)
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw wrong('it is not a JSON object')
  const doc = value as Record<string, unknown>
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1'))
    throw wrong(`its "openapi" is ${JSON.stringify(doc.openapi)}, not 3.1.x`)
  const info = doc.info as Record<string, unknown> | undefined
  if (typeof info?.title !== 'string' || typeof info.version !== 'string')
    throw wrong('"info" must have a title and a version')
  if (doc.paths === null || typeof doc.paths !== 'object' || Array.isArray(doc.paths))
    throw wrong('"paths" must be an object')
  try {
    dereference(structuredClone(doc))
  } catch (error) {
    throw wrong((error as Error).message)
  }
  return { document: doc as unknown as Document, text: JSON.stringify(sorted(doc)) }
}

/**
 * Up to three places, as JSON pointers, where two values differ: what a 409 names when a version is
 * published again with other content.
 */
export function differences(a: unknown, b: unknown, at = '', found: string[] = []): string[] {
  if (found.length >= 3) return found
  const isObject = (v: unknown) => v !== null && typeof v === 'object'
  if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b)) {
    const left = a as Record<string, unknown>
    const right = b as Record<string, unknown>
    for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort())
      differences(left[key], right[key], `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found)
  } else if (JSON.stringify(a, big) !== JSON.stringify(b, big)) found.push(at || '/')
  return found
}

const big = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)

/** A stored document, read back and dereferenced, as the judge takes it. */
export const documentOf = (text: string): Document => dereference(JSON.parse(text) as Document)

/** A stored contract or document by its hash; 404 when the store has none. */
export async function storedContent(
  sql: Sql,
  hash: string,
): Promise<{ kind: 'contract' | 'document'; body: string }> {
  const [row] = await sql.all<{ kind: 'contract' | 'document'; body: string }>(
    'SELECT kind, body FROM contents WHERE hash = ?',
    [hash],
  )
  if (!row) throw new HttpError(404, `there is no contract or document with the hash ${hash}`)
  return row
}
