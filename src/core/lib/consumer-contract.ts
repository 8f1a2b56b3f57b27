// A consumer contract: the part of the document one frontend used in its own tests, in the document's
// own shape (paths, operations, parameters, bodies, responses), so that the compatibility gate judges a
// new document against it with the same comparison it runs against a released document. Request
// schemas hold what the consumer sent (the types its values had, the bounds they reached, the fields
// it always sent as required); response schemas hold what it read, as the document described it.
// Pure and browser-safe: the handlers record and join contracts in a page too.
import { parse, stringify } from 'lossless-json'
import type { Document, Method, SecurityRequirement } from '../document.js'

export const CONTRACT_FORMAT = 'plant-store-consumer-contract/1'

export type JsonSchema = Record<string, unknown>

export interface ContractParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  /** Sent with every request the consumer made to the operation. */
  required: boolean
  /** What its values were: their types, and the bounds they reached. */
  schema: JsonSchema
}

export interface ContractMedia {
  schema: JsonSchema
}

export interface ContractResponse {
  /** The documented headers the consumer received with this status, as the document describes them. */
  headers?: Record<string, { required?: boolean; schema?: JsonSchema }>
  /** The body's properties the consumer read, as the document describes them. */
  content?: Record<string, ContractMedia>
}

export interface ContractOperation {
  operationId: string
  /** The operation's security as the document had it: the credentials the consumer presents. */
  security: SecurityRequirement[]
  /**
   * Present once the document accepted a request of the consumer's (an empty list when it sent no
   * parameter); absent when every request it made was refused, so that nothing is known of its shape.
   */
  parameters?: ContractParameter[]
  requestBody?: { required: boolean; content: Record<string, ContractMedia> }
  /** Every status the consumer received, by status code. */
  responses: Record<string, ContractResponse>
}

export interface ConsumerContract {
  format: typeof CONTRACT_FORMAT
  /** The consumer's name: its package.json name, unless configured. */
  consumer: string
  /** The document the handlers served while the contract was recorded. */
  document: { title: string; version: string }
  paths: Record<string, Partial<Record<Method, ContractOperation>>>
  /** The security schemes the operations' security names, as the document defines them. */
  securitySchemes: Record<string, unknown>
}

export type Direction = 'request' | 'response'

export const emptyContract = (
  consumer: string,
  document: ConsumerContract['document'],
): ConsumerContract => ({
  format: CONTRACT_FORMAT,
  consumer,
  document,
  paths: {},
  securitySchemes: {},
})

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// ---- Joining: what two recordings saw together ---------------------------------------------------

const lowerBounds = ['minimum', 'minLength', 'minItems']
const upperBounds = ['maximum', 'maxLength', 'maxItems']

/** The JSON types a contract's schema names (one, several, or none when it names no type). */
export const schemaTypes = (schema: JsonSchema): string[] =>
  schema.type === undefined
    ? []
    : Array.isArray(schema.type)
      ? (schema.type as string[])
      : [String(schema.type)]

/**
 * Two schemas of one place, joined. A request schema holds values sent: its types are united, its
 * bounds widened, a property required only where both sides always sent it. A response schema holds
 * what was read of the document's own schema: its properties and required names are united.
 */
export function joinSchemas(a: JsonSchema, b: JsonSchema, direction: Direction): JsonSchema {
  const out: JsonSchema = { ...b, ...a }
  const types = [...new Set([...schemaTypes(a), ...schemaTypes(b)])].sort()
  if (types.length > 0) out.type = types.length === 1 ? types[0] : types
  if (direction === 'request') {
    for (const key of lowerBounds) widen(out, key, a[key], b[key], (x, y) => (x <= y ? x : y))
    for (const key of upperBounds) widen(out, key, a[key], b[key], (x, y) => (x >= y ? x : y))
  }
  const objects = [a, b].filter((s) => isRecord(s.properties))
  if (objects.length > 0) {
    const properties: Record<string, JsonSchema> = {}
    for (const side of objects)
      for (const [name, schema] of Object.entries(side.properties as Record<string, JsonSchema>))
        properties[name] = properties[name] ? joinSchemas(properties[name], schema, direction) : schema
    out.properties = properties
    const required = objects.map((s) => new Set((s.required as string[] | undefined) ?? []))
    const names = Object.keys(properties).filter((name) =>
      direction === 'request' ? required.every((r) => r.has(name)) : required.some((r) => r.has(name)),
    )
    // Present only when it names something, so that a joined schema reads as a recorded one does.
    if (names.length > 0) out.required = names.sort()
    else delete out.required
  }
  if (isRecord(a.items) && isRecord(b.items)) out.items = joinSchemas(a.items, b.items, direction)
  return out
}

type Bound = number | bigint
function widen(out: JsonSchema, key: string, x: unknown, y: unknown, pick: (x: Bound, y: Bound) => Bound) {
  const bound = (v: unknown): v is Bound => typeof v === 'number' || typeof v === 'bigint'
  if (bound(x) && bound(y)) out[key] = pick(x, y)
  else if (bound(x) || bound(y)) out[key] = bound(x) ? x : y
}

function joinParameters(a?: ContractParameter[], b?: ContractParameter[]): ContractParameter[] | undefined {
  if (!a || !b) return a ?? b
  const key = (p: ContractParameter) => `${p.in}:${p.name}`
  const other = new Map(b.map((p) => [key(p), p]))
  const out = a.map((p) => {
    const q = other.get(key(p))
    other.delete(key(p))
    // A parameter one side never sent was left out of some request: not required.
    return q
      ? { ...p, required: p.required && q.required, schema: joinSchemas(p.schema, q.schema, 'request') }
      : { ...p, required: false }
  })
  for (const q of other.values()) out.push({ ...q, required: false })
  return out.sort((p, q) => (key(p) < key(q) ? -1 : key(p) > key(q) ? 1 : 0))
}

function joinOperations(a: ContractOperation, b: ContractOperation): ContractOperation {
  const out: ContractOperation = { ...a, responses: { ...b.responses } }
  const parameters = joinParameters(a.parameters, b.parameters)
  if (parameters) out.parameters = parameters
  // Only a side that saw an accepted request knows whether the body was always sent.
  const [x, y] = [a.parameters ? a.requestBody : b.requestBody, b.parameters ? b.requestBody : a.requestBody]
  delete out.requestBody
  if (x || y) {
    const content: Record<string, ContractMedia> = { ...y?.content }
    for (const [type, media] of Object.entries(x?.content ?? {}))
      content[type] = content[type]
        ? { schema: joinSchemas(media.schema, content[type].schema, 'request') }
        : media
    out.requestBody = { required: (x?.required ?? false) && (y?.required ?? false), content }
  }
  for (const [status, response] of Object.entries(a.responses)) {
    const seen = out.responses[status]
    out.responses[status] = seen ? joinResponses(response, seen) : response
  }
  return out
}

function joinResponses(a: ContractResponse, b: ContractResponse): ContractResponse {
  const out: ContractResponse = {}
  const headers = { ...b.headers, ...a.headers }
  if (Object.keys(headers).length > 0) out.headers = headers
  const content: Record<string, ContractMedia> = { ...b.content }
  for (const [type, media] of Object.entries(a.content ?? {}))
    content[type] = content[type]
      ? { schema: joinSchemas(media.schema, content[type].schema, 'response') }
      : media
  if (Object.keys(content).length > 0) out.content = content
  return out
}

/** Two recordings of one consumer, joined: every operation, status, value and read of either. */
export function joinContracts(a: ConsumerContract, b: ConsumerContract): ConsumerContract {
  if (a.consumer !== b.consumer)
    throw new Error(
      `consumer contracts of ${a.consumer} and ${b.consumer} cannot be joined: they are two consumers`,
    )
  const paths: ConsumerContract['paths'] = structuredClone(b.paths)
  for (const [path, item] of Object.entries(a.paths)) {
    const into = paths[path] ?? {}
    paths[path] = into
    for (const [method, operation] of Object.entries(item) as [Method, ContractOperation][]) {
      const seen = into[method]
      into[method] = seen ? joinOperations(operation, seen) : operation
    }
  }
  return { ...a, paths, securitySchemes: { ...b.securitySchemes, ...a.securitySchemes } }
}

// ---- Reading and writing --------------------------------------------------------------------------

/** Object keys sorted at every depth, so that the same contract is the same text on every run. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (!isRecord(value)) return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => [key, sorted(value[key])]),
  )
}

/** The contract as its file holds it: keys sorted, two-space indents, an int64 written digit for digit. */
export const serializeContract = (contract: ConsumerContract): string =>
  `${stringify(sorted(contract), null, 2)}\n`

/** A number of the file: an integer a number cannot hold as a bigint, every digit kept. */
function exactNumber(text: string): number | bigint {
  const value = Number(text)
  return Number.isSafeInteger(value) || !/^-?\d+$/.test(text) ? value : BigInt(text)
}

/**
 * A contract read from its file's text: integers beyond 2^53 as bigints, every digit kept. Throws an
 * error naming `source` and what is wrong when the text is not a consumer contract.
 */
export function parseContract(text: string, source = 'the consumer contract'): ConsumerContract {
  let value: unknown
  try {
    value = parse(text, null, exactNumber)
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`)
  }
  const wrong = (what: string) => new Error(`${source} is not a consumer contract: ${what}`)
  if (!isRecord(value)) throw wrong('it is not a JSON object')
  if (value.format !== CONTRACT_FORMAT)
    throw wrong(`its "format" is ${JSON.stringify(value.format)}, not "${CONTRACT_FORMAT}"`)
  if (typeof value.consumer !== 'string' || value.consumer === '') throw wrong('it names no "consumer"')
  const document = value.document
  if (!isRecord(document) || typeof document.title !== 'string' || typeof document.version !== 'string')
    throw wrong('"document" must name the title and version of the document it was recorded against')
  if (!isRecord(value.paths)) throw wrong('"paths" must be an object')
  for (const [path, item] of Object.entries(value.paths)) {
    if (!isRecord(item)) throw wrong(`paths["${path}"] must be an object`)
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`
      if (!isRecord(operation) || typeof operation.operationId !== 'string')
        throw wrong(`${where} must be an operation with its operationId`)
      if (!isRecord(operation.responses))
        throw wrong(`${where} must list the statuses received under "responses"`)
      if (!Array.isArray(operation.security)) throw wrong(`${where} must have its "security" (a list)`)
      if (operation.parameters !== undefined && !Array.isArray(operation.parameters))
        throw wrong(`${where}'s "parameters" must be a list`)
    }
  }
  if (value.securitySchemes !== undefined && !isRecord(value.securitySchemes))
    throw wrong('"securitySchemes" must be an object')
  return { securitySchemes: {}, ...value } as unknown as ConsumerContract
}

/** Every operation of a contract, with its method and path. */
export function contractOperations(
  contract: ConsumerContract,
): { method: Method; path: string; operation: ContractOperation }[] {
  return Object.entries(contract.paths).flatMap(([path, item]) =>
    (Object.entries(item) as [Method, ContractOperation][]).map(([method, operation]) => ({
      method,
      path,
      operation,
    })),
  )
}

/**
 * The contract as an OpenAPI document, for comparing with another document: the consumer's view of
 * the one it was recorded against. Bounds beyond 2^53 become numbers, as a YAML document's are.
 */
export function contractDocument(contract: ConsumerContract): Document {
  const numbers = (value: unknown): unknown =>
    typeof value === 'bigint'
      ? Number(value)
      : Array.isArray(value)
        ? value.map(numbers)
        : isRecord(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbers(v)]))
          : value
  return {
    openapi: '3.1.0',
    info: { title: contract.consumer, version: contract.document.version },
    paths: numbers(contract.paths) as Document['paths'],
    components: { securitySchemes: contract.securitySchemes as never },
  }
}

/**
 * The properties a response schema of a contract says were read, as paths: `name`, `[].id` (a
 * property of each item of a list), `owner.name`.
 */
export function readPaths(schema: JsonSchema | undefined, prefix = ''): string[] {
  if (!schema) return []
  const out: string[] = []
  for (const [name, inner] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name
    const below = readPaths(inner, path)
    out.push(...(below.length ? below : [path]))
  }
  if (isRecord(schema.items)) {
    const path = prefix ? `${prefix}[]` : '[]'
    const below = readPaths(schema.items, path)
    out.push(...(below.length ? below : []))
  }
  return out
}
