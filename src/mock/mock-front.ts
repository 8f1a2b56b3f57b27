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
} from 'node:http'
import type { Duplex } from 'node:stream'
import {
  BODY_LIMIT,
  connectRefused,
  createAjv,
  encodeCursor,
  errorBody,
  HttpError,
  hostRequired,
  type LoadedSpec,
  type PlantRepository,
  plantOperations,
  type RequestInput,
  RequestReader,
  type Routed,
  transferLengthRefusal,
  unmetExpectation,
  unrouted,
} from '@plant-store/core'
import { answerParserError, refuseRaw, track } from '@plant-store/core/node'

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

/**
 * Reads and validates the request as the server does (core's RequestReader), runs the operation on a
 * store that holds nothing for what it refuses whatever is stored, and gives what Prism is to be sent.
 */
async function judge(reader: RequestReader, incoming: RequestInput, routed: Routed): Promise<Forward> {
  // The query string as the server's parser takes it: all that follows the first `?`.
  const { entry, token, input } = await reader.read(incoming, routed)
  const operation = plantOperations[entry.operationId as keyof typeof plantOperations]
  if (operation) {
    try {
      await operation(holdsNothing, '', exampleCursorTaken(input) as never)
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 400) throw error
    }
  }
  return {
    path: entry.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(representable((input.params as unknown as Record<string, unknown>)[name]))),
    ),
    authorization: token === undefined ? undefined : `Bearer ${token}`,
    body: input.body === undefined ? undefined : JSON.stringify(representable(input.body)),
  }
}

/**
 * The request with a cursor of the document's examples (`MQ`: the last id, base64url, naming no
 * principal) as one made for the principal the front runs the operation as: Prism's pages carry that
 * example in their Link, and Prism cannot tell principals apart, so the mock takes such a cursor from
 * any token. Any other cursor is judged as the server judges it.
 */
function exampleCursorTaken<T extends { query?: unknown }>(input: T): T {
  const query = input.query as Record<string, unknown> | undefined
  const cursor = query?.cursor
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,28}$/.test(cursor)) return input
  let text = ''
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))
  } catch {
    return input
  }
  if (!/^-?(0|[1-9][0-9]{0,18})$/.test(text)) return input
  const made = encodeCursor(BigInt(text), '')
  return made.startsWith(`${cursor}.`) ? { ...input, query: { ...query, cursor: made } } : input
}

/** A node:http request as core's reader takes it: its body read once, when the reader asks for it. */
function incoming(req: IncomingMessage): RequestInput {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: {
      get: (name) => {
        const value = req.headers[name]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      },
    },
    arrayBuffer: () => readBody(req),
  }
}

/** Reads the body to its end, keeping the limit and a little more: past it, only that it is over counts. */
function readBody(req: IncomingMessage): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let kept = 0
    req.on('data', (chunk: Buffer) => {
      if (kept > BODY_LIMIT) return
      chunks.push(chunk)
      kept += chunk.length
    })
    req.on('end', () => {
      const bytes = Buffer.concat(chunks)
      resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
    })
    req.on('error', reject)
  })
}

/** The value with every integer a JavaScript number cannot hold replaced by the largest one of its sign. */
function representable(value: unknown): unknown {
  if (typeof value === 'bigint') return value < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER
  if (Array.isArray(value)) return value.map(representable)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, representable(item)]))
  return value
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

/** Where the front listens. */
export interface Listen {
  host: string
  port: number
}

export function startMockFront(upstream: string, spec: LoadedSpec, { host, port }: Listen): Promise<Server> {
  const target = new URL(upstream)
  // Ajv compiles each operation's schemas on its first request, as the server's validator compiler does.
  const ajv = createAjv()
  const reader = new RequestReader(spec.dereferenced, { compile: (schema) => ajv.compile(schema) })
  const noRoute = unrouted(spec.operations)

  /**
   * The operation the server's router finds for a request target as sent (URL would resolve `..` and
   * `.`, and read `//plants` as a host): an absolute-form target on its path, up to `?` or `#`; what
   * no operation takes is named as the server names it, by the target up to `?`.
   */
  const route = (method: string, requestTarget: string): Routed => {
    const named = requestTarget.split('?', 1)[0] ?? ''
    const path = named.startsWith('/') ? named : named.replace(/^https?:\/\/[^/]*/i, '') || '/'
    const routed = reader.route(method, path.split('#', 1)[0] ?? '')
    return routed.refusal ? { refusal: noRoute(method, named) } : routed
  }

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
        // Prism's connection is not the client's: Node keeps or closes the client's as it asked.
        delete answered.connection
        delete answered['keep-alive']
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

  /** `unmet`: the request's Expect is one Node would refuse (checkExpectation). */
  const handle = async (req: IncomingMessage, res: ServerResponse, unmet = false) => {
    track(req, res)
    const unframed = transferLengthRefusal(req.headers['transfer-encoding'])
    if (unframed) return refuseRaw(req.socket, unframed, { 'x-request-id': randomUUID() })
    const url = new URL(req.url ?? '/', 'http://mock')
    const method = req.method ?? 'GET'
    // Preflights are Prism's to answer (it allows every origin, method and header); so is every
    // request asking for a refusal, which Prism gives from the document's examples.
    if (!unmet && (method === 'OPTIONS' || asksForRefusal(req.headers, url.searchParams))) {
      forward(req, res, req.url ?? '/', { ...req.headers, host: target.host })
      return
    }
    let secured = false
    try {
      // The server's router first (400, 414), then what Node would refuse with an empty answer
      // (requireHostHeader, checkExpectation), which the server refuses in its first hook.
      const routed = route(method, req.url ?? '/')
      if (req.headers.host === undefined && req.httpVersion === '1.1') throw hostRequired()
      if (unmet) throw unmetExpectation(req.headers.expect)
      secured = routed.entry?.secured ?? false
      const sent = await judge(reader, incoming(req), routed)
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
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res, true)
  })
  // What Node's parser refuses is answered in the Error shape too, as the server answers it.
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    answerParserError(error, socket, { 'x-request-id': randomUUID() })
  })
  // Node would close the connection without a word: the mock, like the server, is no proxy.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, connectRefused(), { 'x-request-id': randomUUID() }),
  )
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}
