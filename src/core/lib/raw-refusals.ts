// What a Node HTTP server in front of the store (the kit's server, the mock's front, the handlers served
// over HTTP) writes itself on a connection before any route: a refusal in the Error shape, framed here
// once, as the one answer to the request it refuses, and then the connection closed. Node only: it is
// `@plant-store/core/node`, which core's browser entry does not import.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorBody, type HttpError } from './errors.js'
import { parserRefusal } from './node-refusals.js'

/** The headers a front puts on every answer (X-Request-Id, security headers), by name. */
export type OwnHeaders = Record<string, string>

/**
 * Writes `refusal` as a whole HTTP/1.1 answer in the Error shape, with the front's own headers and
 * `Connection: close`, and closes the connection: what else the client sent on it is not read.
 */
export function refuseRaw(socket: Duplex, refusal: HttpError, own: OwnHeaders = {}): void {
  const { statusCode: status, message, headers } = refusal
  const body = JSON.stringify(errorBody(status, message))
  const fields = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...own,
    ...headers,
    connection: 'close',
  }
  const head = Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`)
  // Not writable: ended after an earlier answer that said `Connection: close`, where Node would refuse
  // the write with an error and send nothing.
  socket.writable && socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`)
  socket.destroy()
}

// The answer to the last request read on each connection: a parser error that comes after it must
// not be answered a second time (see answerParserError).
const answers = new WeakMap<Duplex, ServerResponse>()
// Connections whose refusal is written or waits for an earlier answer: Node reports its parser's
// error again on whatever else arrives.
const refusing = new WeakSet<Duplex>()

/** Each request as it arrives, before anything answers it (the server's first 'request' listener). */
export function track(request: IncomingMessage, response: ServerResponse): void {
  answers.set(request.socket, response)
}

/**
 * A server's 'clientError' (Node's parser failed, or its timeouts ran out): the refusal is written as
 * the one answer to what could not be read, and the connection closed. Where the error broke off a
 * request whose answer has begun, that answer is its one, and the connection closes after it; where
 * an earlier request's answer is still being written, the refusal follows it. Returns the refusal
 * written, if any.
 */
export function answerParserError(
  error: Error & { code?: string; rawPacket?: unknown; bytesParsed?: unknown },
  socket: Duplex,
  own: OwnHeaders = {},
): HttpError | undefined {
  // A reset connection (ECONNRESET and every other socket error) is destroyed before it is reported.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a refusal this guard keeps out would come after the first one, or on a destroyed socket, and refuseRaw writes nothing to a socket that is not writable; it keeps one refusal, one listener and one log line per connection.
  if (socket.destroyed || refusing.has(socket)) return undefined
  // Stryker disable next-line CallExpression: equivalent: see the guard above.
  refusing.add(socket)
  const answer = answers.get(socket)
  const brokenOff = answer !== undefined && !answer.req.complete
  // Once the answer being written, if any, is whole: Node emits 'close' on it then.
  const afterAnswer = (then: () => void) =>
    answer && !answer.writableFinished ? answer.once('close', then) : then()
  if (brokenOff && answer.headersSent) {
    afterAnswer(() => socket.destroy())
    return undefined
  }
  const refusal = parserRefusal(error.code, failedLine(error))
  // A request broken off before its answer began gets this one instead (its route writes to a closed
  // connection); a request read whole before the failure gets its own answer first.
  if (brokenOff) refuseRaw(socket, refusal, own)
  else afterAnswer(() => refuseRaw(socket, refusal, own))
  return refusal
}

/** The line Node's parser failed on, read as Latin-1: what the client sent is its rawPacket. */
function failedLine({ rawPacket, bytesParsed }: { rawPacket?: unknown; bytesParsed?: unknown }) {
  if (!Buffer.isBuffer(rawPacket)) return undefined
  // The packet may hold requests read before the one that failed: the failed line starts after the
  // last line end before where the parser stopped (bytesParsed, a number wherever rawPacket is).
  const start = rawPacket.subarray(0, Number(bytesParsed)).lastIndexOf(0x0a) + 1
  return rawPacket
    .subarray(start, start + 8192)
    .toString('latin1')
    .split('\n', 1)[0]
}
