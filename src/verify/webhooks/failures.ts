// The attempts a webhook receiver fails on purpose (an answer held back past the delivery timeout, a
// 500, a 307) and the judging of their retries: only answers the receiver controls show whether a
// sender retries as the document's delivery promise says.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Delivery, Followed, TreatedEvent, Treatment, WebhookLedger } from './deliveries.js'
import type { WebhookSpec } from './document.js'
import { HOLD_PAST_TIMEOUT_MS, type WebhookOptions } from './options.js'
import { seconds } from './report-text.js'

/** Leniency on the first retry's bound: a sender polls its outbox, and a busy machine is late. */
const RETRY_SLACK_MS = 2_000
/** Leniency, in seconds, on a retry's webhook-timestamp against the time that passed since the first attempt. */
const TIMESTAMP_SLACK_S = 2
/** After the first three treated events, every this many-th distinct event's first attempt is answered 500. */
const FAIL_EVERY = 5
/** Where a redirect points: a path of the receiver that no sender may ever request. */
export const REDIRECT_PREFIX = '/verify-redirect-target/'

/**
 * The attempts a receiver fails on purpose and the retries they are owed: which first attempt gets
 * which treatment, how it is answered, when its retry is due, and how the retries are judged.
 */
export class DeliveryFailures {
  /** Every attempt of each event, by its webhook-id, in the order they came. */
  readonly attempts = new Map<string, Delivery[]>()
  /** The events whose first attempt was failed on purpose, in the order they came. */
  readonly treated: TreatedEvent[] = []
  /** The treatments not yet given to an event: each is given once, to the first event it fits. */
  readonly pending: Treatment[]
  /** Requests to where a redirect pointed. */
  readonly followed: Followed[] = []
  readonly holds = new Set<NodeJS.Timeout>()
  /** Distinct events seen (by webhook-id). */
  distinct = 0
  /** Once the wait began: the end of the wait proper, which a treatment given from then on must fit in. */
  bound: number | undefined
  /** How long a held attempt is kept unanswered. */
  readonly holdMs: number

  constructor(
    private readonly url: string,
    private readonly spec: WebhookSpec,
    private readonly options: WebhookOptions,
  ) {
    this.holdMs = options.holdMs ?? spec.timeoutMs + HOLD_PAST_TIMEOUT_MS
    this.pending =
      options.failAttempts === false
        ? []
        : this.holdMs > 0
          ? ['hold', 'error', 'redirect']
          : ['error', 'redirect']
  }

  /** Answers a first attempt as its treatment says: 500, a redirect, or no answer until the sender or holdMs ends it. */
  fail(delivery: Delivery, treatment: Treatment, request: IncomingMessage, response: ServerResponse): void {
    const event: TreatedEvent = {
      treatment,
      webhookId: String(delivery.headers['webhook-id']),
      first: delivery,
    }
    delivery.treated = event
    this.treated.push(event)
    if (treatment === 'error') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('failed on purpose: send it again\n')
      event.endedAt = Date.now()
    } else if (treatment === 'redirect') {
      event.location = `${this.url}${REDIRECT_PREFIX.slice(1)}${encodeURIComponent(event.webhookId)}`
      response.writeHead(307, { location: event.location }).end()
      event.endedAt = Date.now()
    } else {
      // No answer: the sender's timeout ends the attempt, or the receiver closes it after holdMs.
      let closedByReceiver = false
      const timer = setTimeout(() => {
        this.holds.delete(timer)
        closedByReceiver = true
        request.socket.destroy()
      }, this.holdMs)
      this.holds.add(timer)
      response.once('close', () => {
        clearTimeout(timer)
        this.holds.delete(timer)
        event.endedAt ??= Date.now()
        event.closedBySender = !closedByReceiver
      })
    }
  }

  /**
   * What to do to a delivery on purpose: nothing to a later attempt of an event (answered 200), and to
   * the first attempt of a new event the next treatment still to give (held, 500, redirect), then a
   * 500 to every FAIL_EVERY-th event. Once the wait began, only a treatment whose retry is due within it.
   */
  treat(delivery: Delivery): Treatment | undefined {
    const id = delivery.headers['webhook-id']
    if (typeof id !== 'string') return undefined
    const attempts = this.attempts.get(id)
    if (attempts) {
      attempts.push(delivery)
      return undefined
    }
    this.attempts.set(id, [delivery])
    if (this.options.failAttempts === false) return undefined
    this.distinct++
    const fits = (treatment: Treatment) =>
      this.bound === undefined || delivery.at + this.retryWithin(treatment) <= this.bound
    const next = this.pending.findIndex(fits)
    if (next >= 0) return this.pending.splice(next, 1)[0]
    return this.pending.length === 0 && this.distinct % FAIL_EVERY === 0 && fits('error')
      ? 'error'
      : undefined
  }

  /** From a treated attempt's arrival, the longest until its first retry is due: its hold, the first retry, the slack. */
  private retryWithin(treatment: Treatment): number {
    return (treatment === 'hold' ? this.holdMs : 0) + this.spec.firstRetryMs + RETRY_SLACK_MS
  }

  /** When a treated event's first retry is due at the latest: the failed attempt's end (or the hold's), + first retry + slack. */
  private retryDue(event: TreatedEvent): number {
    return (event.endedAt ?? event.first.at + this.holdMs) + this.spec.firstRetryMs + RETRY_SLACK_MS
  }

  /** The attempts of a treated event after the failed one. */
  retriesOf(event: TreatedEvent): Delivery[] {
    return (this.attempts.get(event.webhookId) ?? []).slice(1)
  }

  /**
   * The end of the wait: `waitMs` after it began, or later where an event failed on purpose before
   * then is still to come again, when its first retry is due (the failed attempt's end, a held one's
   * at most `holdMs` after it came, + the document's first retry + the slack).
   */
  deadline(): number {
    let deadline = this.bound ?? Number.POSITIVE_INFINITY
    for (const event of this.treated)
      if (this.retriesOf(event).length === 0) deadline = Math.max(deadline, this.retryDue(event))
    return deadline
  }

  /** What the receiver answered a delivery. */
  answerText(delivery: Delivery): string {
    const event = delivery.treated
    if (!event) return 'the receiver answered 200'
    if (event.treatment === 'error')
      return 'the receiver answered 500, on purpose: a failed attempt, to be sent again'
    if (event.treatment === 'redirect')
      return `the receiver answered 307 to ${event.location}, on purpose: a failed attempt, not to be followed, to be sent again`
    const held = event.endedAt === undefined ? undefined : seconds(event.endedAt - delivery.at)
    return event.closedBySender
      ? `no answer, on purpose: the sender closed the attempt after ${held}`
      : `no answer, on purpose: held ${seconds(this.holdMs)}, then closed unanswered`
  }

  /** How a treated event's first attempt was failed, as a message says it. */
  private treatmentText(event: TreatedEvent): string {
    if (event.treatment === 'error') return 'its first attempt was answered 500 on purpose'
    if (event.treatment === 'redirect') return 'its first attempt was redirected (307) on purpose'
    return `its first attempt was held without an answer on purpose (up to ${seconds(this.holdMs)})`
  }

  /**
   * An event failed on purpose: sent again within the wait, to the same path, with the same webhook-id
   * (its attempts are found by it) and body bytes, each attempt freshly signed, the first retry within
   * the document's bound after the failed attempt ended.
   */
  retryProblems(event: TreatedEvent, ledger: WebhookLedger): string[] {
    const name = ledger.eventName(event.first)
    const what = this.treatmentText(event)
    const retries = this.retriesOf(event)
    const first = event.first
    if (retries.length === 0) {
      const key = ledger.keyOfDelivery(first)
      // A sender that retries under a new webhook-id: the same body for the same plant, after the
      // failure, and more events for that plant than creates announced it (so not another create's).
      const surplus =
        key !== undefined && (ledger.received().get(key)?.size ?? 0) > (ledger.announced.get(key) ?? 0)
      const renamed = ledger.deliveries.find(
        (d) =>
          surplus &&
          d.at >= first.at &&
          d.digest === first.digest &&
          String(d.headers['webhook-id']) !== event.webhookId &&
          ledger.keyOfDelivery(d) === key,
      )
      return [
        `${name}: ${what}, and it never came again within the wait: a failed attempt is retried${event.treatment === 'redirect' ? ' to the original URL (redirects are not followed)' : ''}${renamed ? `; event ${String(renamed.headers['webhook-id'])} came after it with the same body: every attempt of an event carries its webhook-id` : ''}`,
      ]
    }
    const problems: string[] = []
    const otherBody = retries.find((retry) => retry.digest !== first.digest)
    if (otherBody)
      problems.push(
        `${name}: ${what}, and a retry's body is not the first attempt's, byte for byte: ${otherBody.body.slice(0, 200)}`,
      )
    const elsewhere = retries.find((retry) => retry.path !== first.path)
    if (elsewhere)
      problems.push(
        `${name}: ${what}, and a retry came to ${elsewhere.path}, not to ${first.path}, where the first attempt went`,
      )
    const firstStamp = Number(first.headers['webhook-timestamp'])
    for (const retry of retries) {
      const stamp = Number(retry.headers['webhook-timestamp'])
      if (!Number.isSafeInteger(firstStamp) || !Number.isSafeInteger(stamp)) continue
      const elapsed = (retry.at - first.at) / 1000
      if (stamp - firstStamp >= elapsed - TIMESTAMP_SLACK_S) continue
      problems.push(
        `${name}: a retry came ${elapsed.toFixed(1)} s after the first attempt, but its webhook-timestamp is ${stamp - firstStamp} s after the first attempt's: each attempt is signed when it is sent`,
      )
      break
    }
    const retry = retries[0] as Delivery
    const delay = retry.at - (event.endedAt ?? retry.at)
    if (delay > this.spec.firstRetryMs + RETRY_SLACK_MS)
      problems.push(
        `${name}: ${what}, and the first retry came ${seconds(delay)} after that attempt ended; the document gives the first retry within ${seconds(this.spec.firstRetryMs)}`,
      )
    return problems
  }

  /** One line on the attempts failed on purpose: how many of each, how many came again, what was not tried. */
  retryNote(): string {
    if (this.options.failAttempts === false)
      return 'the webhook receiver answered every attempt 200 (failing attempts on purpose was turned off): no retry was judged'
    const count = (treatment: Treatment) =>
      this.treated.filter((event) => event.treatment === treatment).length
    const retried = this.treated.filter((event) => this.retriesOf(event).length > 0).length
    const untried = this.pending.map((treatment) => TREATMENT_LABEL[treatment])
    return `the webhook receiver failed the first attempt of ${this.treated.length} event(s) on purpose, to judge their retries (answered 500: ${count('error')}; redirected: ${count('redirect')}; held without an answer: ${count('hold')}); ${retried} of them came again within the wait${untried.length ? `; not tried, for ${this.distinct} event(s) came in time: ${untried.join(', ')}` : ''}`
  }
}

const TREATMENT_LABEL: Record<Treatment, string> = {
  hold: 'an attempt held without an answer',
  error: 'an attempt answered 500',
  redirect: 'a redirected attempt',
}
