// What Node's HTTP server and Fastify refuse before any route runs, answered in the document's Error
// shape, with the security headers and X-Request-Id every answer carries.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorBody, HttpError, PATH_SEGMENT_LIMIT } from '@plant-store/core'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** How long a path parameter may be (the document's Limits); a longer one is refused before routing. */
export const MAX_PARAM_LENGTH = PATH_SEGMENT_LIMIT

// Two of the headers every routed answer carries (plugins/external/security-headers.ts); a refusal before
// routing runs no hook, so it carries them itself.
const securityHeaders = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
}

// A request line Node's parser read up to an unknown method: the request is HTTP, its method is not
// one Node knows. Anything else that fails on the method is not HTTP at all.
const requestLine = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\s]+ HTTP\/1\.[01]\r?$/

/** The status and message for an error Node's HTTP parser (or its timeouts) raised on a connection. */
function clientErrorAnswer(error: Error & { code?: string; rawPacket?: Buffer }): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'the request line and headers are larger than 16384 bytes']
    // Node's own answer to chunk extensions over its 16 KiB limit: they are part of the body.
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'the chunk extensions of the body are larger than 16384 bytes']
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request did not arrive in time']
    case 'HPE_INVALID_METHOD': {
      // RFC 9110 (9.1): a method the server does not know is 501, not a malformed request.
      const firstLine = error.rawPacket?.subarray(0, 8192).toString('latin1').split('\n', 1)[0] ?? ''
      if (requestLine.test(firstLine))
        return [501, `the method ${firstLine.split(' ', 1)[0]} is not implemented`]
      return [400, 'the request is not valid HTTP']
    }
    default:
      return [400, 'the request is not valid HTTP']
  }
}

/**
 * Writes a whole HTTP/1.1 answer in the Error shape on a socket Node has handed over (a parse error,
 * a timeout, a CONNECT), and closes it: what else the client sent on it cannot be read as requests.
 */
function writeRaw(socket: Duplex, status: number, message: string): string {
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
  const [status, message] = clientErrorAnswer(error)
  const requestId = writeRaw(socket, status, message)
  this.log.debug({ err: error, requestId, statusCode: status }, 'client error')
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
const unmetExpectation = new WeakSet<IncomingMessage>()

/**
 * Refusals Node's HTTP server makes with an empty answer, or none, handed to this app instead:
 * an Expect other than 100-continue (a bare 417) goes through the routes' hooks, where
 * `refuseBeforeRouting` answers it, and CONNECT (the connection closed without a word) is a 501:
 * this server is no proxy. A HTTP/1.1 request without Host (a bare 400) is let through by
 * `requireHostHeader: false` in app.ts, and refused by `refuseBeforeRouting` too.
 */
export function answerServerRefusals(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response) => {
    unmetExpectation.add(request)
    app.routing(request, response)
  })
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = writeRaw(socket, 501, 'CONNECT is not implemented: this server is not a proxy')
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
  // RFC 9112 (3.2): a server MUST answer 400 to an HTTP/1.1 request without Host.
  if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1) {
    refusal = new HttpError(400, 'an HTTP/1.1 request must have a Host header')
  } else if (unmetExpectation.has(raw)) {
    refusal = new HttpError(417, `the expectation ${raw.headers.expect} cannot be met: only 100-continue is`)
  }
  if (refusal) reply.header('connection', 'close')
  done(refusal)
}

/**
 * A preParsing hook for operations that take a body: a body in a content coding (gzip, …) or a
 * transfer coding other than chunked is not read as it is. The document's rule for a body the server
 * cannot read is 415 (RFC 9110, 8.4.1); RFC 9112 (6.1) makes an unknown transfer coding 501.
 */
export function refuseCodedBody(request: FastifyRequest): HttpError | undefined {
  const contentEncoding = request.headers['content-encoding']?.trim().toLowerCase()
  if (contentEncoding && contentEncoding !== 'identity') {
    return new HttpError(
      415,
      `the body must not be encoded: Content-Encoding ${contentEncoding} is not accepted`,
      {
        'accept-encoding': 'identity',
      },
    )
  }
  const transferEncoding = request.headers['transfer-encoding']?.trim().toLowerCase()
  if (transferEncoding && transferEncoding !== 'chunked') {
    return new HttpError(501, `the transfer coding ${transferEncoding} is not implemented: only chunked is`)
  }
  return undefined
}
