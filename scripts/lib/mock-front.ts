// The front of the Prism mock (`npm run mock`): it judges each request with the real server's own code
// (@plant-store/core), in the server's order, and answers a refusal itself with the server's status,
// headers and message in the document's Error shape. A valid request goes on to Prism in a form Prism
// reads: Prism checks int64 with JavaScript numbers, so an id beyond ±(2^53−1) stands in as the largest
// one it can hold (Prism answers from the examples whatever the id). A request whose Prefer asks for a
// refusal goes to Prism untouched, so every documented refusal stays one header away. And a page asked
// for with a cursor comes back without Link: Prism gives every page the Link example, so a client
// following Link from the first page would never stop.
import { randomUUID } from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http'
import type { Duplex } from 'node:stream'
import {
  BODY_LIMIT,
  bearerToken,
  type Check,
  createAjv,
  errorBody,
  HEADER_LIMIT,
  HttpError,
  type LoadedSpec,
  type OperationEntry,
  PATH_SEGMENT_LIMIT,
  type PlantRepository,
  parseJsonBody,
  plantOperations,
  routeSchema,
  tokenRequired,
  unrouted,
  validatorCompiler,
} from '@plant-store/core'
import type { Listen } from './commands.js'

type Part = 'params' | 'body' | 'querystring'

interface Route {
  entry: OperationEntry
  pattern: RegExp
  names: string[]
  checks: Partial<Record<Part, Check>>
}

/** What Prism is sent for a valid request. */
interface Forward {
  path: string
  authorization: string | undefined
  /** The JSON body, for an operation that takes one. */
  body: string | undefined
}

/**
 * What no store is needed to refuse: an operation run on a store that holds nothing refuses with 400
 * only what it would refuse whatever the store held (a cursor the server did not make).
 */
const holdsNothing: PlantRepository = {
  create: async () => true,
  get: async () => undefined,
  list: async () => [],
  replace: async () => false,
  delete: async () => false,
  ping: async () => {},
  close: async () => {},
}

/** Judges requests as the real server does (src/server/app.ts), with the same code and messages. */
export class RequestJudge {
  private readonly routes: Route[]
  private readonly refusal: ReturnType<typeof unrouted>

  constructor({ operations }: LoadedSpec) {
    this.refusal = unrouted(operations)
    const compile = validatorCompiler(createAjv())
    this.routes = operations.map((entry) => {
      const names = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string)
      const schema = routeSchema(entry)
      const checks: Route['checks'] = {}
      for (const part of ['params', 'body', 'querystring'] as const) {
        const partSchema = schema[part]
        if (partSchema) checks[part] = compile({ schema: partSchema, httpPart: part })
      }
      return { entry, pattern: new RegExp(`^${entry.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`), names, checks }
    })
  }

  /** The operation a method and path name, with its path parameters, or the server's 400, 404, 405 or 414. */
  route(method: string, path: string): { route: Route; params: Record<string, string> } {
    try {
      decodeURIComponent(path)
    } catch {
      throw new HttpError(400, 'the path is not valid percent-encoded UTF-8')
    }
    const route = this.routes.find(
      (candidate) => candidate.entry.method.toUpperCase() === method && candidate.pattern.test(path),
    )
    if (!route) throw this.refusal(method, path)
    const values = route.pattern.exec(path)?.slice(1) ?? []
    // The server's router refuses such a segment before any hook runs, as written (not decoded).
    if (values.some((value) => value.length > PATH_SEGMENT_LIMIT))
      throw new HttpError(414, `a path segment is longer than ${PATH_SEGMENT_LIMIT} characters`)
    const params = Object.fromEntries(
      route.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]),
    )
    return { route, params }
  }

  /** The server's authentication, as far as the mock goes: the form of the bearer token, any token accepted. */
  token(entry: OperationEntry, headers: IncomingHttpHeaders): string | undefined {
    if (!entry.secured) return undefined
    const token = bearerToken(headers.authorization)
    if (token === undefined) throw tokenRequired()
    return token
  }

  /**
   * Reads and validates the rest of the request (its body as the server's content-type parsers take
   * it, then params, body and query string, in Fastify's order), runs the operation on a store that
   * holds nothing for what it refuses whatever is stored, and gives what Prism is to be sent.
   */
  async judge(
    { route, params }: ReturnType<RequestJudge['route']>,
    token: string | undefined,
    headers: IncomingHttpHeaders,
    query: URLSearchParams,
    body: ReceivedBody,
  ): Promise<Forward> {
    const { entry, checks } = route
    let parsed: unknown
    if (body.sent) {
      // Both of the server's parsers read the body whole, within the limit, before looking at it.
      if (body.tooLarge) throw new HttpError(413, `the body is larger than ${BODY_LIMIT} bytes`)
      if (checks.body) {
        const encoding = headers['content-encoding']?.trim().toLowerCase()
        if (encoding && encoding !== 'identity')
          throw new HttpError(
            415,
            `the body must not be encoded: Content-Encoding ${encoding} is not accepted`,
            {
              'accept-encoding': 'identity',
            },
          )
        const given = headers['content-type']
        if (given?.split(';')[0]?.trim().toLowerCase() !== 'application/json')
          throw new HttpError(
            415,
            `the body must be application/json, not ${given || 'without a content type'}`,
          )
        parsed = parseJsonBody(body.bytes.toString('utf8'))
      }
    }
    const input = {
      params: validate(checks.params, 'params', params),
      body: validate(checks.body, 'body', parsed),
      query: validate(checks.querystring, 'querystring', queryObject(query)),
    }
    const operation = plantOperations[entry.operationId as keyof typeof plantOperations]
    if (operation) {
      try {
        await operation(holdsNothing, '', input as never)
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 400) throw error
      }
    }
    return {
      path: entry.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(String(representable((input.params as Record<string, unknown>)[name]))),
      ),
      authorization: token === undefined ? undefined : `Bearer ${token}`,
      body: checks.body ? JSON.stringify(representable(input.body)) : undefined,
    }
  }
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

/** The value with every integer a JavaScript number cannot hold replaced by the largest one of its sign. */
function representable(value: unknown): unknown {
  if (typeof value === 'bigint') return value < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER
  if (Array.isArray(value)) return value.map(representable)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, representable(item)]))
  return value
}

type ReceivedBody = { sent: false } | { sent: true; tooLarge: boolean; bytes: Buffer }

/** Whether Fastify would read a body at all: never for GET and HEAD, else as its content-type handling decides. */
function bodySent(method: string, headers: IncomingHttpHeaders): boolean {
  if (method === 'GET' || method === 'HEAD') return false
  const length = headers['content-length']
  if (headers['transfer-encoding'] !== undefined) return true
  return headers['content-type'] === undefined ? length !== undefined && length !== '0' : length !== undefined
}

/** Reads the body, keeping at most the limit and one byte more: past it, only whether it was over counts. */
function readBody(req: IncomingMessage): Promise<{ tooLarge: boolean; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= BODY_LIMIT) chunks.push(chunk)
    })
    req.on('end', () => resolve({ tooLarge: size > BODY_LIMIT, bytes: Buffer.concat(chunks) }))
    req.on('error', reject)
  })
}

// RFC 7240 as Prism reads it: `Prefer: code=404, example=duplicate`.
const preferredCode = /(?:^|[,;])\s*code\s*=\s*"?(\d{3})"?/i

/** Whether the request asks Prism for a refusal (a status of 400 or more) by Prefer or `__code`. */
function asksForRefusal(headers: IncomingHttpHeaders, query: URLSearchParams): boolean {
  const prefer = [headers.prefer ?? []].flat().join(', ')
  const code = preferredCode.exec(prefer)?.[1] ?? query.get('__code')
  return code !== null && code !== undefined && Number(code) >= 400
}

/** The CORS headers Prism puts on every answer, so that a page on another origin reads a refusal too. */
const cors = (origin: string | undefined) => ({
  'access-control-allow-origin': origin ?? '*',
  'access-control-allow-headers': '*',
  'access-control-allow-credentials': 'true',
  'access-control-expose-headers': '*',
})

function refuse(res: ServerResponse, req: IncomingMessage, error: unknown, secured: boolean): void {
  const { statusCode, message, headers } =
    error instanceof HttpError ? error : new HttpError(500, 'internal server error')
  if (!(error instanceof HttpError)) console.error('the mock front failed on a request:', error)
  const body = JSON.stringify(errorBody(statusCode, message))
  res.writeHead(statusCode, {
    ...cors(req.headers.origin),
    ...headers,
    ...(secured ? { 'cache-control': 'no-store' } : {}),
    'x-request-id': randomUUID(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
}

// Hop-by-hop headers, what the front sets itself on a request it rewrites, and Accept: the server
// answers JSON whatever a request accepts, where Prism would answer 406.
const notForwarded = new Set([
  'accept',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-type',
  'content-encoding',
  'authorization',
  'expect',
])

/** The status and message the real server gives for what Node's HTTP parser refuses (src/server/lib/refusals.ts). */
function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW')
    return [431, `the request line and headers are larger than ${HEADER_LIMIT} bytes`]
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request did not arrive in time']
  return [400, 'the request is not valid HTTP']
}

export function startMockFront(upstream: string, spec: LoadedSpec, { host, port }: Listen): Promise<Server> {
  const target = new URL(upstream)
  const judge = new RequestJudge(spec)

  /** Sends a request to Prism and its answer back, without Link on a page asked for with a cursor. */
  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    headers: OutgoingHttpHeaders,
    body?: Buffer | string,
  ) => {
    const onward = request(
      { host: target.hostname, port: target.port, method: req.method, path, headers },
      (answer) => {
        const answered = { ...answer.headers }
        if (new URL(req.url ?? '/', 'http://mock').searchParams.has('cursor')) delete answered.link
        res.writeHead(answer.statusCode ?? 502, answered)
        answer.pipe(res)
      },
    )
    onward.on('error', () => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(errorBody(502, 'the mock is not answering')))
    })
    if (body === undefined) req.pipe(onward)
    else onward.end(body)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://mock')
    const method = req.method ?? 'GET'
    // Preflights are Prism's to answer (it allows every origin, method and header); so is every
    // request asking for a refusal, which Prism gives from the document's examples.
    if (method === 'OPTIONS' || asksForRefusal(req.headers, url.searchParams)) {
      forward(req, res, req.url ?? '/', { ...req.headers, host: target.host })
      return
    }
    let secured = false
    try {
      // Node refuses these with an empty answer unless told otherwise (requireHostHeader, checkExpectation).
      if (req.headers.host === undefined && req.httpVersion === '1.1')
        throw new HttpError(400, 'an HTTP/1.1 request must have a Host header')
      const routed = judge.route(method, url.pathname)
      secured = routed.route.entry.secured
      const token = judge.token(routed.route.entry, req.headers)
      const received: ReceivedBody = bodySent(method, req.headers)
        ? { sent: true, ...(await readBody(req)) }
        : { sent: false }
      const sent = await judge.judge(routed, token, req.headers, url.searchParams, received)
      const headers: OutgoingHttpHeaders = { host: target.host }
      for (const [name, value] of Object.entries(req.headers))
        if (!notForwarded.has(name) && value !== undefined) headers[name] = value
      if (sent.authorization) headers.authorization = sent.authorization
      if (sent.body !== undefined) {
        headers['content-type'] = 'application/json'
        headers['content-length'] = Buffer.byteLength(sent.body)
      }
      forward(req, res, `${sent.path}${url.search}`, headers, sent.body ?? '')
    } catch (error) {
      // What the client sent after a refusal is not read: drained, so the connection stays usable.
      req.resume()
      refuse(res, req, error, secured)
    }
  }

  const server = createServer({ requireHostHeader: false }, (req, res) => {
    void handle(req, res)
  })
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    refuse(
      res,
      req,
      new HttpError(417, `the expectation ${req.headers.expect} cannot be met: only 100-continue is`),
      false,
    ),
  )
  // What Node's parser refuses is answered in the Error shape too, as the server answers it.
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const [status, message] = clientErrorAnswer(error.code)
    const body = JSON.stringify(errorBody(status, message))
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
      )
    socket.destroy()
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}
