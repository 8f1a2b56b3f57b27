// Reads the document (the one @plant-store/core ships, or a file) into the plain shapes the verifier's
// layers work from, and a user's own tests through the package's exports.
import SwaggerParser from '@apidevtools/swagger-parser'
import {
  dereference,
  listOperations,
  type Document as OpenApiDocument,
  document as shipped,
} from '@plant-store/core'

// The subset of a dereferenced OpenAPI 3.1 document the verifier reads. Our own types rather than
// openapi-types': after dereferencing there are no $refs left, and strict mode would otherwise ask
// for a ReferenceObject check at every step.
export type JsonSchema = Record<string, unknown>

export interface Example {
  summary?: string
  value?: unknown
  'x-given-plants'?: unknown[]
}

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
  examples?: Record<string, Example>
}

export interface MediaType {
  schema?: JsonSchema
  examples?: Record<string, Example>
}

export interface Header {
  required?: boolean
  schema?: JsonSchema
  description?: string
}

export interface Response {
  description?: string
  headers?: Record<string, Header>
  content?: Record<string, MediaType>
  'x-example-names'?: string[]
}

export interface Operation {
  operationId: string
  summary?: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, MediaType> }
  responses: Record<string, Response>
  security?: Record<string, string[]>[]
}

export interface OperationEntry {
  operationId: string
  method: 'get' | 'put' | 'post' | 'delete' | 'patch'
  /** As the document writes it, e.g. `/plants/{id}`. */
  path: string
  operation: Operation
  /** Path-level and operation-level parameters, the operation's winning on a clash. */
  parameters: Parameter[]
  /** Whether a bearer token is required (the operation's security, else the document's). */
  secured: boolean
}

export interface Document {
  openapi: string
  paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>
  security?: Record<string, string[]>[]
  components?: { schemas?: Record<string, JsonSchema>; examples?: Record<string, Example> }
}

export interface LoadedDocument {
  document: Document
  operations: OperationEntry[]
}

/**
 * Which part of the document to read: `interface`, what every plant store keeps (what the verifier
 * judges by default), or `kit`, the whole document, the kit server's profile included.
 */
export type Profile = 'interface' | 'kit'
export const PROFILES: readonly Profile[] = ['interface', 'kit']

/**
 * The document at `path`, checked against the OpenAPI 3.1 schema; without a path, the shipped one.
 * With the `interface` profile (the default, as a run's), what the kit's server alone does
 * (`x-kit-profile`) is left out.
 */
export async function loadDocument(path?: string, profile: Profile = 'interface'): Promise<LoadedDocument> {
  const raw = (path === undefined ? structuredClone(shipped) : await SwaggerParser.parse(path)) as object
  const chosen = profile === 'interface' ? interfaceOf(raw) : raw
  // validate() both checks the document against the OpenAPI 3.1 schema and dereferences it; the
  // shipped document was checked when it was generated.
  const document =
    path === undefined
      ? dereference(chosen as unknown as OpenApiDocument)
      : await SwaggerParser.validate(chosen as never)
  // The server's own reading of the operations, seen through this suite's plainer types.
  const operations = listOperations(document as OpenApiDocument) as unknown as OperationEntry[]
  return { document: document as unknown as Document, operations }
}

const PROFILE_MARK = 'x-kit-profile'
type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The interface every plant store keeps: the document without the kit server's profile, that is
 * without `info.x-kit-profile` and without every operation, response, header, example, tag and
 * component marked `x-kit-profile: true` (or a reference to one). Pure: the input is not changed.
 */
export function interfaceOf<T extends object>(raw: T): T {
  const marked = (value: unknown): boolean => {
    if (!isObject(value)) return false
    if (value[PROFILE_MARK] === true) return true
    return typeof value.$ref === 'string' && marked(resolve(raw, value.$ref))
  }
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.filter((item) => !marked(item)).map(strip)
    if (!isObject(node)) return node
    const out: Json = {}
    for (const [key, value] of Object.entries(node)) if (!marked(value)) out[key] = strip(value)
    return out
  }
  const document = strip(raw) as Json
  const info = document.info as Json | undefined
  if (info) delete info[PROFILE_MARK]
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']
  for (const container of [document.paths, document.webhooks])
    if (isObject(container))
      for (const [path, item] of Object.entries(container))
        if (isObject(item) && !methods.some((m) => m in item)) delete container[path]
  return document as T
}

/** The value a local reference (`#/components/…`) points to. */
function resolve(document: object, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = document
  for (const token of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined
    node = node[token.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node
}

/** The documented statuses of an operation, as numbers, in the document's order. */
export function documentedStatuses(entry: OperationEntry): number[] {
  return Object.keys(entry.operation.responses)
    .filter((code) => /^\d{3}$/.test(code))
    .map(Number)
}

/** The response object documented for a status: exact code first, then `4XX`, then `default`. */
export function responseFor(entry: OperationEntry, status: number): Response | undefined {
  const responses = entry.operation.responses
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
}

/**
 * The operation a request goes to, by its method and path (its query and a base URL's prefix left
 * out); undefined when the document has none there.
 */
export function operationFor(
  operations: OperationEntry[],
  method: string,
  path: string,
): OperationEntry | undefined {
  const bare = path.split('?')[0] ?? ''
  return operations.find(
    (e) =>
      e.method === method.toLowerCase() &&
      new RegExp(`^${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  )
}

/** The lowest documented 2xx status: the one Prism answers a valid request with when no Prefer says otherwise. */
export function lowestSuccess(entry: OperationEntry): number | undefined {
  return documentedStatuses(entry)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b)[0]
}

export { type FlatSchema, flatten } from '@plant-store/core'
