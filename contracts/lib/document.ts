// Reads the document (the one @plant-store/core ships, or a file) into the plain shapes the contract
// layers, the verifier and the Dredd runner work from.
import SwaggerParser from '@apidevtools/swagger-parser'
import {
  dereference,
  listOperations,
  type Document as OpenApiDocument,
  document as shipped,
} from '@plant-store/core'

// The subset of a dereferenced OpenAPI 3.1 document this suite reads. Our own types rather than
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
  components?: { schemas?: Record<string, JsonSchema> }
}

export interface LoadedDocument {
  document: Document
  operations: OperationEntry[]
}

/** The document at `path`, checked against the OpenAPI 3.1 schema; without a path, the shipped one. */
export async function loadDocument(path?: string): Promise<LoadedDocument> {
  // validate() both checks the document against the OpenAPI 3.1 schema and dereferences it; the
  // shipped document was checked when it was generated.
  const document =
    path === undefined ? dereference(structuredClone(shipped)) : await SwaggerParser.validate(path)
  // The server's own reading of the operations, seen through this suite's plainer types.
  const operations = listOperations(document as OpenApiDocument) as unknown as OperationEntry[]
  return { document: document as unknown as Document, operations }
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

/** The lowest documented 2xx status: the one Prism answers a valid request with when no Prefer says otherwise. */
export function lowestSuccess(entry: OperationEntry): number | undefined {
  return documentedStatuses(entry)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b)[0]
}

export { type FlatSchema, flatten } from '@plant-store/core'
