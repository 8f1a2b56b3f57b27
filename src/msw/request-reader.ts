// Reads a Fetch API request as the real server does, without Fastify: the route, the bearer token,
// the JSON body and validation against the document, with the server's own rules and messages
// (src/server/app.ts, src/core/lib/json-body.ts, src/core/lib/validation.ts), so that both answer bad input alike.
import {
  BODY_LIMIT,
  bearerToken,
  type Check,
  checkOf,
  type Document,
  HttpError,
  type InputOf,
  listOperations,
  type OperationEntry,
  type operations,
  PATH_SEGMENT_LIMIT,
  parseJsonBody,
  type requestValidators,
  routeSchema,
  type Schema,
  tokenRequired,
  unrouted,
  type Validate,
} from '@plant-store/core'

type Part = 'params' | 'body' | 'querystring'

interface Route {
  entry: OperationEntry
  pattern: RegExp
  names: string[]
  checks: Partial<Record<Part, Check>>
}

export interface ReadRequest {
  entry: OperationEntry
  /** The bearer token; undefined on an operation without security. */
  token: string | undefined
  input: InputOf<keyof operations>
}

/** Validators compiled ahead of time, by operation id and part: core's requestValidators. */
export type Validators = typeof requestValidators

export class RequestReader {
  readonly operations: OperationEntry[]
  private readonly routes: Route[]
  private readonly refusal: ReturnType<typeof unrouted>
  /** Ajv's compiler, for a document without validators compiled ahead of time; loaded on the first read. */
  private compiler?: (schema: Schema) => Validate
  private loading?: Promise<(schema: Schema) => Validate>

  /**
   * `validators`: the document's validators compiled ahead of time (core's, for core's document). Without
   * them, Ajv compiles the document's schemas at run time, and is loaded (a chunk of its own in a page)
   * on the first request.
   */
  constructor(
    document: Document,
    private readonly validators?: Validators,
  ) {
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

  /** The operation a method and path name, or the 404 or 405 the server answers. */
  route(method: string, path: string): { route: Route; params: Record<string, string> } {
    const route = this.routes.find(
      (candidate) => candidate.entry.method.toUpperCase() === method && candidate.pattern.test(path),
    )
    if (!route) throw this.refusal(method, path)
    const values = route.pattern.exec(path)?.slice(1) ?? []
    // The server's router refuses such a segment before any operation runs, as written (not decoded).
    if (values.some((value) => value.length > PATH_SEGMENT_LIMIT))
      throw new HttpError(414, `a path segment is longer than ${PATH_SEGMENT_LIMIT} characters`)
    const params = Object.fromEntries(
      route.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]),
    )
    return { route, params }
  }

  /** The request's operation and validated input; throws the HttpError the server would answer. */
  async read(request: Request, path: string, query: URLSearchParams): Promise<ReadRequest> {
    const { route, params } = this.route(request.method, path)
    const { entry, checks } = route
    let token: string | undefined
    if (entry.secured) {
      token = bearerToken(request.headers.get('authorization'))
      if (token === undefined) throw tokenRequired()
    }
    const body = checks.body ? await readBody(request) : undefined
    if (!this.validators && !this.compiler) {
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
  const { createAjv } = await import('@plant-store/core/validation')
  const ajv = createAjv()
  return (schema) => ajv.compile(schema)
}

/** The body as the server's content-type parsers take it: application/json alone, within the limit. */
async function readBody(request: Request): Promise<unknown> {
  const text = await request.text()
  const given = request.headers.get('content-type')
  if (given === null) {
    if (text === '') return undefined
    throw new HttpError(415, 'the body must be application/json, not without a content type')
  }
  if (new TextEncoder().encode(text).length > BODY_LIMIT)
    throw new HttpError(413, `the body is larger than ${BODY_LIMIT} bytes`)
  const mediaType = given.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json')
    throw new HttpError(415, `the body must be application/json, not ${given}`)
  return parseJsonBody(text)
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

/** A query string as Fastify's parser gives it: a repeated name becomes an array. */
function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of query) {
    const seen = out[name]
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return out
}
