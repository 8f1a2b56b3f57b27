// Delivers the newPlant events of the outbox: claims the due ones, sends each signed, and settles it
// as delivered, to retry with backoff, or failed for good. Started with the app, stopped when it closes.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { WebhookConfig } from '../../config.js'
import type { OutboxEvent } from '../../repository/outbox.js'
import type { Destinations } from '../../webhooks/destinations.js'
import { postSigned, signer } from '../../webhooks/signing.js'

/** Events claimed at once; each is sent concurrently with the others of its batch. */
const BATCH = 16
/** A sweep claims batches until none is due, but no more than this many before yielding to a later one. */
const MAX_BATCHES_PER_SWEEP = 64
/** How often the outbox's size is logged while it holds anything. */
const STATS_INTERVAL_MS = 60_000

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
    if (!config || !destinations) return
    const { outbox } = app
    const sign = signer(config.secrets)
    // Long enough for an attempt and its settling: past it another instance (or a restart after a
    // crash) takes the event again.
    const leaseMs = 2 * config.timeoutMs + 1_000
    const inFlight = new Set<AbortController>()
    let stopped = false
    let sweeping: Promise<void> | undefined
    let again = false

    const deliver = async (event: OutboxEvent) => {
      const attempts = event.attempts + 1
      const url = destinations.of(event.owner)
      let reason = `no endpoint is configured for ${event.owner}`
      if (url) {
        const controller = new AbortController()
        inFlight.add(controller)
        const timer = setTimeout(() => controller.abort(), config.timeoutMs)
        try {
          const status = await postSigned(url, event, sign, controller.signal)
          if (status >= 200 && status < 300) {
            await outbox.delivered(event.id)
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
          inFlight.delete(controller)
        }
      }
      const retryAt = attempts >= config.maxAttempts ? undefined : Date.now() + retryDelay(attempts, config)
      await outbox.attemptFailed(event.id, attempts, retryAt, reason)
      const fields = { webhookId: event.id, owner: event.owner, attempts, reason }
      if (retryAt === undefined)
        app.log.error(fields, 'webhook event failed for good: kept as failed and not sent again')
      else app.log.warn({ ...fields, retryAt: new Date(retryAt).toISOString() }, 'webhook attempt failed')
    }

    const sweep = async () => {
      for (let i = 0; i < MAX_BATCHES_PER_SWEEP && !stopped; i++) {
        const now = Date.now()
        const events = await outbox.claim(now, now + leaseMs, BATCH)
        if (events.length === 0) return
        await Promise.all(events.map((event) => deliver(event)))
      }
    }
    // One sweep at a time; a kick during one asks for another right after it.
    const kick = () => {
      if (stopped) return
      if (sweeping) {
        again = true
        return
      }
      sweeping = sweep()
        .catch((error: unknown) => app.log.warn({ err: error }, 'webhook delivery paused: the store failed'))
        .finally(() => {
          sweeping = undefined
          if (again) {
            again = false
            kick()
          }
        })
    }
    const logStats = async () => {
      try {
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
      for (const controller of inFlight) controller.abort()
      await sweeping
    })
  },
  { name: 'webhooks', dependencies: ['repository'] },
)

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
