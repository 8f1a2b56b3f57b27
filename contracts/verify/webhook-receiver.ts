// The webhook receiver of the verifier and of the kit's contract suite: listens on 127.0.0.1 during a
// run, takes every newPlant event a server sends, and judges them at the end against the creates the
// run saw answered.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseJsonBody } from '@plant-store/core'
import { Webhook } from 'standardwebhooks'
import type { JsonSchema, LoadedDocument, OperationEntry } from '../lib/document.js'
import { roleOf } from '../lib/explore.js'
import type { Answer, RequestSpec } from '../lib/http.js'
import { parseExact } from '../lib/stateful.js'
import { schemaProblems } from '../lib/validate.js'
import type { Results } from './results.js'

export interface WebhookOptions {
  /** The receiver's port on 127.0.0.1; 0 for any free one. */
  port: number
  /** The `whsec_…` secret the server under test signs its events with. */
  secret: string
  /** The longest wait, after the requests, for events still to come (default 30 s). */
  waitMs?: number
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
}

/** One scope for the given tokens' creates and for every event, whatever its path: the verifier's two principals. */
export function tokenScopes(tokens: readonly string[]): WebhookScopes {
  const authorizations = new Set(tokens.map((token) => `Bearer ${token}`))
  return {
    ofCreate: (authorization) =>
      authorization !== undefined && authorizations.has(authorization) ? '' : undefined,
    ofDelivery: () => '',
  }
}

/** One judged delivery, or one create answered 200 whose event never came; no problems: as the document says. */
export interface WebhookFinding {
  title: string
  /** What was received (method, path, the signing headers, the body), or which create it is. */
  request: string
  problems: string[]
}

/** The events of one webhook, as the document declares them. */
interface WebhookSpec {
  operationId: string
  headers: { name: string; required: boolean; schema: JsonSchema | undefined }[]
  bodySchema: JsonSchema | undefined
}

interface Delivery {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** Why the signature does not verify, judged when the delivery came; undefined when it does. */
  signatureProblem: string | undefined
}

/** The bodies a receiver takes: a plant is a few hundred bytes, so anything past this is not one. */
const MAX_BODY = 1 << 20
/** After every expected event is in, how long a surplus one (an event for no create) is waited for. */
const SETTLE_MS = 500
const POLL_MS = 25
const DEFAULT_WAIT_MS = 30_000

type WebhookHolder = { webhooks?: Record<string, { post?: WebhookOperation }> }
interface WebhookOperation {
  operationId?: string
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}

/** The newPlant webhook of the document, or undefined when it has none. */
export function newPlantWebhook(loaded: LoadedDocument): WebhookSpec | undefined {
  const post = (loaded.document as unknown as WebhookHolder).webhooks?.newPlant?.post
  if (!post) return undefined
  return {
    operationId: post.operationId ?? 'newPlant',
    headers: (post.parameters ?? [])
      .filter((p) => p.in === 'header')
      .map((p) => ({ name: p.name.toLowerCase(), required: p.required === true, schema: p.schema })),
    bodySchema: post.requestBody?.content?.['application/json']?.schema,
  }
}

export class WebhookReceiver {
  private readonly deliveries: Delivery[] = []
  /** Each create answered 200, keyed by its scope and id (in decimal), with how many there were. */
  private readonly announced = new Map<string, number>()
  /** Creates answered anything else, by the same key: an event for one of these is one a refused create sent. */
  private readonly refused = new Set<string>()
  /** How many creates in a scope were answered anything else. */
  private refusals = 0
  private readonly create: OperationEntry | undefined

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly spec: WebhookSpec,
    private readonly options: WebhookOptions,
    loaded: LoadedDocument,
    private readonly scopes: WebhookScopes,
  ) {
    this.create = loaded.operations.find((entry) => roleOf(entry) === 'create')
    const webhook = new Webhook(options.secret)
    server.on('request', (request, response) => {
      const chunks: Buffer[] = []
      let size = 0
      request.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_BODY) chunks.push(chunk)
      })
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        this.deliveries.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body,
          // Now, not when the run is judged: the timestamp's tolerance is measured from its arrival,
          // as a receiver's would be, and a long run would find its early events too old.
          signatureProblem: signatureProblem(webhook, body, request.headers),
        })
        // Always 200, even to an event judged wrong: a refusal would make a server send it again.
        response.writeHead(200).end()
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

  /** Every request the run sends and its answer: notes the creates of the scopes and how they were answered. */
  observe(request: RequestSpec, authorization: string | undefined, answer: Answer): void {
    if (!this.create || request.method.toUpperCase() !== this.create.method.toUpperCase()) return
    if (request.path.split('?')[0] !== this.create.path) return
    const scope = this.scopes.ofCreate(authorization)
    if (scope === undefined) return
    const id = createdId(request.body)
    if (id === undefined) return
    const key = keyOf(scope, id)
    if (answer.status === 200) this.announced.set(key, (this.announced.get(key) ?? 0) + 1)
    else {
      this.refused.add(key)
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

  private complete(): boolean {
    const received = this.received()
    for (const [key, count] of this.announced) if ((received.get(key)?.size ?? 0) < count) return false
    return true
  }

  /**
   * Waits, within the option's bound, for every announced create's event, and a moment more for any
   * surplus one; then closes the receiver.
   */
  async settle(): Promise<void> {
    const deadline = Date.now() + (this.options.waitMs ?? DEFAULT_WAIT_MS)
    while (!this.complete() && Date.now() < deadline) await sleep(POLL_MS)
    await sleep(Math.min(SETTLE_MS, Math.max(0, deadline - Date.now())))
    await this.close()
  }

  /** Settles, then judges every delivery and every create against them into the verifier's results. */
  async finish(results: Results, command: string): Promise<{ received: number }> {
    await this.settle()
    const document = `${this.spec.operationId}: POST application/json, the document's body schema, the Standard Webhooks headers, signed with the secret; one event per create answered 200`
    for (const finding of this.judge())
      results.record({
        layer: 'webhooks',
        operationId: this.spec.operationId,
        checks: ['webhook_conformance'],
        problems: finding.problems.map((p) => `event: ${p}`),
        title: finding.title,
        request: finding.request,
        answer: 'the receiver answered 200',
        document,
        replay: command,
      })
    return { received: this.deliveries.length }
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

  /** Stops listening; a second call does nothing. */
  async close(): Promise<void> {
    if (!this.server.listening) return
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }

  /**
   * Every delivery judged (the method, content type, headers, body and signature the document gives
   * it, and whether a create answered 200 in its scope announced it), and every create answered 200
   * whose event did not come.
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
              : `${count} events for ${plant}, created ${expected} time(s)`,
          )
      }
      const head = ['webhook-id', 'webhook-timestamp', 'webhook-signature']
        .map((name) => `${name}: ${delivery.headers[name] ?? '(none)'}`)
        .join(', ')
      findings.push({
        title: `event ${eventId}`,
        request: `${delivery.method} ${delivery.path} [${head}] ${delivery.body.slice(0, 300)}`,
        problems,
      })
    }
    for (const [key, expected] of this.announced) {
      const got = counted.get(key) ?? 0
      const plant = plantOf(key)
      if (got < expected)
        findings.push({
          title: `create of ${plant}`,
          request: `the create of ${plant}, answered 200`,
          problems: [`no event within the wait for ${expected - got} create(s) of ${plant} answered 200`],
        })
    }
    return findings
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
