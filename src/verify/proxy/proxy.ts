// A validating proxy for a running server: every request and answer passes through byte for byte,
// and each answer that departs from the document is reported (a log line, a header), never changed.
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Finding } from '../checks/check.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import { type JsonSchema, loadDocument, type OperationEntry } from '../document.js'
import { type Answer, answerOf } from '../http.js'
import { answerExchange } from '../judge/answer.js'
import { judgeExchange } from '../judge/judge.js'
import { teamChecks, type VerifyConfig } from '../run/config.js'
import { decodedBody } from './decoded-body.js'
import { HarRecorder, type RecordOptions } from './har-recorder.js'

export type { RecordOptions } from './har-recorder.js'

/**
 * Set on an answer that departs from the document: how many problems, then the names of the checks
 * they belong to (`2; ` and the names, comma-separated). Absent on an answer that conforms, so a
 * conforming answer reaches the client exactly as the server sent it.
 */
export const VIOLATIONS_HEADER = 'X-Contract-Violations'

export interface Departure {
  /** The operation matched by method and path template; undefined when the document has none. */
  operation: string | undefined
  method: string
  /** Path and query, as the client sent them. */
  path: string
  status: number
  check: string
  problem: string
}

export interface ProxyOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:3000`. */
  upstream: string
  /** 0 (the default) picks a free port. */
  port?: number
  host?: string
  /** The OpenAPI document to judge by: a file path, or the document @plant-store/core ships. */
  spec?: string
  /** Called once per departure; by default each is one JSON line on stdout. */
  onDeparture?: (departure: Departure) => void
  /** Also write every exchange to a HAR 1.2 file, tokens pseudonymized, each with its verdict. */
  record?: RecordOptions
  /**
   * A team's configuration (defineConfig): its checks judge each answer beside the built-in ones. A
   * check that throws is reported on stderr, never kept from the client, and the other checks' findings
   * stand. Its hooks are not called.
   */
  config?: VerifyConfig
}

export interface RunningProxy {
  /** e.g. `http://127.0.0.1:4011`. */
  url: string
  server: Server
  close(): Promise<void>
}

// RFC 9110 §7.6.1: these describe one connection, not the message, so each hop sets its own.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** Raw headers (as `rawHeaders` lists them: name, value, name, value…) without the hop-by-hop ones. */
function endToEnd(raw: string[], drop: string[] = []): string[] {
  const named = new Set([...HOP_BY_HOP, ...drop])
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'connection') continue
    for (const name of raw[i + 1]?.split(',') ?? []) named.add(name.trim().toLowerCase())
  }
  const kept: string[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name, value] = [raw[i] as string, raw[i + 1] as string]
    if (!named.has(name.toLowerCase())) kept.push(name, value)
  }
  return kept
}

/** Finds the operation a request is for, by method and path template. */
function router(
  operations: OperationEntry[],
): (method: string, pathname: string) => OperationEntry | undefined {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const routes = operations
    .map((entry) => {
      const parts = entry.path.split(/\{[^}]+\}/)
      return { entry, pattern: new RegExp(`^${parts.map(literal).join('[^/]+')}$`), params: parts.length - 1 }
    })
    // As a router does: a literal segment wins over a template, so /plants/{id} never claims a
    // documented /plants/search.
    .sort((a, b) => a.params - b.params)
  return (method, pathname) =>
    routes.find((r) => r.entry.method === method.toLowerCase() && r.pattern.test(pathname))?.entry
}

const joined = (headers: IncomingMessage['headers']): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/** The answer as the checks read it, with the request as it was forwarded (a team's check reads both). */
function answerFrom(req: IncomingMessage, url: string, upstream: IncomingMessage, body: Buffer): Answer {
  const headers = joined(upstream.headers)
  const text = new TextDecoder().decode(decodedBody(body, headers['content-encoding']))
  return { ...answerOf(upstream.statusCode ?? 0, headers, text), url, sentHeaders: joined(req.headers) }
}

function printDeparture(departure: Departure): void {
  process.stdout.write(
    `${JSON.stringify({
      time: new Date().toISOString(),
      level: 'warn',
      msg: 'departure from the document',
      ...departure,
      // null rather than left out: a path the document lacks is worth seeing as such.
      operation: departure.operation ?? null,
    })}\n`,
  )
}

/** The request body as it passes (up to 1 MiB, the most a plant store takes), for the checks to read. */
function readAlong(req: IncomingMessage): () => string | undefined {
  const chunks: Buffer[] = []
  let size = 0
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size <= 1 << 20) chunks.push(chunk)
  })
  return () => (size === 0 || size > 1 << 20 ? undefined : Buffer.concat(chunks).toString('utf8'))
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream)
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`the upstream must be an http or https URL, not ${options.upstream}`)
  const { document, operations } = await loadDocument(options.spec, 'kit')
  const errorSchema: JsonSchema | undefined = document.components?.schemas?.Error
  const operationOf = router(operations)
  const recorder = options.record && new HarRecorder(options.record)
  const report = options.onDeparture ?? printDeparture
  const secure = upstream.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  const basePath = upstream.pathname.replace(/\/$/, '')

  /**
   * The problems of one exchange, and the operation they were judged by: its documented response, or
   * for a path the document lacks the Error every error answer has.
   */
  const own = teamChecks(options.config, BUILT_IN_CHECKS)
  // Only a team's check reads the request's body: without one, a body is not kept as it passes.
  const keepBodies = own.length > 0
  function judge(method: string, pathname: string, answer: Answer, sent: string | undefined) {
    const entry = operationOf(method, pathname)
    const exchange = answerExchange(entry, { method, path: pathname }, answer, errorSchema)
    if (sent !== undefined) exchange.request.body = sent
    const { findings } = judgeExchange(exchange, BUILT_IN_CHECKS)
    // Each team check alone: one that throws loses its own verdict, not the others'.
    for (const check of own) {
      try {
        findings.push(...judgeExchange(exchange, [check]).findings)
      } catch (error) {
        console.error(`the proxy could not judge ${method} ${pathname}: ${(error as Error).message}`)
      }
    }
    return { entry, findings }
  }

  function answered(
    req: IncomingMessage,
    res: ServerResponse,
    from: IncomingMessage,
    body: Buffer,
    sent: string | undefined,
  ): void {
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    // As sent, not normalized: the server routes the path it receives, and so must the judging.
    const pathname = path.split('?')[0] ?? path
    // HEAD is GET without a body (RFC 9110), which no body schema fits; a preflight is CORS's own
    // exchange, not an operation's. Both pass unjudged.
    const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
    let judged: { entry: OperationEntry | undefined; findings: Finding[] } = {
      entry: undefined,
      findings: [],
    }
    if (method !== 'HEAD' && !preflight) {
      try {
        judged = judge(
          method,
          pathname,
          answerFrom(req, `${upstream.origin}${basePath}${path}`, from, body),
          sent,
        )
      } catch (error) {
        // A fault of the judging is the proxy's, never a reason to keep the answer from the client.
        console.error(`the proxy could not judge ${method} ${path}: ${(error as Error).message}`)
      }
    }
    const { entry, findings } = judged
    const headers = endToEnd(from.rawHeaders, findings.length ? [VIOLATIONS_HEADER.toLowerCase()] : [])
    if (findings.length) {
      const checks = findings.map((f) => f.check)
      headers.push(VIOLATIONS_HEADER, `${findings.length}; ${[...new Set(checks)].join(', ')}`)
      for (const { check, message } of findings)
        report({
          operation: entry?.operationId,
          method,
          path,
          status: from.statusCode ?? 0,
          check,
          problem: message,
        })
    }
    recorder?.record(req, from, body, { operation: entry?.operationId, findings })
    res.writeHead(from.statusCode ?? 502, from.statusMessage, headers)
    res.end(body)
  }

  function unreachable(res: ServerResponse, error: Error): void {
    console.error(`the proxy cannot reach ${upstream.origin}: ${error.message}`)
    if (res.headersSent) {
      res.destroy()
      return
    }
    // The proxy's own answer, in the document's Error shape, so the client can tell what happened.
    const body = JSON.stringify({
      error: 502,
      message: `the proxy cannot reach the server: ${error.message}`,
    })
    res.writeHead(502, { 'content-type': 'application/json' }).end(body)
  }

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const headers = endToEnd(req.rawHeaders, ['host'])
    // The body's framing is hop-by-hop, but a chunked body must stay chunked to arrive whole.
    if (/\bchunked\b/i.test(req.headers['transfer-encoding'] ?? ''))
      headers.push('Transfer-Encoding', 'chunked')
    const outgoing = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
      port: upstream.port || undefined,
      method: req.method,
      path: `${basePath}${req.url ?? '/'}`,
      // An array keeps the client's names, order and repeats, and makes Node add nothing of its own.
      headers: ['Host', upstream.host, ...headers],
      agent,
    })
    // Once the server has begun its answer, a failure is the server's to show, not the proxy's.
    let responded = false
    outgoing.on('response', (from) => {
      responded = true
      const chunks: Buffer[] = []
      from.on('data', (chunk: Buffer) => chunks.push(chunk))
      from.on('end', () => {
        if (!res.destroyed) answered(req, res, from, Buffer.concat(chunks), requestBody())
      })
      // The server broke off its answer: the client gets a broken answer too, not a made-up one.
      from.on('error', () => res.destroy())
    })
    outgoing.on('error', (error) => {
      // After the answer has begun, this is the server closing early on a body it did not read.
      if (!responded) unreachable(res, error)
    })
    res.on('close', () => {
      // The client went away first: the server need not finish for nobody.
      if (!res.writableFinished) outgoing.destroy()
    })
    recorder?.begin(req)
    const requestBody = keepBodies ? readAlong(req) : () => undefined
    req.pipe(outgoing)
  }

  const server = createServer(forward)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          recorder?.close()
          resolve()
        })
        server.closeAllConnections()
        agent.destroy()
      }),
  }
}
