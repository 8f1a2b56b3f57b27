// Request logging: one line per answered request, and a request's own logger made only when it logs
// something besides that line. Fastify makes each request a pino child bound to its id, which costs
// more than the one line most requests write; the line goes through the app's logger instead, with the
// id as its first field, which is the same JSON a child writes, byte for byte.
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify'

type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1]

/** A request's logger: the pino child Fastify would make, made at the first line logged through it. */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings)
    return this.made
  }

  get level(): string {
    return this.made?.level ?? this.parent.level
  }

  set level(level: string) {
    this.logger.level = level
  }

  fatal(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.fatal(obj, msg, ...args)
  }
  error(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.error(obj, msg, ...args)
  }
  warn(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.warn(obj, msg, ...args)
  }
  info(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.info(obj, msg, ...args)
  }
  debug(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.debug(obj, msg, ...args)
  }
  trace(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.trace(obj, msg, ...args)
  }
  silent(obj: unknown, msg?: string, ...args: unknown[]): void {
    this.logger.silent(obj, msg, ...args)
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options)
  }
}

/** Fastify's childLoggerFactory: each request's logger, its child made when first used. */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings) =>
  new RequestLogger(logger, bindings)

/** One line per request instead of Fastify's two, written by the app's logger with the request's id. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const { method, url } = request
    const { statusCode, elapsedTime: ms } = reply
    // Through the request's own logger, made now: its id among the bindings, as Fastify writes it.
    if (error) {
      request.log.error({ method, url, statusCode, ms, err: error }, 'request errored')
      return
    }
    // reqId: Fastify's label for the request's id (requestIdLogLabel's default), first as a child binds it.
    const line = { reqId: request.id, method, url, statusCode, ms }
    request.server.log.info(line, 'request completed')
  }
}
