// What a check judges: one exchange, the request a layer sent and the answer it got, with what the
// document gives that request in the caller's state and what the layer's model of the store says the
// answer shows. Layers build exchanges; the checks (one module each, checks/*.ts) read them.
import type { ContractOperation } from '@plant-store/core'
import { type JsonSchema, type OperationEntry, type Response, responseFor } from '../document.js'
import { parseExact } from '../exact-json.js'
import type { Answer } from '../http.js'
import type { Operation } from '../judge/concurrent-history.js'
import type { Judging } from '../judge/plant.js'
import type { Recorded } from '../judge/recording.js'

/** A plant as the layer's model holds it: its properties, ids as bigint. */
export type Plant = Readonly<Record<string, unknown>>

/** The request as the checks read it: its method, path (and query) and body, as sent. */
export interface SentRequest {
  method: string
  /** Path and query string, e.g. `/plants?limit=1`, or the absolute URL a followed Link gave. */
  path: string
  body?: string
  /** Further headers it sent, by lower-case name (a request id of the client's own). */
  headers?: Readonly<Record<string, string>>
}

/** What the document gives a request in the caller's state. */
export interface Expected {
  /** The statuses the document allows, the first one the one a store gives first. */
  statuses: readonly number[]
  /** How messages name them, when not as the statuses (e.g. `a refusal`). */
  says?: string
  /** What messages add after them: the rule that gives them. */
  why?: string
  /** Any of them may come without a body (a refusal a layer in front of the store writes). */
  bodyOptional?: boolean
}

/** One page of a listing, and what the caller's plants say it holds. */
export interface PageView {
  /** 1 for the page the request asked for; more for a page reached through the Link of the one before. */
  number: number
  /** The plants the listing holds past the last one listed on earlier pages (the filter's), in ascending order of id. */
  plants: readonly Plant[]
  /** The most plants a page holds. */
  limit: number
  /** The properties the document names for a plant of the page. */
  fields: string[]
  /** The ids listed on earlier pages, in order. */
  listed: readonly bigint[]
}

/** Where another principal's plants are known: what the caller must never see, reach or change. */
export interface IsolationView {
  /** The ids (decimal) of other principals' plants, each with whose it is, e.g. `p1`. */
  others: ReadonlyMap<string, string>
  /** The ids (decimal) of the caller's own plants: another principal may use the same id for its own. */
  own: ReadonlySet<string>
  /** The caller's name in messages, e.g. `p0` or `the second principal`. */
  caller: string
  /** The plant the request names, when it names one. */
  named?: bigint
  /** The other principal's plant as its owner read it before this request and after it, when read. */
  untouched?: { id: bigint; before: string; after: Answer }
  /** The caller's whole listing after the request (every page), when read. */
  listing?: bigint[]
  /**
   * The request carries what another principal's answer handed it (a Link target, a cursor), said in
   * `what`; `refused`: the status the document answers it with instead of a page.
   */
  crossed?: { what: string; refused?: number }
}

/** An answer of the server under test to one request. */
export interface HttpExchange {
  kind: 'http'
  /** The document's operation; undefined for a method and path it lacks. */
  operation: OperationEntry | undefined
  request: SentRequest
  answer: Answer
  /** The statuses the document gives this request in the caller's state; undefined: any it documents. */
  expected?: Expected
  /** How plants are judged, and whether the kit's profile is held too. */
  judging: Judging
  /** The request is valid by the document's schemas (the case model says so); undefined: not said. */
  valid?: boolean
  /** Headers the answer must carry, beyond those its response marks required, when its status is expected. */
  requiredHeaders?: readonly string[]
  /** For an operation the document lacks: the Error schema every error answer has. */
  errorSchema?: JsonSchema
  /** The named example whose response a success answer must show. */
  example?: { status: number; body: unknown }
  /**
   * The model's view of the caller's store, where the layer keeps one: the plant a single-plant answer
   * shows (undefined for none, a delete's), with the properties the document names for it and those
   * it may leave out.
   */
  store?: { plant?: { value: Plant; fields: string[]; optional?: string[] } }
  /** For a listing: this page, and what it must hold. */
  page?: PageView
  /** A created plant read back after its create was answered, and the plant as sent. */
  readBack?: { answer: Answer; plant: Plant }
  isolation?: IsolationView
  /** The answer a recording has for the same request (--replay). */
  recorded?: Recorded
  /** The consumer whose request this is (--consumer): its name, and the operation as its contract records it. */
  consumer?: ConsumerView
}

/** A consumer's recorded use of one operation: what it sends, the statuses it handles and what it reads of each. */
export interface ConsumerView {
  name: string
  operation: ContractOperation
}

/** A webhook event the receiver took, and what its judge found of it against the run's creates. */
export interface EventExchange {
  kind: 'event'
  operationId: string
  problems: string[]
}

/**
 * Requests sent together and the reads after them (the concurrency layer): what the document promises
 * of them, and each one's request, answer, and when it was sent and answered.
 */
export interface ConcurrentExchange {
  kind: 'concurrent'
  operationId: string
  /** The promise in a few words, e.g. `one create of an id succeeds`. */
  promise: string
  operations: readonly Operation[]
}

export type Exchange = HttpExchange | EventExchange | ConcurrentExchange

/** The status an answer is judged as: its own when the document allows it, else the first the document gives. */
export function statusExpected(exchange: HttpExchange): number {
  const { answer, expected } = exchange
  if (!expected || expected.statuses.includes(answer.status)) return answer.status
  return expected.statuses[0] ?? answer.status
}

/** Whether the answer has a status the document allows here. */
export const statusAllowed = (exchange: HttpExchange): boolean =>
  !exchange.expected || exchange.expected.statuses.includes(exchange.answer.status)

/** The response the document gives the answer's status, when it gives one. */
export const documentedResponse = (exchange: HttpExchange): Response | undefined =>
  exchange.operation ? responseFor(exchange.operation, exchange.answer.status) : undefined

/** The headers the answer must carry beyond those its response requires: only for a status it expected. */
export const requiredNow = (exchange: HttpExchange): readonly string[] =>
  statusAllowed(exchange) ? (exchange.requiredHeaders ?? []) : []

/** `status 404, the document says 200 (why)`: the one sentence for a status the document does not give. */
export function wrongStatus(exchange: HttpExchange): string {
  const { answer, expected } = exchange
  const says = expected?.says ?? expected?.statuses.join(' or ')
  return `status ${answer.status}, the document says ${says}${expected?.why ? ` ${expected.why}` : ''}`
}

const bodies = new WeakMap<Answer, unknown>()
/**
 * An answer's JSON body read without losing a digit (integers as bigint), once however many checks
 * read it; undefined when it is not JSON.
 */
export function bodyOf(answer: Answer): unknown {
  if (!answer.isJson) return undefined
  if (bodies.has(answer)) return bodies.get(answer)
  let body: unknown
  try {
    body = parseExact(answer.text)
  } catch {
    body = undefined
  }
  bodies.set(answer, body)
  return body
}
