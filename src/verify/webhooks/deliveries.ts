// What a webhook receiver records: every delivery as it came, and the run's creates, answered 200 or
// refused, by scope and plant id; an event is paired with its create by that key.
import type { IncomingHttpHeaders } from 'node:http'
import { parseJsonBody } from '@plant-store/core'
import type { LoadedDocument, OperationEntry } from '../document.js'
import { parseExact } from '../exact-json.js'
import type { Answer, RequestSpec } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import type { WebhookScopes } from './options.js'

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

export interface Delivery {
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
export interface TreatedEvent {
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
export interface Followed {
  method: string
  path: string
  headers: IncomingHttpHeaders
  event: TreatedEvent | undefined
}

/** The deliveries a receiver took and the creates of the run, by scope and plant. */
export class WebhookLedger {
  readonly deliveries: Delivery[] = []
  /** Each create answered 200, keyed by its scope and id (in decimal), with how many there were. */
  readonly announced = new Map<string, number>()
  /** Whose creates announced each key, as messages name them. */
  readonly announcedBy = new Map<string, Set<string>>()
  /** Creates answered anything else, by the same key: an event for one of these is one a refused create sent. */
  /** The statuses of the refused creates of each scope and plant, in order. */
  readonly refused = new Map<string, number[]>()
  /** How many creates in a scope were answered anything else. */
  refusals = 0
  private readonly create: OperationEntry | undefined

  constructor(
    loaded: LoadedDocument,
    private readonly scopes: WebhookScopes,
  ) {
    this.create = loaded.operations.find((entry) => roleOf(entry) === 'create')
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
  keyOfDelivery(delivery: Delivery): string | undefined {
    const id = idOf(delivery.body)
    return id === undefined ? undefined : keyOf(this.scopes.ofDelivery(delivery.path.split('?')[0] ?? ''), id)
  }

  /** Events counted by key: one per distinct webhook-id (a repeat of one is a retry, which is allowed). */
  received(): Map<string, Set<string>> {
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

  /** An event as a message names it: its webhook-id, its plant (id in digits), whose create it was. */
  eventName(delivery: Delivery): string {
    const id = String(delivery.headers['webhook-id'])
    const key = this.keyOfDelivery(delivery)
    if (key === undefined) return `event ${id} (no plant id in its body)`
    const names = [...(this.announcedBy.get(key) ?? [])]
    return `event ${id} (${plantOf(key)}${names.length ? ` of ${names.join(' or ')}` : ''})`
  }
}

/** A scope and a plant id (in decimal) as one key; the id, all digits, is what follows the last tab. */
export const keyOf = (scope: string, id: string) => `${scope}\t${id}`

/** A key as its messages name it: `plant 7`, or `plant 7 at /contract-3` where scopes are paths. */
export function plantOf(key: string): string {
  const tab = key.lastIndexOf('\t')
  const scope = key.slice(0, tab)
  return `plant ${key.slice(tab + 1)}${scope ? ` at ${scope}` : ''}`
}

/**
 * The id a create's body gives, in decimal, read as a conforming server reads it (`1e18` is an integer
 * there, every digit kept); undefined when it gives none.
 */
export function createdId(body: string | undefined): string | undefined {
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
export function idOf(body: string | undefined): string | undefined {
  if (body === undefined) return undefined
  try {
    const value = parseExact(body) as { id?: unknown } | null
    const id = value?.id
    return typeof id === 'bigint' ? String(id) : undefined
  } catch {
    return undefined
  }
}
