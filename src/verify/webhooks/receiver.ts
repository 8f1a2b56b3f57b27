// The webhook receiver of the verifier and of the kit's contract suite: listens on 127.0.0.1 during a
// run, takes every newPlant event a server sends, and judges them at the end against the creates the
// run saw answered. It also fails a few first attempts on purpose (a 500, a redirect, an answer held
// back past the document's delivery timeout) and judges that each such event is sent again, as the
// document's delivery promise says: only answers the receiver controls can show whether a sender retries.
// The pieces are in files of their own: what it is told (options.ts), what the document says
// (document.ts), what it records (deliveries.ts), what it fails on purpose and how it judges the
// retries (failures.ts), the judging (judge.ts) and its text (report-text.ts).
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { LoadedDocument } from '../document.js'
import type { Answer, RequestSpec } from '../http.js'
import { type Delivery, type Treatment, type WebhookFinding, WebhookLedger } from './deliveries.js'
import { newPlantWebhook, type WebhookSpec } from './document.js'
import { DeliveryFailures, REDIRECT_PREFIX } from './failures.js'
import { judgeWebhooks, signatureProblem } from './judge.js'
import { DEFAULT_WAIT_MS, type WebhookOptions, type WebhookScopes } from './options.js'
import { documentText, replayText } from './report-text.js'

export type { Treatment, WebhookFinding } from './deliveries.js'
export { newPlantWebhook } from './document.js'
export { tokenScopes, type WebhookOptions, type WebhookScopes } from './options.js'

/** The bodies a receiver takes: a plant is a few hundred bytes, so anything past this is not one. */
const MAX_BODY = 1 << 20
/** After every expected event is in, how long a surplus one (an event for no create) is waited for. */
const SETTLE_MS = 500
const POLL_MS = 25

export class WebhookReceiver {
  private readonly ledger: WebhookLedger
  private readonly failures: DeliveryFailures

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly spec: WebhookSpec,
    private readonly options: WebhookOptions,
    loaded: LoadedDocument,
    scopes: WebhookScopes,
  ) {
    this.ledger = new WebhookLedger(loaded, scopes)
    this.failures = new DeliveryFailures(url, spec, options)
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
          this.failures.followed.push({
            method: request.method ?? '',
            path,
            headers: request.headers,
            event: this.failures.treated.find((event) => event.location === `${this.url}${path.slice(1)}`),
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
        this.ledger.deliveries.push(delivery)
        const treatment = this.failures.treat(delivery)
        if (!treatment) {
          // 200 to anything else, even to an event judged wrong: a refusal would make a server send it again.
          response.writeHead(200).end()
          return
        }
        this.failures.fail(delivery, treatment, request, response)
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

  /** How long a held attempt is kept unanswered. */
  get holdMs(): number {
    return this.failures.holdMs
  }

  /** Every request the run sends and its answer: notes the creates of the scopes and how they were answered. */
  observe(request: RequestSpec, authorization: string | undefined, answer: Answer): void {
    this.ledger.observe(request, authorization, answer)
  }

  /** Every announced create has its event, and every event failed on purpose has come again. */
  private complete(): boolean {
    if (this.failures.treated.some((event) => this.failures.retriesOf(event).length === 0)) return false
    const received = this.ledger.received()
    for (const [key, count] of this.ledger.announced) if ((received.get(key)?.size ?? 0) < count) return false
    return true
  }

  /**
   * Waits for every announced create's event and every retry of an event failed on purpose, and a
   * moment (SETTLE_MS) more for any surplus event; then closes the receiver. The wait ends at the
   * latest `waitMs` after it began, stretched only for an event failed on purpose before it began
   * until that event's retry is due: so it ends within max(waitMs, holdMs + first retry + slack).
   * A treatment is given during the wait only where its retry is due within `waitMs`.
   */
  async settle(): Promise<void> {
    this.failures.bound = Date.now() + (this.options.waitMs ?? DEFAULT_WAIT_MS)
    while (!this.complete() && Date.now() < this.failures.deadline()) await sleep(POLL_MS)
    await sleep(Math.min(SETTLE_MS, Math.max(0, this.failures.deadline() - Date.now())))
    await this.close()
  }

  /**
   * Settles, then judges every delivery and every create against them: each event with what is wrong
   * with it, the document's words for an event, and the replay of a webhook failure (`command` is how
   * the run's replay starts: the receiver adds the options its failures need).
   */
  async finish(
    command: string,
  ): Promise<{ events: WebhookFinding[]; document: string; replay: string; received: number }> {
    await this.settle()
    return {
      events: this.judge(),
      document: documentText(this.spec),
      replay: this.replay(command),
      received: this.ledger.deliveries.length,
    }
  }

  /**
   * The replay of a webhook failure: the run's command with the receiver's options, the port it
   * listened on (the server under test sends there), and the secret from VERIFY_WEBHOOK_SECRET,
   * never printed.
   */
  replay(command: string): string {
    return replayText(command, this.url, this.options, this.spec)
  }

  /** One line on the attempts failed on purpose: how many of each, how many came again, what was not tried. */
  retryNote(): string {
    return this.failures.retryNote()
  }

  /** The creates answered 200, each of which the server owes an event. */
  get createsAnswered200(): number {
    let total = 0
    for (const count of this.ledger.announced.values()) total += count
    return total
  }

  /** The creates answered anything but 200, none of which may send an event. */
  get createsRefused(): number {
    return this.ledger.refusals
  }

  /** The events received, each counted once however many times it was delivered. */
  get events(): number {
    let total = 0
    for (const events of this.ledger.received().values()) total += events.size
    return total
  }

  /** The deliveries received, retries of an event included. */
  get deliveryCount(): number {
    return this.ledger.deliveries.length
  }

  /** The events whose first attempt was failed on purpose, by treatment, and how many of them came again. */
  get failedOnPurpose(): Record<Treatment, number> & { retried: number } {
    const counts = { error: 0, redirect: 0, hold: 0, retried: 0 }
    for (const event of this.failures.treated) {
      counts[event.treatment]++
      if (this.failures.retriesOf(event).length > 0) counts.retried++
    }
    return counts
  }

  /** Stops listening; a second call does nothing. */
  async close(): Promise<void> {
    for (const timer of this.failures.holds) clearTimeout(timer)
    this.failures.holds.clear()
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
    return judgeWebhooks(this.ledger, this.failures, this.spec)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
