// Reads a request as the real server does, without Fastify or Node: the route (404, 405 with Allow, 414,
// a path that is not percent-encoding), the bearer token, the body as Fastify's content-type handling
// and the server's parsers take it (media type, Content-Encoding, 413, JSON with int64 exact), the query
// string as Fastify parses it, and validation against the document, in the server's order and with its
// messages, so that the in-process handlers and the mock's front answer bad input as the server does.
// It takes what a Fetch Request has (method, url, headers.get, arrayBuffer): a page's request as it
// is, and a node:http request through a few lines of adapter.
import type { Document, OperationEntry, Schema } from '../document.js'
import { listOperations, routeSchema } from '../document.js'
import type { operations } from '../generated/openapi.js'
import type { requestValidators } from '../generated/request-validators.js'
import type { InputOf } from '../plant-operations.js'
import { bearerToken, tokenRequired } from './bearer.js'
import { type Check, checkOf, type Validate } from './check.js'
import { HttpError } from './errors.js'
import { parseJsonBody } from './json-body.js'
import { BODY_LIMIT, PATH_SEGMENT_LIMIT } from './limits.js'
import { codedBodyRefusal } from './node-refusals.js'
import { unrouted } from './unrouted.js'

/** What the reader needs of a request: a Fetch Request is one as it is. */
export interface RequestInput {
  method: string
  /** Absolute, or the path and query string as a request line has them. */
  url: string
  headers: { get(name: string): string | null }
  /**
   * The body's bytes, asked for at most once, and only where the server would read a body. Past
   * BODY_LIMIT bytes only that there are more counts: a reader may stop after BODY_LIMIT + 1.
   */
  arrayBuffer(): Promise<ArrayBuffer>
}

/** Where the router sends a request: an operation with its path parameters, or the 404 or 405 it answers. */
export type Routed =
  | { entry: OperationEntry; params: Record<string, string>; refusal?: undefined }
  | { entry?: undefined; refusal: HttpError }

export interface ReadRequest {
  entry: OperationEntry
  /** The bearer token; undefined on an operation without security. */
  token: string | undefined
  input: InputOf<keyof operations>
}

/** Validators compiled ahead of time, by operation id and part: core's requestValidators. */
export type Validators = typeof requestValidators

export interface RequestReaderOptions {
  /** The document's validators compiled ahead of time (core's, for core's document). */
  validators?: Validators
  /** Compiles a schema at run time (Ajv's compile, from createAjv()). */
  compile?: (schema: Schema) => Validate
}

type Part = 'params' | 'body' | 'querystring'

interface Route {
  entry: OperationEntry
  pattern: RegExp
  names: string[]
  checks: Partial<Record<Part, Check>>
}

// The methods Fastify never reads a body for.
const bodyless = new Set(['GET', 'HEAD', 'TRACE'])
// Fastify's ContentType: a type and subtype of token characters, else the header is not a media type.
const typeName = /^[\w!#$%&'*+.^`|~-]+$/
// Fastify's parser decodes the bytes as they are: a byte order mark stays, and JSON refuses it.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

export class RequestReader {
  readonly operations: OperationEntry[]
  private readonly routes: Route[]
  private readonly refusal: ReturnType<typeof unrouted>
  private compiler?: (schema: Schema) => Validate
  private loading?: Promise<(schema: Schema) => Validate>

  /**
   * `document` dereferenced. Without `validators` or `compile`, Ajv compiles the document's schemas
   * at run time and is loaded (in a page, a chunk of its own) on the first read.
   */
  constructor(
    document: Document,
    private readonly options: RequestReaderOptions = {},
  ) {
    const { validators, compile } = options
    this.compiler = compile
    this.operations = listOperations(document)
    this.refusal = unrouted(this.operations)
    this.routes = this.operations.map((entry) => {
      const names = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string)
      const schema = routeSchema(entry)
      const checks: Route['checks'] = {}
      for (const part of ['params', 'body', 'querystring'] as const) {
        const partSchema = schema[part]
        if (!partSchema) continue
        const compiled = validators?.[entry.operationId]?.[part]
        if (validators && !compiled)
          throw new Error(`no validator compiled ahead of time for ${entry.operationId}'s ${part}`)
        checks[part] = checkOf({ schema: partSchema, httpPart: part }, () => {
          if (compiled) return compiled
          if (!this.compiler) throw new Error('Ajv is used before it is loaded')
          return this.compiler(partSchema)
        })
      }
      return { entry, pattern: new RegExp(`^${entry.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`), names, checks }
    })
  }

  /**
   * What Fastify's router makes of a method and path: throws what it refuses before any hook runs (a
   * path that is not percent-encoded UTF-8, a path segment over PATH_SEGMENT_LIMIT characters);
   * else the operation, or the 404 or 405 that `read` throws after the hooks before it.
   */
  route(method: string, path: string): Routed {
    try {
      decodeURIComponent(path)
    } catch {
      throw new HttpError(400, 'the path is not valid percent-encoded UTF-8')
    }
    const route = this.routes.find(
      (candidate) => candidate.entry.method.toUpperCase() === method && candidate.pattern.test(path),
    )
    if (!route) return { refusal: this.refusal(method, path) }
    const values = route.pattern.exec(path)?.slice(1) ?? []
    // As written, not decoded, as the router measures it.
    if (values.some((value) => value.length > PATH_SEGMENT_LIMIT))
      throw new HttpError(414, `a path segment is longer than ${PATH_SEGMENT_LIMIT} characters`)
    const params = Object.fromEntries(
      route.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]),
    )
    return { entry: route.entry, params }
  }

  /**
   * The request's operation and validated input, read in the server's order: no route (404, 405),
   * the bearer token (401), a coded body (415, 501), the body (413, 415, 400), then params, body and
   * query string (400). Throws the HttpError the server would answer. `query` is the request's own
   * query string unless given. `onBody` sees the body as parsed, before validation fills in defaults.
   */
  async read(
    request: RequestInput,
    routed: Routed,
    query = queryOf(request.url),
    onBody?: (body: unknown) => void,
  ): Promise<ReadRequest> {
    if (routed.refusal) throw routed.refusal
    const { entry, params } = routed
    const checks = this.routes.find((route) => route.entry === entry)?.checks ?? {}
    let token: string | undefined
    if (entry.secured) {
      token = bearerToken(request.headers.get('authorization'))
      if (token === undefined) throw tokenRequired()
    }
    const body = await readBody(request, checks.body !== undefined)
    onBody?.(body)
    if (!this.options.validators && !this.compiler) {
      // A failed load (a page that lost its connection) is tried again by the next request.
      this.loading ??= loadCompiler().finally(() => {
        this.loading = undefined
      })
      this.compiler = await this.loading
    }
    const input = {
      params: validate(checks.params, 'params', params),
      body: validate(checks.body, 'body', body),
      query: validate(checks.querystring, 'querystring', queryObject(query)),
    }
    return { entry, token, input: input as ReadRequest['input'] }
  }
}

/** Ajv with the server's options, from a module of core's own, so that a page loads it only when needed. */
async function loadCompiler(): Promise<(schema: Schema) => Validate> {
  const { createAjv } = await import('./validation.js')
  const ajv = createAjv()
  return (schema) => ajv.compile(schema)
}

/**
 * The body as the server takes it: Fastify reads one (within the limit) on a method that may carry
 * one, when the request has a Content-Type or a body; the server's parsers take application/json alone,
 * and only for an operation that takes a body. Any other operation ignores what it is sent, once read.
 */
async function readBody(request: RequestInput, takesBody: boolean): Promise<unknown> {
  const header = (name: string) => request.headers.get(name)
  // The server's preParsing hook, before Fastify looks at the body.
  if (takesBody) {
    const coded = codedBodyRefusal(header('content-encoding'), header('transfer-encoding'))
    if (coded) throw coded
  }
  if (bodyless.has(request.method)) return undefined
  // The server sets aside the Content-Type of an operation that takes no body (a preParsing hook).
  const given = takesBody ? header('content-type') : null
  const length = header('content-length')
  // Without Content-Type, Fastify reads a body only if one is framed; a Fetch Request may say
  // nothing of its length, and then the body itself tells.
  const framed = header('transfer-encoding') !== null || (length !== null && length !== '0')
  const json = given !== null && mediaType(given) === 'application/json'
  if (given !== null && !json && mediaType(given) === undefined)
    throw new HttpError(415, `the body must be application/json, not ${given}`)
  if (given === null && !framed && length !== null) return undefined
  if (Number(length) > BODY_LIMIT) throw new HttpError(413, `the body is larger than ${BODY_LIMIT} bytes`)
  const bytes = await request.arrayBuffer()
  if (given === null && !framed && bytes.byteLength === 0) return undefined
  if (bytes.byteLength > BODY_LIMIT) throw new HttpError(413, `the body is larger than ${BODY_LIMIT} bytes`)
  if (!takesBody) return undefined
  if (!json)
    throw new HttpError(415, `the body must be application/json, not ${given ?? 'without a content type'}`)
  return parseJsonBody(utf8.decode(bytes))
}

/** A Content-Type's media type as Fastify reads it (lower case), or undefined where it is not one. */
function mediaType(header: string): string | undefined {
  const semicolon = header.indexOf(';')
  const media = semicolon === -1 ? header : header.slice(0, semicolon)
  const slash = media.indexOf('/')
  if (slash === -1) return undefined
  const type = media.slice(0, slash).trimStart().toLowerCase()
  const subtype = media
    .slice(slash + 1)
    .trimEnd()
    .toLowerCase()
  return typeName.test(type) && typeName.test(subtype) ? `${type}/${subtype}` : undefined
}

function validate(check: Check | undefined, part: Part, data: unknown): unknown {
  if (!check) return data
  const result = check(data)
  if (result === false) {
    // Fastify's default schemaErrorFormatter, so the messages are the server's.
    const message = (check.errors ?? []).map((e) => `${part}${e.instancePath ?? ''} ${e.message}`).join(', ')
    throw new HttpError(400, message)
  }
  return result === true ? data : result.value
}

/** The query string of an absolute URL or of a request line's target. */
function queryOf(url: string): URLSearchParams {
  const mark = url.indexOf('?')
  return new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1))
}

/** A query string as Fastify's parser gives it: a repeated name becomes an array. */
function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of query) {
    const seen = out[name]
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return out
}
