// What Node's HTTP server and Fastify refuse before any route runs, answered in the document's Error
// shape, with the security headers and X-Request-Id every answer carries.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import {
  codedBodyRefusal,
  connectRefused,
  errorBody,
  type HttpError,
  hostRequired,
  PATH_SEGMENT_LIMIT,
  transferLengthRefusal,
  unmetExpectation,
} from '@plant-store/core'
import { answerParserError, refuseRaw, track } from '@plant-store/core/node'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { API_HEADERS } from '../plugins/external/security-headers.js'

/** How long a path parameter may be (the document's Limits); a longer one is refused before routing. */
export const MAX_PARAM_LENGTH = PATH_SEGMENT_LIMIT

// What a refusal written on the connection itself carries: see answerFrameworkError for the others. A
// refusal before routing runs no hook, so it carries the security headers of every JSON answer itself.
const rawHeaders = (requestId: string) => ({ ...API_HEADERS, 'x-request-id': requestId })

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser refuses (headers over its 16 KiB limit, a
 * request it cannot parse or whose body's length it cannot know, one too slow to arrive). Node hands
 * over the socket, not a response.
 */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  const requestId = randomUUID()
  const refusal = answerParserError(error, socket, rawHeaders(requestId))
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral,CallExpression: equivalent: a line of the server's log, never an answer.
  if (refusal) this.log.debug({ err: error, requestId, statusCode: refusal.statusCode }, 'client error')
}

/**
 * Fastify's frameworkErrors: what its router refuses before a route is chosen, a path parameter over
 * MAX_PARAM_LENGTH characters and a path that is not valid percent-encoding. No hook has run. Its
 * router has one other error, of an async route constraint, and no route here has one.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, `a path segment is longer than ${MAX_PARAM_LENGTH} characters`]
      : [400, 'the path is not valid percent-encoded UTF-8']
  reply
    .code(status)
    .headers({ ...API_HEADERS, 'x-request-id': request.id, connection: 'close' })
    .send(errorBody(status, message))
}

// Requests whose Expect Node would have refused with a bare 417: see refuseBeforeRouting.
const expectationUnmet = new WeakSet<IncomingMessage>()

/**
 * Refusals Node's HTTP server makes with an empty answer, or none, handed to this app instead:
 * an Expect other than 100-continue (a bare 417) goes through the routes' hooks, where
 * `refuseBeforeRouting` answers it, and CONNECT (the connection closed without a word) is a 501:
 * this server is no proxy. A HTTP/1.1 request without Host (a bare 400) is let through by
 * `requireHostHeader: false` in app.ts, and refused by `refuseBeforeRouting` too. A request whose
 * body's length cannot be known, which Node hands over just before its parser fails on it, is
 * refused on its connection by the app's first hook, and neither routed nor counted against a limit:
 * answerClientError then finds the connection closed. Called before any other hook is added.
 */
export function answerServerRefusals(app: FastifyInstance): void {
  // Before Fastify's own listener: what a parser error on the connection must not answer twice.
  app.server.prependListener('request', track)
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    track(request, response)
    expectationUnmet.add(request)
    app.routing(request, response)
  })
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = randomUUID()
    refuseRaw(socket, connectRefused(), rawHeaders(requestId))
    // Stryker disable next-line ObjectLiteral,StringLiteral,CallExpression: equivalent: a line of the server's log, never an answer.
    app.log.debug({ requestId, url: request.url }, 'CONNECT refused')
  })
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = transferLengthRefusal(request.headers['transfer-encoding'])
    if (refusal) {
      reply.hijack()
      // Stryker disable next-line CallExpression: equivalent: Node's parser fails on the same request as soon as it hands it over, and answerParserError writes this same refusal, with the same headers.
      refuseRaw(request.raw.socket, refusal, rawHeaders(request.id))
      // Stryker disable next-line ObjectLiteral,StringLiteral,CallExpression: equivalent: a line of the server's log, never an answer.
      request.log.debug({ statusCode: refusal.statusCode }, 'body of unknown length refused')
    }
    done()
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
  // HTTP/1.1 alone needs Host; Node's parser takes no other HTTP/x.1 (HTTP/2.1 is its 400), so the minor
  // version says it.
  if (raw.headers.host === undefined && raw.httpVersionMinor === 1) {
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
