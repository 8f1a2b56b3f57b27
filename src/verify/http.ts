// Sends one planned request to a target and captures the answer, plus the one-line descriptions
// that failure messages use for both.

import { isUtf8 } from 'node:buffer'
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'

/** How a request is authorized. */
export type Auth =
  /** The case's own principal (a fresh token per case, so no case sees another's plants). */
  | { kind: 'principal' }
  | { kind: 'none' }
  /** A well-formed bearer token that no principal owns. */
  | { kind: 'unknown' }
  /** This exact Authorization header value. */
  | { kind: 'header'; value: string }

export interface RequestSpec {
  method: string
  /** Path and query string, e.g. `/plants?limit=1`. */
  path: string
  contentType?: string
  body?: string
  auth: Auth
  /** Send it again, up to `atMost` times in all, until the answer has status `until` (a limit spent). */
  repeat?: { until: number; atMost: number }
  /** Further request headers, e.g. the X-Simulate-Fault of a derived case. */
  headers?: Record<string, string>
  /** Send the request line and headers but not the blank line that ends them, and wait for the answer. */
  /** Headers that stop arriving: the answer is waited for this many ms, then the case fails. */
  stall?: number
}

export interface Answer {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  /** The media type without parameters, lower case, or undefined when none was sent. */
  mediaType: string | undefined
  text: string
  /** The parsed body when it is JSON. */
  json: unknown
  isJson: boolean
  /** The body's bytes are not UTF-8 (each sequence that is not was read as U+FFFD). */
  notUtf8?: true
  /** The address the request went to: what a Link in the answer is resolved against (RFC 3986 §5). */
  url?: string
  /** The request's headers as sent, hooks included; lower-case names. */
  sentHeaders?: Record<string, string>
}

/** A request about to be sent: its headers may be changed (added, replaced, removed). */
export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  headers: Record<string, string>
}

/**
 * What the layers need of whatever they send to: one of the kit's own targets, or a server under
 * test that the verifier reaches by URL.
 */
export interface Endpoint {
  name: string
  url: string
  /** Where setup requests go (the server itself, or a proxy's upstream); undefined: it keeps no state. */
  stateUrl: string | undefined
  /** Whether a new principal starts with the document's x-given-plants (the sandbox, the handlers). */
  seeded: boolean
  /** A principal's token: a new principal each call, or always the same one for a server under test. */
  newToken(): string
  /** How requests reach it, when not by `send` alone (the verifier's waits out rate limits). */
  send?: Sender
}

export type Sender = typeof send

export const REQUEST_TIMEOUT_MS = 10_000

export async function send(
  baseUrl: string,
  request: RequestSpec,
  authorization: string | undefined,
  extraHeaders: Record<string, string> = {},
  /** Told of the request just before it goes: the headers it is sent with instead. */
  beforeSend?: (request: OutgoingRequest) => Promise<Record<string, string>>,
): Promise<Answer> {
  let headers: Record<string, string> = { accept: 'application/json', ...request.headers, ...extraHeaders }
  if (authorization !== undefined) headers.authorization = authorization
  if (request.contentType !== undefined) headers['content-type'] = request.contentType
  const url = new URL(request.path, baseUrl)
  if (beforeSend) headers = await beforeSend({ method: request.method, url: url.href, headers })
  const sentHeaders = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  )
  if (request.stall !== undefined)
    return { ...(await sendStalled(baseUrl, request, headers, request.stall)), sentHeaders }
  const { status, answerHeaders, text, notUtf8 } = await exchange(url, request.method, headers, request.body)
  return {
    ...answerOf(status, answerHeaders, text),
    ...(notUtf8 ? { notUtf8 } : {}),
    url: url.href,
    sentHeaders,
  }
}

// Kept-open connections, as fetch kept them: a run sends thousands of requests to one origin. node:http
// costs the client about half the CPU of fetch for each, and a run's own time is mostly its client's.
let agents: { http: HttpAgent; https: HttpsAgent } | undefined
const decoder = new TextDecoder()

/** Methods whose request has a body by definition: sent without one, it is said to be empty, as fetch says. */
const bodyMethods = new Set(['POST', 'PUT', 'PATCH'])

/**
 * One request and its whole answer. The text is read as fetch's `text()` reads it (UTF-8, a leading
 * BOM dropped), and a header sent more than once is one value joined with ", ", as fetch's Headers
 * join it. A failure keeps the system's error as its cause (`cause.code`: ECONNREFUSED, …).
 */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; answerHeaders: Record<string, string>; text: string; notUtf8: boolean }> {
  agents ??= { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
  const secure = url.protocol === 'https:'
  if (!secure && url.protocol !== 'http:')
    return Promise.reject(new Error(`cannot send to ${url.href}: only http: and https: are supported`))
  const sent = { ...headers }
  const named = new Set(Object.keys(sent).map((name) => name.toLowerCase()))
  if (!named.has('content-length') && !named.has('transfer-encoding')) {
    if (body !== undefined) sent['content-length'] = String(Buffer.byteLength(body))
    else if (bodyMethods.has(method.toUpperCase())) sent['content-length'] = '0'
  }
  return new Promise((resolve, reject) => {
    let current: ClientRequest | undefined
    const fail = (error: Error) => {
      clearTimeout(timer)
      reject(new Error(`${method} ${url.href}: ${error.message}`, { cause: error }))
    }
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`), {
        code: 'ETIMEDOUT',
      })
      current?.destroy(error)
    }, REQUEST_TIMEOUT_MS)
    const attempt = (retried: boolean) => {
      // node:http writes every method in upper case; one spelled otherwise goes on a connection of its
      // own, with no agent (an agent would make the connection itself).
      const wire = method.toUpperCase()
      const options =
        wire === method
          ? { method, headers: sent, agent: secure ? agents?.https : agents?.http }
          : {
              method: wire,
              headers: sent,
              createConnection: () => spelled(method, url, secure),
            }
      const onAnswer = (answer: IncomingMessage) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('error', fail)
        answer.on('end', () => {
          clearTimeout(timer)
          const bytes = Buffer.concat(chunks)
          resolve({
            status: answer.statusCode ?? 0,
            answerHeaders: joinedHeaders(answer.rawHeaders),
            text: decoder.decode(bytes),
            notUtf8: !isUtf8(bytes),
          })
        })
      }
      const outgoing = secure ? httpsRequest(url, options, onAnswer) : httpRequest(url, options, onAnswer)
      current = outgoing
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-open connection that the server closed as this request went out on it: the server read
        // none of it, so it goes again on a new connection (Node's own advice for reusedSocket).
        if (!retried && outgoing.reusedSocket && error.code === 'ECONNRESET') return attempt(true)
        fail(error)
      })
      outgoing.end(body)
    }
    try {
      attempt(false)
    } catch (error) {
      // Headers node:http refuses to send (a control character in a value, …).
      fail(error as Error)
    }
  })
}

/**
 * A connection whose request line has the method as spelled: HTTP's methods are case-sensitive (RFC
 * 9110, section 9.1), so `get` is another method than `GET`, and node:http would send it as `GET`.
 */
function spelled(method: string, url: URL, secure: boolean): Socket {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = Number(url.port || (secure ? 443 : 80))
  const socket = secure ? tlsConnect({ host, port, servername: host }) : connect({ host, port })
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean
  let first = true
  // The request line and headers are its first write, as one string.
  socket.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (first && typeof chunk === 'string') chunk = `${method}${chunk.slice(method.length)}`
    first = false
    return write(chunk, ...rest)
  }) as typeof socket.write
  return socket
}

/** Lower-case names; a header sent more than once, its values joined with ", ". */
function joinedHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const value = raw[i + 1] as string
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`
  }
  return out
}

/**
 * A request that stops arriving: node:http cannot hold back the end of the headers, so it goes over a
 * socket of its own. The answer is read until the target closes the connection.
 */
/** How long a stalled request waits for its answer unless told: past any timeout a target is started with. */
export const STALLED_WAIT_MS = 15_000

function sendStalled(
  baseUrl: string,
  request: RequestSpec,
  headers: Record<string, string>,
  waitMs: number,
): Promise<Answer> {
  const url = new URL(request.path, baseUrl)
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`]
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
      // One header line short of the end: the headers never finish arriving.
      socket.write(`${lines.join('\r\n')}\r\n`)
    })
    socket.setTimeout(waitMs, () =>
      socket.destroy(new Error(`no answer to a stalled request within ${waitMs} ms`)),
    )
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const [head = '', ...rest] = raw.split('\r\n\r\n')
      const [statusLine = '', ...headerLines] = head.split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
      if (!status) return reject(new Error(`not an HTTP answer to a stalled request: ${JSON.stringify(raw)}`))
      const answerHeaders: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(':')
        if (colon > 0) answerHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ ...answerOf(status, answerHeaders, rest.join('\r\n\r\n')), url: url.href })
    })
  })
}

/** An answer as the judging code reads it, from its status, headers (lower-case names) and body text. */
export function answerOf(status: number, headers: Record<string, string>, text: string): Answer {
  const mediaType = headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined
  let json: unknown
  let isJson = false
  if (text && mediaType && /[/+]json$/.test(mediaType)) {
    try {
      json = JSON.parse(text)
      isJson = true
    } catch {
      // Left as text: the validator reports a body that claims JSON and is not.
    }
  }
  return { status, headers, mediaType, text, json, isJson }
}

const clip = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text

export function describeRequest(request: RequestSpec): string {
  const auth =
    request.auth.kind === 'principal'
      ? 'Bearer <case token>'
      : request.auth.kind === 'unknown'
        ? 'Bearer <unknown token>'
        : request.auth.kind === 'header'
          ? JSON.stringify(request.auth.value)
          : 'none'
  const contentType = request.contentType === undefined ? '' : `, Content-Type: ${request.contentType}`
  // A refused case's cookie is what it is about.
  const cookie = request.headers?.cookie === undefined ? '' : `, Cookie: ${request.headers.cookie}`
  const body = request.body === undefined ? ' (no body)' : ` ${clip(request.body, 120)}`
  return `${request.method} ${clip(request.path, 300)} [Authorization: ${auth}${cookie}${contentType}]${body}`
}

export function describeAnswer(answer: Answer): string {
  const shown = ['www-authenticate', 'link'].filter((h) => answer.headers[h] !== undefined)
  const headers = shown.map((h) => ` ${h}: ${answer.headers[h]}`).join(';')
  return `${answer.status} ${answer.mediaType ?? '(no content type)'}${headers ? ` [${headers.trim()}]` : ''} ${clip(answer.text) || '(empty body)'}`
}
