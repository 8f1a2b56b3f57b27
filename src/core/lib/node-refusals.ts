// What Node's HTTP server refuses by itself, before any route runs (with an empty answer, or none), worded
// as the real server answers it, for every front that stands before the store (the server, the mock's).
// Plain values in and out, no Node import: core runs in browsers too.
import { HttpError } from './errors.js'
import { HEADER_LIMIT } from './limits.js'

/** RFC 9112 (6.3): a request whose body's length cannot be known is 400, and its connection closed. */
const lengthUnknown = (why: string) => new HttpError(400, `the length of the body cannot be known: ${why}`)

// Also what Node's parser says of a Transfer-Encoding named twice or given with Content-Length.
const transferUnframed = () =>
  lengthUnknown('Transfer-Encoding must end in chunked, name it once and come without Content-Length')

// A request line Node's parser read up to an unknown method: the request is HTTP, its method is not
// one Node knows. Anything else that fails on the method is not HTTP at all.
const requestLine = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\s]+ HTTP\/1\.[01]\r?$/

/**
 * The answer to an error Node's HTTP parser (or its timeouts) raised on a connection, by its `code`;
 * `firstLine` is the first line of what the client sent (the error's rawPacket), read as Latin-1.
 */
// Stryker disable next-line StringLiteral: equivalent: a first line left unknown is read only by the request-line test, which any text without a method, a target and a version fails as the empty one does.
export function parserRefusal(code: string | undefined, firstLine = ''): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, `the request line and headers are larger than ${HEADER_LIMIT} bytes`)
    // Node's own limit on chunk extensions (16 KiB, whatever the header limit): they are part of the body.
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new HttpError(413, 'the chunk extensions of the body are larger than 16384 bytes')
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return transferUnframed()
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return lengthUnknown('Content-Length must be given once, and not with Transfer-Encoding')
    case 'HPE_INVALID_CONTENT_LENGTH':
      return lengthUnknown('Content-Length must be one number of bytes')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'the request did not arrive in time')
    case 'HPE_INVALID_METHOD':
      // RFC 9110 (9.1): a method the server does not know is 501, not a malformed request.
      if (requestLine.test(firstLine))
        return new HttpError(501, `the method ${firstLine.split(' ', 1)[0]} is not implemented`)
      return new HttpError(400, 'the request is not valid HTTP')
    default:
      return new HttpError(400, 'the request is not valid HTTP')
  }
}

/**
 * A request whose Transfer-Encoding does not end in chunked: nothing says where its body ends (RFC 9112,
 * 6.3). Node's parser hands such a request over, then fails on what follows it; this is its one answer.
 */
export function transferLengthRefusal(transferEncoding: string | undefined): HttpError | undefined {
  if (transferEncoding === undefined) return undefined
  const last = transferEncoding
    .slice(transferEncoding.lastIndexOf(',') + 1)
    .trim()
    .toLowerCase()
  return last === 'chunked' ? undefined : transferUnframed()
}

/** RFC 9112 (3.2): a server MUST answer 400 to an HTTP/1.1 request without Host. */
export const hostRequired = () => new HttpError(400, 'an HTTP/1.1 request must have a Host header')

/** An Expect other than 100-continue, which Node would answer with a bare 417. */
export const unmetExpectation = (expectation: string | undefined) =>
  new HttpError(417, `the expectation ${expectation} cannot be met: only 100-continue is`)

/** CONNECT, on which Node closes the connection without a word: the store is no proxy. */
export const connectRefused = () =>
  new HttpError(501, 'CONNECT is not implemented: this server is not a proxy')

/**
 * For an operation that takes a body: a body in a content coding (gzip, …) or a transfer coding other
 * than chunked (before the final chunked: transferLengthRefusal is first) is not read as it is. The
 * document's rule for a body the server cannot read is 415 (RFC 9110, 8.4.1); RFC 9112 (6.1) makes an
 * unknown transfer coding 501. Its length is known: the connection stays open, the body read past.
 */
export function codedBodyRefusal(
  contentEncoding: string | null | undefined,
  transferEncoding: string | null | undefined,
): HttpError | undefined {
  const content = contentEncoding?.trim().toLowerCase()
  if (content && content !== 'identity')
    return new HttpError(415, `the body must not be encoded: Content-Encoding ${content} is not accepted`, {
      'accept-encoding': 'identity',
    })
  const transfer = transferEncoding?.trim().toLowerCase()
  if (transfer && transfer !== 'chunked')
    return new HttpError(501, `the transfer coding ${transfer} is not implemented: only chunked is`)
  return undefined
}
