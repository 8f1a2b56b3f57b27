// The plant store in process, for frontend tests and browsers: one `answer(request)` for both modes
// ("stateful": the sandbox's behaviour on an in-memory store; "examples": the document's examples, as
// `npm run mock` serves them), plus Prefer delay / network error, one-shot overrides for a test, and the
// newPlant webhook as a call to the test's own function.

import {
  type Answer,
  type Document,
  dereference,
  type ExactPlant,
  errorBody,
  givenPlants,
  type Har,
  HttpError,
  handlerDocument,
  type OperationEntry,
  openMemoryRepository,
  type operations,
  pickPlant,
  plantOperations,
  type RecordedPlant,
  RequestReader,
  readRecording,
  requestValidators,
  type SkippedExchange,
  type webhooks,
} from '@plant-store/core'
import type { SentRequest } from '@plant-store/core/contract'
import { stringify } from 'lossless-json'
import { contractRecording, type Recording } from './recording.js'

export type Mode = 'stateful' | 'examples'

export interface PlantStoreOptions {
  /** "stateful" (default): a store per bearer token, seeded with the document's example plants. */
  mode?: Mode
  /** The longest `Prefer: delay=MS` honoured, in milliseconds (default 10000). */
  maxDelay?: number
  /**
   * The document to serve. Default: the kit's spec/openapi.yaml, built into @plant-store/core with its
   * request validators compiled ahead of time. A document of your own is validated with Ajv, compiled
   * at run time and loaded (in a page, a chunk of its own) with the first request.
   */
  document?: Document
  /** Called for each create answered 200, as the server would send the newPlant webhook; kept through `reset()`. */
  onNewPlant?: NewPlantListener
  /**
   * A HAR recording (its JSON text, or parsed): each principal it saw starts with the plants it had at
   * the recording's end, for the token its Authorization carried (`Bearer principal-1` as the proxy
   * records). Exchanges that departed from the document are not imported: see `store.skipped`.
   */
  seed?: Har | string
  /**
   * The consumer's name in the contract recorded when PLANT_STORE_CONTRACT names a file. Default: the
   * name in the package.json nearest the working directory.
   */
  consumer?: string
}

/** The plant of a newPlant event, as the webhook's body has it: `id` a bigint, every digit as sent. */
export type NewPlant = ExactPlant

/** Receives each newPlant event: the plant, and the principal (here the bearer token) that created it. */
export type NewPlantListener = (plant: NewPlant, principal: string) => void

/** The events a test can subscribe to: the document's webhooks. */
export interface PlantStoreEvents {
  newPlant: NewPlantListener
}

/** The document's operation ids (its webhooks aside): what `failNext` takes. */
export type OperationId = Exclude<keyof operations, keyof webhooks>

/** What one overridden request answers instead: a status (and body), or a network error. */
export type Override = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error'

/** An answer, or a network error (a fetch that rejects). */
export type Outcome = { response: Response; delay: number } | { networkError: true; delay: number }

const json = 'application/json; charset=utf-8'
const controlParameters = ['__code', '__example', '__dynamic']

export class PlantStore {
  readonly mode: Mode
  readonly reader: RequestReader
  private readonly maxDelay: number
  private readonly seeds: ReturnType<typeof givenPlants>
  private readonly recorded?: Map<string, RecordedPlant[]>
  /** The seed recording's exchanges left out because they departed from the document, and why. */
  readonly skipped: SkippedExchange[] = []
  private repository = openMemoryRepository()
  private seeded = new Map<string, Promise<unknown>>()
  private overrides = new Map<string, Override[]>()
  private readonly permanent: NewPlantListener[]
  private listeners: NewPlantListener[] = []
  private readonly recording: Recording | undefined

  constructor({
    mode = 'stateful',
    maxDelay = 10_000,
    document,
    onNewPlant,
    seed,
    consumer,
  }: PlantStoreOptions = {}) {
    this.mode = mode
    this.maxDelay = maxDelay
    this.permanent = onNewPlant ? [onNewPlant] : []
    const dereferenced = dereference(structuredClone(document ?? handlerDocument))
    this.reader = new RequestReader(dereferenced, document ? {} : { validators: requestValidators })
    this.seeds = givenPlants(dereferenced)
    this.recording = contractRecording(consumer)
    void this.recording?.recorder.then((recorder) => recorder.register(dereferenced, this.reader.operations))
    if (seed !== undefined) {
      const state = readRecording(seed, this.reader.operations)
      this.recorded = state.principals
      this.skipped = state.skipped
      for (const { index, method, url, reason } of state.skipped)
        console.warn(
          `plant store handlers: seed exchange ${index + 1} (${method} ${url}) not imported: ${reason}`,
        )
    }
  }

  /** The next request to this operation answers `override` instead, once; later ones are normal again. */
  failNext(operationId: OperationId, override: Override = { status: 500 }): void {
    const known = this.reader.operations.map((entry) => entry.operationId)
    if (!known.includes(operationId))
      throw new Error(`no operation ${operationId} in the document (its operations: ${known.join(', ')})`)
    this.overrides.set(operationId, [...(this.overrides.get(operationId) ?? []), override])
  }

  /**
   * Calls `listener` for each create answered 200 from now on, with the plant as the newPlant webhook's
   * body; returns the function that unsubscribes it. `reset()` unsubscribes it too, as it drops a test's
   * overrides.
   */
  subscribe<E extends keyof PlantStoreEvents>(event: E, listener: PlantStoreEvents[E]): () => void {
    if (event !== 'newPlant') throw new Error(`no event ${String(event)}: the document has newPlant`)
    this.listeners.push(listener)
    return () => {
      this.listeners = this.listeners.filter((known) => known !== listener)
    }
  }

  /** Forgets every plant, seed, pending override and subscription: each test starts from the document's examples. */
  async reset(): Promise<void> {
    await this.repository.close()
    this.repository = openMemoryRepository()
    this.seeded = new Map()
    this.overrides = new Map()
    this.listeners = []
  }

  /**
   * Answers a request as the handlers do. `prefix` is the path of the store's base address (`/api/v1`):
   * the request's path below it is the document's. A page's `Link` is query-only, so resolved against
   * the page's address it stays below the base address with no rewriting.
   */
  async answer(request: Request, prefix = ''): Promise<Outcome> {
    const url = new URL(request.url)
    const path = url.pathname.slice(prefix.length)
    let delay = 0
    let secured = false
    let entry: OperationEntry | undefined
    let sent: SentRequest | undefined
    let answer: Answer
    try {
      const prefer = preferences(request.headers.get('prefer'))
      delay = this.delayOf(prefer.get('delay'))
      const routed = this.reader.route(request.method, path)
      if (routed.refusal) throw routed.refusal
      entry = routed.entry
      secured = entry.secured
      const override = this.overrides.get(entry.operationId)?.shift()
      if (override === 'network-error' || prefer.has('network-error')) return { networkError: true, delay }
      if (override) {
        const body = override.body ?? errorBody(override.status, 'forced by the test')
        answer = { status: override.status, body, headers: override.headers }
      } else {
        const query = new URLSearchParams(url.search)
        for (const name of controlParameters) query.delete(name)
        let body: unknown
        // Only when recording: the body as sent, before validation fills in a default.
        const onBody = this.recording
          ? (parsed: unknown) => {
              body = structuredClone(parsed)
            }
          : undefined
        const read = await this.reader.read(request, routed, query, onBody)
        if (this.recording) sent = sentRequest(read.input, query, request.headers, body)
        answer =
          this.mode === 'examples'
            ? exampleAnswer(read.entry, prefer, url.searchParams, query)
            : await this.operate(read.entry, read.token ?? '', read.input)
        if (read.entry.operationId === 'createPlant' && answer.status === 200)
          this.announce((read.input as unknown as { body: NewPlantInput }).body, read.token ?? '')
      }
    } catch (error) {
      const { statusCode, message, headers } =
        error instanceof HttpError ? error : new HttpError(500, 'internal server error')
      answer = { status: statusCode, body: errorBody(statusCode, message), headers }
    }
    const response = respond(answer, secured)
    if (this.recording && entry) {
      const tracked = this.recording.claim(request.method, request.url)
      const recorder = await this.recording.recorder
      recorder.exchange({
        entry,
        sent,
        status: answer.status,
        body: answer.body,
        headers: response.headers,
        tracked,
      })
    }
    return { response, delay }
  }

  private async operate(entry: OperationEntry, token: string, input: unknown): Promise<Answer> {
    // The health checks: an in-memory store is always alive and ready.
    if (!entry.secured && entry.method === 'get' && !(entry.operationId in plantOperations))
      return { status: 200, body: { status: 'ok' } }
    // As in the sandbox, a token seen for the first time starts with the document's example plants.
    // One seeding per token, awaited by every request: a token's first requests may come together.
    let seeding = this.seeded.get(token)
    if (!seeding) {
      const repository = this.repository
      seeding = Promise.all(
        (this.recorded?.get(token) ?? this.seeds).map((plant) =>
          repository.create(token, { ...plant, id: BigInt(plant.id) }),
        ),
      )
      this.seeded.set(token, seeding)
    }
    await seeding
    const operation = plantOperations[entry.operationId as keyof typeof plantOperations]
    if (!operation) throw new Error(`no behaviour for operation ${entry.operationId}`)
    return operation(this.repository, token, input as never)
  }

  /**
   * Before the answer goes out, so that a test that awaited its create sees the event. A listener's
   * error must not turn the 200 into another answer: it is thrown again outside the request, where
   * the test runner reports it.
   */
  private announce(body: NewPlantInput, principal: string): void {
    const plant: NewPlant = pickPlant(body)
    for (const listener of [...this.permanent, ...this.listeners]) {
      try {
        listener({ ...plant }, principal)
      } catch (error) {
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  private delayOf(value: string | undefined): number {
    if (value === undefined) return 0
    const ms = Number(value)
    if (!/^\d+$/.test(value) || ms > this.maxDelay)
      throw new HttpError(
        400,
        `Prefer: delay must be a whole number of milliseconds from 0 to ${this.maxDelay}, not ${value}`,
      )
    return ms
  }
}

/** RFC 7240 preferences: `delay=200, code=404, example=herbs, network-error`. */
function preferences(header: string | null): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>()
  for (const part of (header ?? '').split(/[,;]/)) {
    const [name, value] = part.split('=').map((s) => s.trim())
    if (name) out.set(name.toLowerCase(), value?.replace(/^"(.*)"$/, '$1'))
  }
  return out
}

/**
 * The examples mode's answer, chosen as Prism chooses: `Prefer: code=…, example=…` or the `__code` and
 * `__example` query parameters, else the first success and its first example. One difference, on
 * purpose: a page asked for with a cursor carries no Link, so a client that follows Link stops.
 */
function exampleAnswer(
  entry: OperationEntry,
  prefer: Map<string, string | undefined>,
  search: URLSearchParams,
  query: URLSearchParams,
): Answer {
  const responses = entry.operation.responses ?? {}
  const code = prefer.get('code') ?? search.get('__code') ?? Object.keys(responses).find((s) => /^2/.test(s))
  const response = code === undefined ? undefined : (responses[code] as ResponseObject | undefined)
  if (code === undefined || !response)
    throw new HttpError(400, `${entry.operationId} documents no response with status ${code}`)
  const status = Number(code)
  const content = response.content?.['application/json']
  const name = prefer.get('example') ?? search.get('__example') ?? undefined
  let body: unknown
  if (content) {
    const examples = content.examples ?? {}
    if (name !== undefined && !(name in examples))
      throw new HttpError(400, `${entry.operationId} documents no example ${name} for status ${code}`)
    const chosen = name === undefined ? Object.values(examples)[0] : examples[name]
    body = chosen?.value ?? content.example ?? content.schema?.example
  }
  const headers: Record<string, string> = {}
  for (const [header, spec] of Object.entries(response.headers ?? {})) {
    const value = spec.example ?? spec.schema?.example
    if (value === undefined) continue
    if (header.toLowerCase() === 'link' && query.has('cursor')) continue
    headers[header.toLowerCase()] = String(value)
  }
  return { status, body, headers }
}

/** What the consumer sent: the parameters it gave (not the defaults validation filled in) and its body. */
function sentRequest(
  input: { params?: unknown; query?: unknown },
  query: URLSearchParams,
  headers: Headers,
  body: unknown,
): SentRequest {
  const given = Object.entries((input.query ?? {}) as Record<string, unknown>).filter(([name]) =>
    query.has(name),
  )
  return {
    params: (input.params ?? {}) as Record<string, unknown>,
    query: Object.fromEntries(given),
    headers,
    body,
  }
}

/** A create's validated body: the id as the reader read it (a bigint or a safe number). */
type NewPlantInput = operations['createPlant']['requestBody']['content']['application/json']

interface ResponseObject {
  content?: Record<
    string,
    { examples?: Record<string, { value?: unknown }>; example?: unknown; schema?: { example?: unknown } }
  >
  headers?: Record<string, { example?: unknown; schema?: { example?: unknown } }>
}

/** The answer as a Response: JSON with int64 digits kept (lossless-json writes bigints as numbers). */
function respond({ status, body, json: text, headers = {} }: Answer, secured = false): Response {
  const all = new Headers(headers)
  all.set('x-request-id', crypto.randomUUID())
  if (secured) all.set('cache-control', 'no-store')
  if (status === 204 || (body === undefined && text === undefined))
    return new Response(null, { status, headers: all })
  all.set('content-type', json)
  return new Response(text ?? stringify(body) ?? 'null', { status, headers: all })
}
