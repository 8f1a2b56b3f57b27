// What Node's HTTP server and Fastify refuse before any route runs, answered in the document's Error
// shape, with the security headers and X-Request-Id every answer carries.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import {
  codedBodyRefusal,
  connectRefused,
  errorBody,
  type HttpError,
  hostRequired,
  PATH_SEGMENT_LIMIT,
  parserRefusal,
  unmetExpectation,
} from '@plant-store/core'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** How long a path parameter may be (the document's Limits); a longer one is refused before routing. */
export const MAX_PARAM_LENGTH = PATH_SEGMENT_LIMIT

// Two of the headers every routed answer carries (plugins/external/security-headers.ts); a refusal before
// routing runs no hook, so it carries them itself.
const securityHeaders = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
}

/**
 * Writes a whole HTTP/1.1 answer in the Error shape on a socket Node has handed over (a parse error,
 * a timeout, a CONNECT), and closes it: what else the client sent on it cannot be read as requests.
 */
function writeRaw(socket: Duplex, { statusCode: status, message }: HttpError): string {
  const id = randomUUID()
  const body = JSON.stringify(errorBody(status, message))
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Security-Policy: ${securityHeaders['content-security-policy']}\r\n` +
        `X-Content-Type-Options: ${securityHeaders['x-content-type-options']}\r\n` +
        `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy()
  return id
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser refuses (headers over its 16 KiB limit, a
 * request it cannot parse, one too slow to arrive). Node hands over the socket, not a response.
 */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  // Node's parser errors carry what the client sent as a Buffer (typed otherwise by Fastify).
  const { rawPacket } = error as { rawPacket?: unknown }
  const firstLine = Buffer.isBuffer(rawPacket)
    ? rawPacket.subarray(0, 8192).toString('latin1').split('\n', 1)[0]
    : undefined
  const refusal = parserRefusal(error.code, firstLine)
  const requestId = writeRaw(socket, refusal)
  this.log.debug({ err: error, requestId, statusCode: refusal.statusCode }, 'client error')
}

/**
 * Fastify's frameworkErrors: what its router refuses before a route is chosen, a path that is not
 * valid percent-encoding and a path parameter over MAX_PARAM_LENGTH characters. No hook has run.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, `a path segment is longer than ${MAX_PARAM_LENGTH} characters`]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'the path is not valid percent-encoded UTF-8']
        : [error.statusCode ?? 500, error.statusCode ? error.message : 'internal server error']
  if (status >= 500) request.log.error({ err: error }, 'request failed')
  reply
    .code(status)
    .headers({ ...securityHeaders, 'x-request-id': request.id, connection: 'close' })
    .send(errorBody(status, message))
}

// Requests whose Expect Node would have refused with a bare 417: see refuseBeforeRouting.
const expectationUnmet = new WeakSet<IncomingMessage>()

/**
 * Refusals Node's HTTP server makes with an empty answer, or none, handed to this app instead:
 * an Expect other than 100-continue (a bare 417) goes through the routes' hooks, where
 * `refuseBeforeRouting` answers it, and CONNECT (the connection closed without a word) is a 501:
 * this server is no proxy. A HTTP/1.1 request without Host (a bare 400) is let through by
 * `requireHostHeader: false` in app.ts, and refused by `refuseBeforeRouting` too.
 */
export function answerServerRefusals(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response) => {
    expectationUnmet.add(request)
    app.routing(request, response)
  })
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = writeRaw(socket, connectRefused())
    app.log.debug({ requestId, url: request.url }, 'CONNECT refused')
  })
}

/** An onRequest hook: the requests Node would have refused (see answerServerRefusals), in the Error shape. */
export function refuseBeforeRouting(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const raw = request.raw
  let refusal: HttpError | undefined
  if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1) {
    refusal = hostRequired()
  } else if (expectationUnmet.has(raw)) {
    refusal = unmetExpectation(raw.headers.expect)
  }
  if (refusal) reply.header('connection', 'close')
  done(refusal)
}

/** A preParsing hook for operations that take a body: one in a content or transfer coding it cannot read. */
export const refuseCodedBody = (request: FastifyRequest): HttpError | undefined =>
  codedBodyRefusal(request.headers['content-encoding'], request.headers['transfer-encoding'])
