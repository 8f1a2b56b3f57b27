// Delivers the newPlant events of the outbox: claims the due ones, sends each signed, and settles it
// as delivered, to retry with backoff, or failed for good. Started with the app, stopped when it closes.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { WebhookConfig } from '../../config.js'
import type { OutboxEvent } from '../../repository/outbox.js'
import type { Destinations } from '../../webhooks/destinations.js'

/** Attempts in flight at once: a stalled receiver holds one of them, not the whole worker. */
const CONCURRENCY = 64
/** How often the outbox's size is logged while it holds anything, and old failed events forgotten. */
const STATS_INTERVAL_MS = 60_000
/** How long an event that failed for good is kept, for an operator to see, before it is forgotten. */
const KEEP_FAILED_MS = 7 * 24 * 3600_000

/** The wait after `attempts` failed attempts: doubling from the base, capped, with jitter in its upper half. */
export function retryDelay(
  attempts: number,
  { retryBaseMs, retryMaxMs }: WebhookConfig,
  random = Math.random,
) {
  const ceiling = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(attempts - 1, 52))
  // Jitter spreads the retries of many events failing together (a receiver down) over time.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export default fp(
  async (
    app: FastifyInstance,
    { config, destinations }: { config: WebhookConfig | undefined; destinations: Destinations | undefined },
  ) => {
    if (!config?.deliver || !destinations) return
    // Loaded only by an instance that sends events: undici and the signing cost every other start.
    const [{ Agent }, { postSigned, signer }] = await Promise.all([
      import('undici'),
      import('../../webhooks/signing.js'),
    ])
    const { outbox } = app
    const sign = signer(config.secrets)
    const dispatcher = new Agent({ connections: CONCURRENCY })
    // Long enough for an attempt and its settling: past it another instance (or a restart after a
    // crash) takes the event again.
    const leaseMs = 2 * config.timeoutMs + 1_000
    /** Each attempt under way, by the controller that aborts it. */
    const inFlight = new Map<AbortController, Promise<void>>()
    /** Events their receivers took, deleted together by the next fill. */
    let delivered: string[] = []
    let stopped = false
    let filling: Promise<void> | undefined
    let scheduled = false

    const attempt = async (event: OutboxEvent, controller: AbortController) => {
      const attempts = event.attempts + 1
      const url = destinations.of(event.owner)
      let reason = `no endpoint is configured for ${event.owner}`
      if (url) {
        const timer = setTimeout(() => controller.abort(), config.timeoutMs)
        try {
          const status = await postSigned(url, event, sign, controller.signal, dispatcher)
          if (status >= 200 && status < 300) {
            delivered.push(event.id)
            app.log.debug({ webhookId: event.id, owner: event.owner, attempts }, 'webhook event delivered')
            return
          }
          reason = `the receiver answered ${status}`
        } catch (error) {
          // Closing: the lease runs out and the event is sent again, by this instance restarted or another.
          if (stopped) return
          reason = controller.signal.aborted
            ? `no answer within ${config.timeoutMs} ms`
            : `the receiver could not be reached (${causeOf(error)})`
        } finally {
          clearTimeout(timer)
        }
      }
      const retryAt = attempts >= config.maxAttempts ? undefined : Date.now() + retryDelay(attempts, config)
      await outbox.attemptFailed(event.id, attempts, retryAt, reason)
      const fields = { webhookId: event.id, owner: event.owner, attempts, reason }
      if (retryAt === undefined)
        app.log.error(fields, 'webhook event failed for good: kept as failed and not sent again')
      else app.log.warn({ ...fields, retryAt: new Date(retryAt).toISOString() }, 'webhook attempt failed')
    }
    const start = (event: OutboxEvent) => {
      const controller = new AbortController()
      const done = attempt(event, controller)
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'webhook attempt not settled: the store failed'),
        )
        .finally(() => {
          inFlight.delete(controller)
          kick()
        })
      inFlight.set(controller, done)
    }
    // Deletes what was delivered and claims as many due events as there are free places (none once
    // stopped); a finished attempt kicks it again, so a place freed is soon taken.
    const fill = async () => {
      const settled = delivered
      delivered = []
      const free = stopped ? 0 : CONCURRENCY - inFlight.size
      if (settled.length === 0 && free === 0) return
      const now = Date.now()
      for (const event of await outbox.claim(now, now + leaseMs, free, settled)) start(event)
    }
    // One fill at a time, at most one waiting: the kicks of one event-loop turn (a commit, attempts
    // finishing together) share a fill, and with it one delete and one claim.
    const kick = () => {
      if (stopped || scheduled) return
      scheduled = true
      setImmediate(async () => {
        await filling
        scheduled = false
        if (stopped) return
        filling = fill()
          .catch((error: unknown) =>
            app.log.warn({ err: error }, 'webhook delivery paused: the store failed'),
          )
          .finally(() => {
            filling = undefined
          })
      })
    }
    const logStats = async () => {
      try {
        const forgotten = await outbox.purgeFailed(Date.now() - KEEP_FAILED_MS)
        if (forgotten > 0)
          app.log.info({ forgotten }, 'webhook outbox: events failed for good over 7 days ago forgotten')
        const { pending, failed, oldestPendingAt } = await outbox.stats()
        if (pending === 0 && failed === 0) return
        const oldestPendingSeconds =
          oldestPendingAt === undefined ? undefined : Math.round((Date.now() - oldestPendingAt) / 1000)
        app.log.info(
          { pending, failed, oldestPendingSeconds, maxPending: config.maxPending },
          'webhook outbox',
        )
      } catch (error) {
        app.log.warn({ err: error }, 'webhook outbox: the store did not answer')
      }
    }

    let poll: NodeJS.Timeout | undefined
    let stats: NodeJS.Timeout | undefined
    outbox.onEvent(kick)
    app.addHook('onReady', async () => {
      // Due events of an earlier run or of other instances: found by polling, at once and then steadily.
      poll = setInterval(kick, config.pollMs)
      stats = setInterval(logStats, STATS_INTERVAL_MS)
      poll.unref()
      stats.unref()
      kick()
      await logStats()
    })
    // Before the store closes (onClose): no delivery may be left settling into a closed store.
    app.addHook('preClose', async () => {
      stopped = true
      clearInterval(poll)
      clearInterval(stats)
      await filling
      // Attempts under way are cut short (their leases run out and they are sent again); what was
      // delivered is settled, so that a graceful stop sends nothing twice.
      for (const controller of inFlight.keys()) controller.abort()
      await Promise.allSettled(inFlight.values())
      await fill().catch((error: unknown) => app.log.warn({ err: error }, 'webhook events not settled'))
      await dispatcher.close()
    })
  },
  { name: 'webhooks', dependencies: ['repository'] },
)

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
