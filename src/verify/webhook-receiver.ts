// The webhook receiver of the verifier and of the kit's contract suite: listens on 127.0.0.1 during a
// run, takes every newPlant event a server sends, and judges them at the end against the creates the
// run saw answered. It also fails a few first attempts on purpose (a 500, a redirect, an answer held
// back past the document's delivery timeout) and judges that each such event is sent again, as the
// document's delivery promise says: only answers the receiver controls can show whether a sender retries.
import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseJsonBody } from '@plant-store/core'
import { Webhook } from 'standardwebhooks'
import { findingsOf } from './checks.js'
import type { JsonSchema, LoadedDocument, OperationEntry } from './document.js'
import { parseExact } from './exact-json.js'
import type { Answer, RequestSpec } from './http.js'
import { roleOf } from './judge/accepted-statuses.js'
import { schemaProblems } from './judge/answer.js'
import type { Results } from './report/results.js'

export interface WebhookOptions {
  /** The receiver's port on 127.0.0.1; 0 for any free one. */
  port: number
  /** The `whsec_…` secret the server under test signs its events with. */
  secret: string
  /**
   * The longest wait, after the requests, for events and retries still to come (default 30 s); an
   * attempt failed on purpose before the requests ended may stretch it to when its retry is due (see
   * `settle`): at most `holdMs` + the document's first retry (5 s) + 2 s after the requests.
   */
  waitMs?: number
  /**
   * Fail some first attempts on purpose and judge their retries (default true): the first distinct
   * event is held without an answer, the second answered 500, the third redirected (307), and every
   * 5th after them answered 500; every later attempt of an event is answered 200. False: every attempt
   * is answered 200 and no retry is judged.
   */
  failAttempts?: boolean
  /**
   * How long the held attempt waits without an answer before the receiver closes its connection
   * (default: the document's delivery timeout, 10 s, + 1 s, so the sender's own timeout ends it); 0:
   * no attempt is held.
   */
  holdMs?: number
}

/**
 * Whose creates and events a receiver pairs up. Plant ids are per principal, so where several
 * principals create the same id (the contract suite's cases), each principal's events must come to a
 * path of its own: a create and an event are paired only within one scope.
 */
export interface WebhookScopes {
  /** The scope of a create sent with this Authorization; undefined: none of its principal's events come here. */
  ofCreate(authorization: string | undefined): string | undefined
  /** The scope of an event, by the path (query string dropped) it was delivered to. */
  ofDelivery(path: string): string
  /** Whose create this is, as a message names it (`principal 1`); undefined: the scope says enough. */
  nameOf?(authorization: string | undefined): string | undefined
}

/**
 * One scope for the given tokens' creates and for every event, whatever its path: the verifier's two
 * principals, named `principal 1` and `principal 2` after their tokens' order.
 */
export function tokenScopes(tokens: readonly string[]): WebhookScopes {
  const authorizations = tokens.map((token) => `Bearer ${token}`)
  return {
    ofCreate: (authorization) =>
      authorization !== undefined && authorizations.includes(authorization) ? '' : undefined,
    ofDelivery: () => '',
    nameOf: (authorization) => {
      const index = authorization === undefined ? -1 : authorizations.indexOf(authorization)
      return index < 0 ? undefined : `principal ${index + 1}`
    },
  }
}

/** One judged delivery, or one create answered 200 whose event never came; no problems: as the document says. */
export interface WebhookFinding {
  title: string
  /** What was received (method, path, the signing headers, the body), or which create it is. */
  request: string
  /** What the receiver answered it. */
  answer: string
  problems: string[]
}

/** What the receiver does to an event's first attempt on purpose: answer 500, redirect it, or hold it unanswered. */
export type Treatment = 'error' | 'redirect' | 'hold'

/** The events of one webhook, as the document declares them. */
interface WebhookSpec {
  operationId: string
  headers: { name: string; required: boolean; schema: JsonSchema | undefined }[]
  bodySchema: JsonSchema | undefined
  /** The document's delivery timeout: an attempt with no answer within it has failed. */
  timeoutMs: number
  /** The document's bound on the first retry after a failed attempt. */
  firstRetryMs: number
}

interface Delivery {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** The body's bytes as received, hashed: a retry carries the same ones. */
  digest: string
  /** When its request came (ms since the epoch). */
  at: number
  /** Why the signature does not verify, judged when the delivery came; undefined when it does. */
  signatureProblem: string | undefined
  /** What the receiver did to it on purpose; undefined: answered 200. */
  treated?: TreatedEvent
}

/** An event whose first attempt the receiver failed on purpose. */
interface TreatedEvent {
  treatment: Treatment
  webhookId: string
  /** The failed attempt. */
  first: Delivery
  /** Where a redirect pointed. */
  location?: string
  /** When the failed attempt ended (its answer sent, or its connection closed); undefined while held. */
  endedAt?: number
  /** A held attempt whose sender closed it before the receiver did. */
  closedBySender?: boolean
}

/** A request to where a redirect pointed: a sender that followed it. */
interface Followed {
  method: string
  path: string
  headers: IncomingHttpHeaders
  event: TreatedEvent | undefined
}

/** The bodies a receiver takes: a plant is a few hundred bytes, so anything past this is not one. */
const MAX_BODY = 1 << 20
/** After every expected event is in, how long a surplus one (an event for no create) is waited for. */
const SETTLE_MS = 500
const POLL_MS = 25
const DEFAULT_WAIT_MS = 30_000
/** The document's delivery timeout and first retry, when its text cannot be read for them. */
const DOCUMENT_TIMEOUT_MS = 10_000
const DOCUMENT_FIRST_RETRY_MS = 5_000
/** Held past the delivery timeout by this much, so that the sender's timeout, not the receiver, ends it. */
const HOLD_PAST_TIMEOUT_MS = 1_000
/** Leniency on the first retry's bound: a sender polls its outbox, and a busy machine is late. */
const RETRY_SLACK_MS = 2_000
/** Leniency, in seconds, on a retry's webhook-timestamp against the time that passed since the first attempt. */
const TIMESTAMP_SLACK_S = 2
/** After the first three treated events, every this many-th distinct event's first attempt is answered 500. */
const FAIL_EVERY = 5
/** Where a redirect points: a path of the receiver that no sender may ever request. */
const REDIRECT_PREFIX = '/verify-redirect-target/'

type WebhookHolder = { webhooks?: Record<string, { post?: WebhookOperation }> }
interface WebhookOperation {
  operationId?: string
  description?: string
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}

/** The newPlant webhook of the document, or undefined when it has none. */
export function newPlantWebhook(loaded: LoadedDocument): WebhookSpec | undefined {
  const post = (loaded.document as unknown as WebhookHolder).webhooks?.newPlant?.post
  if (!post) return undefined
  const seconds = (pattern: RegExp, fallback: number) => {
    const found = pattern.exec(post.description ?? '')?.[1]
    return found === undefined ? fallback : Number(found) * 1000
  }
  return {
    operationId: post.operationId ?? 'newPlant',
    timeoutMs: seconds(/no answer within\s+(\d+(?:\.\d+)?)\s+seconds/, DOCUMENT_TIMEOUT_MS),
    firstRetryMs: seconds(/first retry within\s+(\d+(?:\.\d+)?)\s+seconds/, DOCUMENT_FIRST_RETRY_MS),
    headers: (post.parameters ?? [])
      .filter((p) => p.in === 'header')
      .map((p) => ({ name: p.name.toLowerCase(), required: p.required === true, schema: p.schema })),
    bodySchema: post.requestBody?.content?.['application/json']?.schema,
  }
}

export class WebhookReceiver {
  private readonly deliveries: Delivery[] = []
  /** Every attempt of each event, by its webhook-id, in the order they came. */
  private readonly attempts = new Map<string, Delivery[]>()
  /** The events whose first attempt was failed on purpose, in the order they came. */
  private readonly treated: TreatedEvent[] = []
  /** The treatments not yet given to an event: each is given once, to the first event it fits. */
  private readonly pending: Treatment[]
  /** Requests to where a redirect pointed. */
  private readonly followed: Followed[] = []
  private readonly holds = new Set<NodeJS.Timeout>()
  /** Distinct events seen (by webhook-id). */
  private distinct = 0
  /** Once the wait began: the end of the wait proper, which a treatment given from then on must fit in. */
  private bound: number | undefined
  /** Each create answered 200, keyed by its scope and id (in decimal), with how many there were. */
  private readonly announced = new Map<string, number>()
  /** Whose creates announced each key, as messages name them. */
  private readonly announcedBy = new Map<string, Set<string>>()
  /** Creates answered anything else, by the same key: an event for one of these is one a refused create sent. */
  /** The statuses of the refused creates of each scope and plant, in order. */
  private readonly refused = new Map<string, number[]>()
  /** How many creates in a scope were answered anything else. */
  private refusals = 0
  private readonly create: OperationEntry | undefined
  /** How long a held attempt is kept unanswered. */
  readonly holdMs: number

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly spec: WebhookSpec,
    private readonly options: WebhookOptions,
    loaded: LoadedDocument,
    private readonly scopes: WebhookScopes,
  ) {
    this.create = loaded.operations.find((entry) => roleOf(entry) === 'create')
    this.holdMs = options.holdMs ?? spec.timeoutMs + HOLD_PAST_TIMEOUT_MS
    this.pending =
      options.failAttempts === false
        ? []
        : this.holdMs > 0
          ? ['hold', 'error', 'redirect']
          : ['error', 'redirect']
    const webhook = new Webhook(options.secret)
    server.on('request', (request, response) => {
      const at = Date.now()
      const chunks: Buffer[] = []
      const hash = createHash('sha256')
      let size = 0
      request.on('data', (chunk: Buffer) => {
        size += chunk.length
        hash.update(chunk)
        if (size <= MAX_BODY) chunks.push(chunk)
      })
      request.on('end', () => {
        const path = request.url ?? ''
        if (path.startsWith(REDIRECT_PREFIX)) {
          // A sender that followed a redirect: noted, and answered as its target would, 200.
          this.followed.push({
            method: request.method ?? '',
            path,
            headers: request.headers,
            event: this.treated.find((event) => event.location === `${this.url}${path.slice(1)}`),
          })
          response.writeHead(200).end()
          return
        }
        const body = Buffer.concat(chunks).toString('utf8')
        const delivery: Delivery = {
          method: request.method ?? '',
          path,
          headers: request.headers,
          body,
          digest: `${size}:${hash.digest('base64')}`,
          at,
          // Now, not when the run is judged: the timestamp's tolerance is measured from its arrival,
          // as a receiver's would be, and a long run would find its early events too old.
          signatureProblem: signatureProblem(webhook, body, request.headers),
        }
        this.deliveries.push(delivery)
        const treatment = this.treat(delivery)
        if (!treatment) {
          // 200 to anything else, even to an event judged wrong: a refusal would make a server send it again.
          response.writeHead(200).end()
          return
        }
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
      })
    })
  }

  /** Listens on 127.0.0.1 at the option's port; throws when the document has no newPlant webhook. */
  static async start(
    options: WebhookOptions,
    loaded: LoadedDocument,
    scopes: WebhookScopes,
  ): Promise<WebhookReceiver> {
    const spec = newPlantWebhook(loaded)
    if (!spec) throw new Error('the document declares no newPlant webhook to judge')
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    const { port } = server.address() as AddressInfo
    return new WebhookReceiver(server, `http://127.0.0.1:${port}/`, spec, options, loaded, scopes)
  }

  get operationId(): string {
    return this.spec.operationId
  }

  /**
   * What to do to a delivery on purpose: nothing to a later attempt of an event (answered 200), and to
   * the first attempt of a new event the next treatment still to give (held, 500, redirect), then a
   * 500 to every FAIL_EVERY-th event. Once the wait began, only a treatment whose retry is due within it.
   */
  private treat(delivery: Delivery): Treatment | undefined {
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
  private retriesOf(event: TreatedEvent): Delivery[] {
    return (this.attempts.get(event.webhookId) ?? []).slice(1)
  }

  /** Every request the run sends and its answer: notes the creates of the scopes and how they were answered. */
  observe(request: RequestSpec, authorization: string | undefined, answer: Answer): void {
    if (!this.create || request.method.toUpperCase() !== this.create.method.toUpperCase()) return
    if (request.path.split('?')[0] !== this.create.path) return
    const scope = this.scopes.ofCreate(authorization)
    if (scope === undefined) return
    const id = createdId(request.body)
    if (id === undefined) return
    const key = keyOf(scope, id)
    if (answer.status === 200) {
      this.announced.set(key, (this.announced.get(key) ?? 0) + 1)
      const name = this.scopes.nameOf?.(authorization)
      if (name !== undefined) this.announcedBy.set(key, (this.announcedBy.get(key) ?? new Set()).add(name))
    } else {
      this.refused.set(key, [...(this.refused.get(key) ?? []), answer.status])
      this.refusals++
    }
  }

  /** The scope and plant of a delivery, as one key; undefined when its body has no integer id. */
  private keyOfDelivery(delivery: Delivery): string | undefined {
    const id = idOf(delivery.body)
    return id === undefined ? undefined : keyOf(this.scopes.ofDelivery(delivery.path.split('?')[0] ?? ''), id)
  }

  /** Events counted by key: one per distinct webhook-id (a repeat of one is a retry, which is allowed). */
  private received(): Map<string, Set<string>> {
    const byKey = new Map<string, Set<string>>()
    for (const delivery of this.deliveries) {
      const key = this.keyOfDelivery(delivery)
      if (key === undefined) continue
      const events = byKey.get(key) ?? new Set()
      events.add(String(delivery.headers['webhook-id']))
      byKey.set(key, events)
    }
    return byKey
  }

  /** Every announced create has its event, and every event failed on purpose has come again. */
  private complete(): boolean {
    if (this.treated.some((event) => this.retriesOf(event).length === 0)) return false
    const received = this.received()
    for (const [key, count] of this.announced) if ((received.get(key)?.size ?? 0) < count) return false
    return true
  }

  /**
   * The end of the wait: `waitMs` after it began, or later where an event failed on purpose before
   * then is still to come again, when its first retry is due (the failed attempt's end, a held one's
   * at most `holdMs` after it came, + the document's first retry + the slack).
   */
  private deadline(): number {
    let deadline = this.bound ?? Number.POSITIVE_INFINITY
    for (const event of this.treated)
      if (this.retriesOf(event).length === 0) deadline = Math.max(deadline, this.retryDue(event))
    return deadline
  }

  /**
   * Waits for every announced create's event and every retry of an event failed on purpose, and a
   * moment (SETTLE_MS) more for any surplus event; then closes the receiver. The wait ends at the
   * latest `waitMs` after it began, stretched only for an event failed on purpose before it began
   * until that event's retry is due: so it ends within max(waitMs, holdMs + first retry + slack).
   * A treatment is given during the wait only where its retry is due within `waitMs`.
   */
  async settle(): Promise<void> {
    this.bound = Date.now() + (this.options.waitMs ?? DEFAULT_WAIT_MS)
    while (!this.complete() && Date.now() < this.deadline()) await sleep(POLL_MS)
    await sleep(Math.min(SETTLE_MS, Math.max(0, this.deadline() - Date.now())))
    await this.close()
  }

  /**
   * Settles, then judges every delivery and every create against them into the verifier's results.
   * `command` is how the run's replay starts: the receiver adds the options its failures need.
   */
  async finish(results: Results, command: string): Promise<{ received: number }> {
    await this.settle()
    const document = `${this.spec.operationId}: POST application/json, the document's body schema, the Standard Webhooks headers, signed with the secret; one event per create answered 200; an attempt answered other than 2xx, redirected (not followed) or unanswered within ${seconds(this.spec.timeoutMs)} sent again with the same webhook-id and body, freshly signed, the first retry within ${seconds(this.spec.firstRetryMs)}`
    const replay = this.replay(command)
    for (const judged of this.judge())
      results.record({
        layer: 'webhooks',
        operationId: this.spec.operationId,
        checks: ['webhook_conformance'],
        findings: findingsOf('webhook_conformance', judged.problems),
        title: judged.title,
        request: judged.request,
        answer: judged.answer,
        document,
        replay,
      })
    results.notes.push(this.retryNote())
    return { received: this.deliveries.length }
  }

  /**
   * The replay of a webhook failure: the run's command with the receiver's options, the port it
   * listened on (the server under test sends there), and the secret from VERIFY_WEBHOOK_SECRET,
   * never printed.
   */
  replay(command: string): string {
    const port = new URL(this.url).port
    const options = [`--webhook-listen ${port}`, '--webhook-secret "$VERIFY_WEBHOOK_SECRET"']
    const { waitMs, holdMs, failAttempts } = this.options
    // Whole seconds, rounded up: a longer wait changes nothing in a run that gets every event.
    if (waitMs !== undefined && waitMs !== DEFAULT_WAIT_MS)
      options.push(`--webhook-wait ${Math.max(1, Math.ceil(waitMs / 1000))}`)
    if (failAttempts === false) options.push('--webhook-no-fail-attempts')
    else if (holdMs !== undefined && holdMs !== this.spec.timeoutMs + HOLD_PAST_TIMEOUT_MS)
      options.push(`--webhook-hold ${holdMs / 1000}`)
    return `${command} ${options.join(' ')}`
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

  /** The creates answered 200, each of which the server owes an event. */
  get createsAnswered200(): number {
    let total = 0
    for (const count of this.announced.values()) total += count
    return total
  }

  /** The creates answered anything but 200, none of which may send an event. */
  get createsRefused(): number {
    return this.refusals
  }

  /** The events received, each counted once however many times it was delivered. */
  get events(): number {
    let total = 0
    for (const events of this.received().values()) total += events.size
    return total
  }

  /** The deliveries received, retries of an event included. */
  get deliveryCount(): number {
    return this.deliveries.length
  }

  /** The events whose first attempt was failed on purpose, by treatment, and how many of them came again. */
  get failedOnPurpose(): Record<Treatment, number> & { retried: number } {
    const counts = { error: 0, redirect: 0, hold: 0, retried: 0 }
    for (const event of this.treated) {
      counts[event.treatment]++
      if (this.retriesOf(event).length > 0) counts.retried++
    }
    return counts
  }

  /** Stops listening; a second call does nothing. */
  async close(): Promise<void> {
    for (const timer of this.holds) clearTimeout(timer)
    this.holds.clear()
    if (!this.server.listening) return
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }

  /**
   * Every delivery judged (the method, content type, headers, body and signature the document gives
   * it, whether a create answered 200 in its scope announced it, and for an attempt failed on purpose,
   * its retries), every request that followed a redirect, and every create answered 200 whose event
   * did not come.
   */
  judge(): WebhookFinding[] {
    const findings: WebhookFinding[] = []
    const counted = new Map<string, number>()
    const seenEvents = new Set<string>()
    for (const delivery of this.deliveries) {
      const problems = this.deliveryProblems(delivery)
      const key = this.keyOfDelivery(delivery)
      const eventId = String(delivery.headers['webhook-id'])
      // A retry carries the webhook-id of an event already in: judged as a delivery, counted once.
      if (key !== undefined && !seenEvents.has(`${key}\t${eventId}`)) {
        seenEvents.add(`${key}\t${eventId}`)
        const count = (counted.get(key) ?? 0) + 1
        counted.set(key, count)
        const expected = this.announced.get(key) ?? 0
        const plant = plantOf(key)
        if (count > expected)
          problems.push(
            expected === 0
              ? this.refused.has(key)
                ? `an event for ${plant}, whose create was refused`
                : `an event for ${plant}, which no create of the run answered 200`
              : `${count} events for ${plant}, but ${expected} create(s) of it answered 200${
                  this.refused.has(key)
                    ? `; its other create(s) were refused (${this.refused.get(key)?.join(', ')}), and a refused create sends no event`
                    : ''
                }`,
          )
      }
      if (delivery.treated) problems.push(...this.retryProblems(delivery.treated))
      findings.push({
        title: `event ${eventId}`,
        request: requestText(delivery.method, delivery.path, delivery.headers, delivery.body),
        answer: this.answerText(delivery),
        problems,
      })
    }
    for (const request of this.followed) {
      const event = request.event
      findings.push({
        title: `event ${event?.webhookId ?? String(request.headers['webhook-id'])}, its redirect followed`,
        request: requestText(request.method, request.path, request.headers, ''),
        answer: 'the receiver answered 200',
        problems: [
          `${event ? this.eventName(event.first) : `event ${String(request.headers['webhook-id'])}`}: the sender followed the receiver's redirect (307 to ${request.path}); a redirect is a failed attempt, not followed, and the event is sent again to the original URL`,
        ],
      })
    }
    for (const [key, expected] of this.announced) {
      const got = counted.get(key) ?? 0
      const plant = plantOf(key)
      if (got < expected)
        findings.push({
          title: `create of ${plant}`,
          request: `the create of ${plant}, answered 200`,
          answer: 'no event came',
          problems: [`no event within the wait for ${expected - got} create(s) of ${plant} answered 200`],
        })
    }
    return findings
  }

  /** An event as a message names it: its webhook-id, its plant (id in digits), whose create it was. */
  private eventName(delivery: Delivery): string {
    const id = String(delivery.headers['webhook-id'])
    const key = this.keyOfDelivery(delivery)
    if (key === undefined) return `event ${id} (no plant id in its body)`
    const names = [...(this.announcedBy.get(key) ?? [])]
    return `event ${id} (${plantOf(key)}${names.length ? ` of ${names.join(' or ')}` : ''})`
  }

  /** What the receiver answered a delivery. */
  private answerText(delivery: Delivery): string {
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
  private retryProblems(event: TreatedEvent): string[] {
    const name = this.eventName(event.first)
    const what = this.treatmentText(event)
    const retries = this.retriesOf(event)
    const first = event.first
    if (retries.length === 0) {
      const key = this.keyOfDelivery(first)
      // A sender that retries under a new webhook-id: the same body for the same plant, after the
      // failure, and more events for that plant than creates announced it (so not another create's).
      const surplus =
        key !== undefined && (this.received().get(key)?.size ?? 0) > (this.announced.get(key) ?? 0)
      const renamed = this.deliveries.find(
        (d) =>
          surplus &&
          d.at >= first.at &&
          d.digest === first.digest &&
          String(d.headers['webhook-id']) !== event.webhookId &&
          this.keyOfDelivery(d) === key,
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

  private deliveryProblems(delivery: Delivery): string[] {
    const problems: string[] = []
    if (delivery.method !== 'POST') problems.push(`method ${delivery.method}, the document says POST`)
    const mediaType = delivery.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
    if (mediaType !== 'application/json')
      problems.push(`content type ${mediaType ?? '(none)'}, the document says application/json`)
    for (const header of this.spec.headers) {
      const value = delivery.headers[header.name]
      if (value === undefined) {
        if (header.required) problems.push(`header ${header.name} is missing`)
        continue
      }
      if (header.schema)
        problems.push(...schemaProblems(header.schema, String(value), `header ${header.name}`))
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(delivery.body)
    } catch {
      problems.push('the body is not JSON')
    }
    if (parsed !== undefined && this.spec.bodySchema)
      problems.push(...schemaProblems(this.spec.bodySchema, parsed, 'body'))
    if (delivery.signatureProblem) problems.push(delivery.signatureProblem)
    return problems
  }
}

const TREATMENT_LABEL: Record<Treatment, string> = {
  hold: 'an attempt held without an answer',
  error: 'an attempt answered 500',
  redirect: 'a redirected attempt',
}

/** A request as a failure shows it: method, path, the signing headers, the start of the body. */
function requestText(method: string, path: string, headers: IncomingHttpHeaders, body: string): string {
  const head = ['webhook-id', 'webhook-timestamp', 'webhook-signature']
    .map((name) => `${name}: ${headers[name] ?? '(none)'}`)
    .join(', ')
  return `${method} ${path} [${head}]${body ? ` ${body.slice(0, 300)}` : ''}`
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`

function signatureProblem(webhook: Webhook, body: string, headers: IncomingHttpHeaders): string | undefined {
  try {
    // jsonParse off: the signature is over the body's bytes, which JSON.parse would not keep.
    webhook.verify(body, flat(headers), { jsonParse: false })
    return undefined
  } catch (error) {
    return `the signature does not verify with the secret: ${(error as Error).message}`
  }
}

/** A scope and a plant id (in decimal) as one key; the id, all digits, is what follows the last tab. */
const keyOf = (scope: string, id: string) => `${scope}\t${id}`

/** A key as its messages name it: `plant 7`, or `plant 7 at /contract-3` where scopes are paths. */
function plantOf(key: string): string {
  const tab = key.lastIndexOf('\t')
  const scope = key.slice(0, tab)
  return `plant ${key.slice(tab + 1)}${scope ? ` at ${scope}` : ''}`
}

/**
 * The id a create's body gives, in decimal, read as a conforming server reads it (`1e18` is an integer
 * there, every digit kept); undefined when it gives none.
 */
function createdId(body: string | undefined): string | undefined {
  if (body === undefined) return undefined
  try {
    const id = (parseJsonBody(body) as { id?: unknown } | null)?.id
    if (typeof id === 'bigint') return String(id)
    return typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : undefined
  } catch {
    return undefined
  }
}

/** An event body's `id` in decimal, every digit as sent; undefined when it has none that is an integer. */
function idOf(body: string | undefined): string | undefined {
  if (body === undefined) return undefined
  try {
    const value = parseExact(body) as { id?: unknown } | null
    const id = value?.id
    return typeof id === 'bigint' ? String(id) : undefined
  } catch {
    return undefined
  }
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(' ') : value
  return out
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
