// Requests sent at once, each on a connection of its own that is opened before any of them is
// written, so that they reach the server together (fetch's pool reuses some connections and opens
// others as it goes, which spreads requests out by a connection's set-up). Each is counted and held
// to the server's quotas as Subject.send holds every request; a 429 is sent again through it.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { type Answer, answerOf, REQUEST_TIMEOUT_MS, type RequestSpec } from '../http.js'
import { TeamCodeError } from './errors.js'
import type { Subject } from './subject.js'

/** How long the connections stand open before the requests are written (see sendTogether). */
const SETTLE_MS = 20

/**
 * Sends `requests` as `principal`, all written in one go once every connection is open: one promise
 * per request, for its answer. When the quota the server declared has no room for all of them now,
 * they go through Subject.send instead (which waits), at once but without the common start.
 */
export async function sendTogether(
  subject: Subject,
  requests: readonly RequestSpec[],
  principal: 0 | 1,
): Promise<Promise<Answer>[]> {
  if (subject.fatal) throw subject.fatal
  const authorization = subject.authorization(principal)
  const through = () => requests.map((r) => subject.send(subject.baseUrl, r, authorization))
  const now = Date.now()
  const left = subject.limits.left(principal, now)
  if (subject.limits.due(principal, now) || (left !== undefined && left < requests.length)) return through()
  const base = new URL(subject.baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  const prepared = await Promise.all(
    requests.map(async (request) => {
      const url = new URL(request.path.startsWith('/') ? `${prefix}${request.path}` : request.path, base)
      let headers: Record<string, string> = { accept: 'application/json', connection: 'close' }
      headers.authorization = authorization
      if (request.contentType !== undefined) headers['content-type'] = request.contentType
      // The headers the team's hook sends it with; a hook that fails ends the run, as through Subject.send.
      if (subject.beforeRequest)
        headers = await subject
          .beforeRequest({ method: request.method, url: url.href, headers })
          .catch((error) => {
            if (error instanceof TeamCodeError) subject.fatal = error
            throw error
          })
      return { request, url, headers }
    }),
  )
  const connections = await Promise.allSettled(prepared.map(({ url }) => opened(url)))
  const failed = connections.find((c) => c.status === 'rejected')
  const sockets = connections.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []))
  if (failed) {
    for (const socket of sockets) socket.destroy()
    throw failed.reason
  }
  // A connection is open for the client before the server has taken it: a request written at once is
  // read only once the server takes its connection, a turn or more after the others. A moment first.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  return prepared.map(({ request, url, headers }, i) => {
    subject.requests++
    subject.sent[principal]++
    return answered(url, request, headers, sockets[i] as Socket).then((answer) => {
      subject.limits.learn(principal, answer.status, answer.headers, Date.now())
      if (answer.status === 429) return subject.send(subject.baseUrl, request, authorization)
      subject.observer?.(request, authorization, answer)
      return answer
    })
  })
}

/** A connection to the URL's host, once it is open (and its TLS set up). */
function opened(url: URL): Promise<Socket> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tlsConnect({ host, port, servername: host, ALPNProtocols: ['http/1.1'] }, () => resolve(socket))
        : connect({ host, port }, () => resolve(socket))
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy(new Error('no connection in time')))
    socket.once('error', reject)
  })
}

/** Writes the request on its open connection and reads the answer. */
function answered(url: URL, request: RequestSpec, headers: Record<string, string>, socket: Socket) {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Answer>((resolve, reject) => {
    const req = send(url, { method: request.method, headers, createConnection: () => socket }, (res) =>
      read(res).then((text) => {
        resolve({
          ...answerOf(res.statusCode ?? 0, headersOf(res), text),
          url: url.href,
          sentHeaders: headers,
        })
      }, reject),
    )
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
    )
    req.on('error', reject)
    req.end(request.body)
  })
}

async function read(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function headersOf(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  return headers
}
