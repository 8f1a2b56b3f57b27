// Builds the broker's app (a Fastify plugin tree, not listening: server.ts listens): the store, the
// tokens, the API, its document at /docs and /openapi.json, and the web page.
import { errorBody, HttpError } from '@plant-store/core'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import { type BrokerConfig, MAX_NAME } from './config.js'
import auth from './plugins/auth.js'
import docs from './plugins/docs.js'
import api from './routes/api.js'
import page from './routes/page.js'
import { Broker, type Published } from './store/broker.js'
import { type Db, openDb } from './store/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    broker: Broker
  }
}

export interface BuildOptions {
  config: BrokerConfig
  logger?: FastifyServerOptions['logger']
  /** A store already open (tests share one); closed with the app all the same. */
  db?: Db
  now?: () => Date
}

const DAY_MS = 86_400_000

function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a name in the path is longer than ${MAX_NAME} characters`
      : error.message
  void reply.code(status).send(errorBody(status, message))
}

export async function buildBroker({ config, logger, db, now }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: config.bodyLimit,
    exposeHeadRoutes: false,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_NAME },
    // What the router refuses before a route runs (a name over the bound, a bad URL) in the Error shape too.
    frameworkErrors: answerFrameworkError,
  })
  const store = db ?? (await openDb(config.databaseUrl))
  const notify = config.notifyUrl
  const broker = new Broker(store, {
    mainBranches: config.mainBranches,
    keepDays: config.keepDays,
    ...(now ? { now } : {}),
    // Told and not waited for: a notify URL that is down slows no publish, and says so in the log.
    ...(notify
      ? {
          onPublished: (event: Published) =>
            void fetch(notify, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(event),
              signal: AbortSignal.timeout(10_000),
            }).then(
              (answer) => {
                if (!answer.ok)
                  app.log.warn({ status: answer.status, event }, 'the notify URL refused an event')
              },
              (err: unknown) => app.log.warn({ err, event }, 'the notify URL cannot be reached'),
            ),
        }
      : {}),
  })
  app.decorate('broker', broker)
  app.addHook('onClose', () => store.close())

  // Bodies are read as text: a contract keeps every digit of its bounds, and each route reads its own.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) =>
    done(
      new HttpError(
        415,
        `the body must be application/json, not ${request.headers['content-type'] ?? 'without a content type'}`,
      ),
    ),
  )
  app.setErrorHandler(
    async (
      error: Error & { statusCode?: number; code?: string; headers?: Record<string, string> },
      request,
      reply,
    ) => {
      let status = error.statusCode ?? 500
      let message = error.message
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        message = `the body is larger than ${config.bodyLimit} bytes`
      if (status >= 500 && !(error instanceof HttpError)) {
        request.log.error({ err: error }, 'request failed')
        status = 500
        message = 'internal error: the log has its details'
      }
      if (error instanceof HttpError) reply.headers(error.headers)
      return reply.code(status).send(errorBody(status, message))
    },
  )
  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send(errorBody(404, `there is no ${request.method} ${request.url.split('?')[0]}: see /docs`)),
  )
  await app.register(auth, { config })
  await app.register(docs)
  await app.register(api)
  await app.register(page)

  if (config.cleanUp && !db) {
    const clean = () =>
      broker.cleanUp().then(
        (removed) => app.log.info(removed, 'clean-up'),
        (err: unknown) => app.log.error({ err }, 'clean-up failed'),
      )
    const timer = setInterval(clean, DAY_MS)
    timer.unref()
    app.addHook('onReady', async () => {
      await clean()
    })
    app.addHook('onClose', async () => clearInterval(timer))
  }
  return app
}
