// The verifier's webhook receiver: listens on 127.0.0.1 during a run, takes every newPlant event the
// server under test sends, and judges them at the end against the creates the run saw answered.
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
  /** The id (in decimal) of each create answered 200 to one of the two principals, with how many there were. */
  private readonly announced = new Map<string, number>()
  /** Creates answered anything else, by id: an event for one of these is one a refused create sent. */
  private readonly refused = new Set<string>()
  private readonly create: OperationEntry | undefined
  private readonly authorizations: Set<string>

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly spec: WebhookSpec,
    private readonly options: WebhookOptions,
    loaded: LoadedDocument,
    tokens: readonly [string, string],
  ) {
    this.create = loaded.operations.find((entry) => roleOf(entry) === 'create')
    this.authorizations = new Set(tokens.map((token) => `Bearer ${token}`))
    server.on('request', (request, response) => {
      const chunks: Buffer[] = []
      let size = 0
      request.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_BODY) chunks.push(chunk)
      })
      request.on('end', () => {
        this.deliveries.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
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
    tokens: readonly [string, string],
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
    return new WebhookReceiver(server, `http://127.0.0.1:${port}/`, spec, options, loaded, tokens)
  }

  get operationId(): string {
    return this.spec.operationId
  }

  /** Every request the run sends and its answer: notes the principals' creates and how they were answered. */
  observe(request: RequestSpec, authorization: string | undefined, answer: Answer): void {
    if (!this.create || request.method.toUpperCase() !== this.create.method.toUpperCase()) return
    if (request.path.split('?')[0] !== this.create.path) return
    if (authorization === undefined || !this.authorizations.has(authorization)) return
    const id = createdId(request.body)
    if (id === undefined) return
    if (answer.status === 200) this.announced.set(id, (this.announced.get(id) ?? 0) + 1)
    else this.refused.add(id)
  }

  /** Events counted by id: one per distinct webhook-id (a repeat of one is a retry, which is allowed). */
  private received(): Map<string, Set<string>> {
    const byId = new Map<string, Set<string>>()
    for (const delivery of this.deliveries) {
      const id = idOf(delivery.body)
      if (id === undefined) continue
      const events = byId.get(id) ?? new Set()
      events.add(String(delivery.headers['webhook-id']))
      byId.set(id, events)
    }
    return byId
  }

  private complete(): boolean {
    const received = this.received()
    for (const [id, count] of this.announced) if ((received.get(id)?.size ?? 0) < count) return false
    return true
  }

  /**
   * Waits, within the option's bound, for every announced create's event, and a moment more for any
   * surplus one; then judges every delivery and every create against them, and closes the receiver.
   */
  async finish(results: Results, command: string): Promise<{ received: number }> {
    const deadline = Date.now() + (this.options.waitMs ?? DEFAULT_WAIT_MS)
    while (!this.complete() && Date.now() < deadline) await sleep(POLL_MS)
    await sleep(Math.min(SETTLE_MS, Math.max(0, deadline - Date.now())))
    await this.close()
    this.judge(results, command)
    return { received: this.deliveries.length }
  }

  /** The creates of the two principals answered 200, each of which the server owes an event. */
  get createsAnswered200(): number {
    let total = 0
    for (const count of this.announced.values()) total += count
    return total
  }

  /** Stops listening; a second call does nothing. */
  async close(): Promise<void> {
    if (!this.server.listening) return
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }

  private judge(results: Results, command: string): void {
    const document = `${this.spec.operationId}: POST application/json, the document's body schema, the Standard Webhooks headers, signed with the secret; one event per create answered 200`
    const record = (title: string, request: string, problems: string[]) =>
      results.record({
        layer: 'webhooks',
        operationId: this.spec.operationId,
        checks: ['webhook_conformance'],
        problems: problems.map((p) => `event: ${p}`),
        title,
        request,
        answer: 'the receiver answered 200',
        document,
        replay: command,
      })
    const webhook = new Webhook(this.options.secret)
    const counted = new Map<string, number>()
    const seenEvents = new Set<string>()
    for (const delivery of this.deliveries) {
      const problems = this.deliveryProblems(delivery, webhook)
      const id = idOf(delivery.body)
      const eventId = String(delivery.headers['webhook-id'])
      // A retry carries the webhook-id of an event already in: judged as a delivery, counted once.
      if (id !== undefined && !seenEvents.has(`${id}\t${eventId}`)) {
        seenEvents.add(`${id}\t${eventId}`)
        const count = (counted.get(id) ?? 0) + 1
        counted.set(id, count)
        const expected = this.announced.get(id) ?? 0
        if (count > expected)
          problems.push(
            expected === 0
              ? this.refused.has(id)
                ? `an event for plant ${id}, whose create was refused`
                : `an event for plant ${id}, which no create of the run answered 200`
              : `${count} events for plant ${id}, created ${expected} time(s)`,
          )
      }
      const head = ['webhook-id', 'webhook-timestamp', 'webhook-signature']
        .map((name) => `${name}: ${delivery.headers[name] ?? '(none)'}`)
        .join(', ')
      record(
        `event ${eventId}`,
        `${delivery.method} ${delivery.path} [${head}] ${delivery.body.slice(0, 300)}`,
        problems,
      )
    }
    for (const [id, expected] of this.announced) {
      const got = counted.get(id) ?? 0
      if (got < expected)
        record(`create of plant ${id}`, `the create of plant ${id}, answered 200`, [
          `no event within the wait for ${expected - got} create(s) of plant ${id} answered 200`,
        ])
    }
  }

  private deliveryProblems(delivery: Delivery, webhook: Webhook): string[] {
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
    try {
      // jsonParse off: the signature is over the body's bytes, which JSON.parse would not keep.
      webhook.verify(delivery.body, flat(delivery.headers), { jsonParse: false })
    } catch (error) {
      problems.push(`the signature does not verify with the secret: ${(error as Error).message}`)
    }
    return problems
  }
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
