// Records a consumer contract while the in-process handlers answer a frontend's tests: each exchange's
// operation, status and request shape, and what the app read of each answer: each property the typed
// client reports the app's code read, or, for an answer read some other way, every property received.
import type { Document, OperationEntry } from '../document.js'
import {
  type ConsumerContract,
  type ContractOperation,
  type ContractParameter,
  type ContractResponse,
  emptyContract,
  type JsonSchema,
  joinContracts,
  joinSchemas,
  serializeContract,
} from './consumer-contract.js'

/** What a consumer sent, once the document accepted it. */
export interface SentRequest {
  /** The path parameters and the query parameters it sent, as the document's types read them. */
  params: Record<string, unknown>
  query: Record<string, unknown>
  headers: { get(name: string): string | null }
  /** The body as parsed (int64s beyond 2^53 as bigints); undefined when it sent none. */
  body?: unknown
}

export interface Exchange {
  entry: OperationEntry
  /** Undefined when the request was refused before the document accepted it, or a test forced the answer. */
  sent?: SentRequest
  status: number
  /** The answer's body as the handlers wrote it, or undefined. */
  body?: unknown
  headers: { has(name: string): boolean }
  /** The client reports what the app reads of this answer; otherwise every property received counts. */
  tracked: boolean
}

export interface RecorderOptions {
  consumer: string
  /** Called with the contract and its text each time it gains something. */
  onChange?: (contract: ConsumerContract, text: string) => void
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export class ContractRecorder {
  private contract: ConsumerContract | undefined
  private text = ''
  private readonly documents = new Map<OperationEntry, Document>()
  private readonly reads = new Set<string>()

  constructor(private readonly options: RecorderOptions) {}

  /** The operations of one set of handlers and the document they serve. */
  register(document: Document, operations: OperationEntry[]): void {
    for (const entry of operations) this.documents.set(entry, document)
  }

  /** The contract so far (undefined before the first exchange). */
  get current(): ConsumerContract | undefined {
    return this.contract
  }

  exchange({ entry, sent, status, body, headers, tracked }: Exchange): void {
    const document = this.documents.get(entry)
    if (!document) return
    const [key, documented] = responseOf(entry, status)
    const operation = operationOf(entry)
    if (sent) Object.assign(operation, observeRequest(entry, sent))
    // A status the document does not describe (one a test forced) is nothing a document can keep or drop.
    if (key === undefined || documented === undefined) {
      this.add(entry, document, operation)
      return
    }
    const response: ContractResponse = {}
    const received = Object.entries(documented?.headers ?? {}).filter(([name]) => headers.has(name))
    if (received.length > 0)
      response.headers = Object.fromEntries(
        received.map(([name, header]) => [
          name,
          { ...(header.required === true ? { required: true } : {}), schema: kept(fold(header.schema)) },
        ]),
      )
    if (!tracked && body !== undefined) {
      const media = jsonMedia(documented)
      const schemas = media
        ? pathsOf(body).flatMap((path): JsonSchema[] => {
            const schema = prune(media.schema, path)
            return schema ? [schema] : []
          })
        : []
      if (media && schemas.length > 0)
        response.content = {
          [media.type]: { schema: schemas.reduce((a, b) => joinSchemas(a, b, 'response')) },
        }
    }
    operation.responses[key] = response
    this.add(entry, document, operation)
  }

  /** The app read `property` (`['[]', 'name']`: the name of an item of a list) of an answer. */
  read(method: string, path: string, status: number, property: readonly string[]): void {
    const seen = `${method} ${path} ${status} ${property.join('\u0000')}`
    if (this.reads.has(seen)) return
    this.reads.add(seen)
    const entry = [...this.documents.keys()].find(
      (candidate) => candidate.method === method.toLowerCase() && candidate.path === path,
    )
    const document = entry && this.documents.get(entry)
    if (!entry || !document) return
    const [key, documented] = responseOf(entry, status)
    const media = jsonMedia(documented)
    const schema = media && prune(media.schema, property)
    // A key the document does not describe (then, toJSON, a matcher's own probes) is nothing the app relies on.
    if (key === undefined || !media || !schema) return
    const operation = operationOf(entry)
    operation.responses[key] = { content: { [media.type]: { schema } } }
    this.add(entry, document, operation)
  }

  private add(entry: OperationEntry, document: Document, operation: ContractOperation): void {
    const schemes = (document.components?.securitySchemes ?? {}) as Record<string, unknown>
    const fragment: ConsumerContract = {
      ...emptyContract(this.options.consumer, {
        title: document.info?.title ?? '',
        version: document.info?.version ?? '',
      }),
      paths: { [entry.path]: { [entry.method]: operation } },
      securitySchemes: Object.fromEntries(
        entry.security
          .flatMap((requirement) => Object.keys(requirement))
          .map((name) => [name, schemes[name]]),
      ),
    }
    const contract = this.contract ? joinContracts(this.contract, fragment) : fragment
    const text = serializeContract(contract)
    this.contract = contract
    if (text === this.text) return
    this.text = text
    try {
      this.options.onChange?.(contract, text)
    } catch (error) {
      // Not the answer's business: thrown again on its own, where the test runner reports it.
      queueMicrotask(() => {
        throw error
      })
    }
  }
}

const operationOf = (entry: OperationEntry): ContractOperation => ({
  operationId: entry.operationId,
  security: entry.security,
  responses: {},
})

// ---- The request: what the consumer sent, as the document's types read it -------------------------

// Kept from the document on a request's schema: what its values had to be, beside what they were.
const promised = ['format', 'pattern', 'enum', 'const', 'default']

function observeRequest(
  entry: OperationEntry,
  sent: SentRequest,
): Pick<ContractOperation, 'parameters' | 'requestBody'> {
  const parameters: ContractParameter[] = []
  for (const p of entry.parameters) {
    const value =
      p.in === 'path'
        ? sent.params[p.name]
        : p.in === 'query'
          ? sent.query[p.name]
          : p.in === 'header'
            ? (sent.headers.get(p.name) ?? undefined)
            : undefined
    if (value === undefined) continue
    parameters.push({
      name: p.name,
      in: p.in as ContractParameter['in'],
      required: true,
      schema: observe(value, p.schema),
    })
  }
  parameters.sort((a, b) => (`${a.in}:${a.name}` < `${b.in}:${b.name}` ? -1 : 1))
  const out: Pick<ContractOperation, 'parameters' | 'requestBody'> = { parameters }
  const body = (entry.operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)
    ?.content
  const type = Object.keys(body ?? {}).find((name) => /json/i.test(name))
  if (sent.body !== undefined && type)
    out.requestBody = {
      required: true,
      content: { [type]: { schema: observe(sent.body, body?.[type]?.schema) } },
    }
  return out
}

/** A value's schema: its type, the bounds it reaches (its own length, size or count), the document's promises. */
export function observe(value: unknown, documented: unknown): JsonSchema {
  const schema = fold(documented)
  const out: JsonSchema = {}
  for (const key of promised) if (schema[key] !== undefined) out[key] = schema[key]
  if (value === null) out.type = 'null'
  else if (typeof value === 'string') {
    // JSON Schema counts characters (code points), not UTF-16 units.
    const length = [...value].length
    Object.assign(out, { type: 'string', minLength: length, maxLength: length })
  } else if (typeof value === 'bigint' || typeof value === 'number') {
    const integer = typeof value === 'bigint' || Number.isInteger(value)
    Object.assign(out, { type: integer ? 'integer' : 'number', minimum: value, maximum: value })
  } else if (typeof value === 'boolean') out.type = 'boolean'
  else if (Array.isArray(value)) {
    Object.assign(out, { type: 'array', minItems: value.length, maxItems: value.length })
    if (value.length > 0)
      out.items = value
        .map((item) => observe(item, schema.items))
        .reduce((a, b) => joinSchemas(a, b, 'request'))
  } else if (isRecord(value)) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>
    const extra = isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined
    out.type = 'object'
    out.properties = Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, observe(item, properties[name] ?? extra)]),
    )
    const names = Object.keys(value).sort()
    if (names.length > 0) out.required = names
    // What the consumer sends is all it sends: a document that refuses other fields refuses none of these.
    out.additionalProperties = false
  }
  return out
}

// ---- The answer: the document's description of what the consumer read -----------------------------

const constraints = [
  'type',
  'format',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]

const kept = (schema: JsonSchema): JsonSchema =>
  Object.fromEntries(constraints.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]]))

/** The document's schema narrowed to one path read (`['[]', 'name']`), or undefined where it describes none. */
export function prune(documented: unknown, path: readonly string[]): JsonSchema | undefined {
  const schema = fold(documented)
  const out = kept(schema)
  const [step, ...rest] = path
  if (step === undefined) return out
  if (step === '[]') {
    const items = isRecord(schema.items) ? prune(schema.items, rest) : undefined
    return items && { ...out, items }
  }
  const properties = schema.properties
  if (!isRecord(properties) || !Object.hasOwn(properties, step)) return undefined
  const inner = prune(properties[step], rest)
  if (!inner) return undefined
  const required = Array.isArray(schema.required) && schema.required.includes(step)
  return { ...out, properties: { [step]: inner }, ...(required ? { required: [step] } : {}) }
}

/** Every property path a value holds: `name`, `[]` then `[].name` for a list's items. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (Array.isArray(value)) {
    const paths = value.flatMap((item) => pathsOf(item, [...prefix, '[]']))
    return paths.length > 0 ? paths : prefix.length > 0 ? [prefix] : []
  }
  if (isRecord(value)) {
    const paths = Object.entries(value).flatMap(([name, item]) => pathsOf(item, [...prefix, name]))
    return paths.length > 0 ? paths : prefix.length > 0 ? [prefix] : []
  }
  return prefix.length > 0 ? [prefix] : []
}

/** A schema with its allOf folded in: properties merged, required united, any other keyword's first value. */
function fold(schema: unknown, depth = 0): JsonSchema {
  if (!isRecord(schema)) return {}
  if (!Array.isArray(schema.allOf) || depth > 32) return schema
  const { allOf, ...own } = schema
  const out: JsonSchema = { ...own }
  for (const part of (allOf as unknown[]).map((inner) => fold(inner, depth + 1))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') out.properties = { ...(value as object), ...(out.properties as object) }
      else if (key === 'required')
        out.required = [...new Set([...((out.required as string[]) ?? []), ...(value as string[])])]
      else if (!(key in out)) out[key] = value
    }
  }
  return out
}

interface ResponseObject {
  headers?: Record<string, { required?: boolean; schema?: unknown }>
  content?: Record<string, { schema?: unknown }>
}

/** The document's response for a status, and its key: its own, else its range's (`4XX`), else `default`. */
function responseOf(entry: OperationEntry, status: number): [string | undefined, ResponseObject | undefined] {
  const responses = (entry.operation.responses ?? {}) as Record<string, ResponseObject>
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((name) =>
    Object.hasOwn(responses, name),
  )
  return [key, key === undefined ? undefined : responses[key]]
}

function jsonMedia(response: ResponseObject | undefined): { type: string; schema: unknown } | undefined {
  const type = Object.keys(response?.content ?? {}).find((name) => /json/i.test(name))
  return type === undefined ? undefined : { type, schema: response?.content?.[type]?.schema }
}
