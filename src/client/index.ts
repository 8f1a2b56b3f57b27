// A typed client for the plant store: openapi-fetch with types generated from the document, int64 ids
// as bigint end to end, the Error body typed, and an async iterator that follows Link to the last page.

import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { parseExact, stringifyExact } from './exact-json.js'
import type { components, paths } from './generated/client-types.js'
import { int64Answers } from './generated/int64-answers.js'
import { announceRequests, trackReads } from './read-tracking.js'

export type { components, paths }
// The document's schema names: a Plant (what a create answers), a NewPlant (what it takes), a
// StoredPlant (what a read, a replace and a page answer), an Error.
export type Plant = components['schemas']['Plant']
export type NewPlant = components['schemas']['NewPlant']
export type StoredPlant = components['schemas']['StoredPlant']
export type ErrorBody = components['schemas']['Error']
export type { ErrorBody as Error }

/**
 * A query key hash that takes bigints, for TanStack Query's `queryKeyHashFn`: an int64 id goes in a
 * query key as it is, with nothing global patched. Object keys are sorted, as TanStack's own hash does.
 */
export function hashQueryKey(queryKey: readonly unknown[]): string {
  return JSON.stringify(queryKey, (_key, value: unknown) => {
    if (typeof value === 'bigint') return { int64: value.toString() }
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const record = value as Record<string, unknown>
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((key) => [key, record[key]]),
      )
    }
    return value
  })
}

/** A value as JSON with every bigint written as its digits (a plant for a cache, a log, storage). */
export const toJson = (value: unknown): string => stringifyExact(value)

/** A stored plant, or a list of them, read back from JSON: every id a bigint, digit for digit. */
export function plantsFromJson<T extends StoredPlant | StoredPlant[]>(text: string): T {
  const plant = { properties: { id: 'int64' as const } }
  const parsed = parseExact(text, undefined)
  return parseExact(text, Array.isArray(parsed) ? { items: plant } : plant) as T
}

/** An answer other than the operation's success, with the document's Error body. */
export class PlantStoreError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${status}: ${body.message}`)
  }
}

/** The data of a success, or a PlantStoreError carrying the status and the Error body. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T
  const body =
    typeof result.error === 'object' && result.error !== null
      ? (result.error as ErrorBody)
      : { error: result.response.status, message: String(result.error ?? result.response.statusText) }
  throw new PlantStoreError(result.response.status, body)
}

export interface ClientOptions {
  /**
   * The plant store's address: absolute (`http://127.0.0.1:3000`) or, where there is a page address,
   * relative to it (`/api`, behind a dev-server proxy).
   */
  baseUrl: string
  /** The bearer token sent with every request. */
  token?: string
  /**
   * A fetch of your own (tests, a polyfill). By default globalThis.fetch as it is when a request is
   * sent, so that MSW set up after the client was made still sees its requests.
   */
  fetch?: typeof globalThis.fetch
}

/** One page of the caller's plants, and the cursor of the page after it (undefined on the last). */
export interface PlantPage {
  plants: StoredPlant[]
  next: string | undefined
}

export interface PlantStoreClient extends Client<paths> {
  /** Every plant of the caller, page after page, following Link until the last page. */
  plants(query?: { tag?: string; limit?: number }): AsyncGenerator<StoredPlant>
  /**
   * One page, and where the next starts: with TanStack Query's useInfiniteQuery,
   * `queryFn: ({ pageParam }) => client.page({ cursor: pageParam })` and
   * `getNextPageParam: (last) => last.next`.
   */
  page(query?: { tag?: string; limit?: number; cursor?: string }): Promise<PlantPage>
}

// openapi-fetch reads a body with JSON.parse, which rounds ids past 2^53; handing it a response whose
// json() reads digit for digit (with a Content-Length, so that it calls json()) keeps them exact.
const exactJson: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) return undefined
    const text = await response.text()
    const shape = int64Answers[`${request.method} ${schemaPath} ${response.status}`]
    const headers = new Headers(response.headers)
    headers.set('content-length', String(new TextEncoder().encode(text).length))
    const exact = new Response(text, { status: response.status, statusText: response.statusText, headers })
    Object.defineProperty(exact, 'json', { value: async () => parseExact(text, shape) })
    // The answer keeps the address it came from: a Link in it is resolved against that (RFC 3986).
    Object.defineProperty(exact, 'url', { value: response.url })
    return exact
  },
}

// The Link header's next page (RFC 8288), read here rather than with @plant-store/core's nextAddress so
// that the client depends on nothing of the kit's.
const nextPage = /<([^>]+)>;\s*rel="next"/

/** A relative base resolved against the page's address, where there is one (a browser, jsdom). */
function absolute(baseUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(baseUrl)) return baseUrl
  const page = (globalThis as { location?: { href?: string } }).location?.href
  return page ? new URL(baseUrl, page).href.replace(/\/$/, '') : baseUrl
}

export function createPlantStoreClient({ baseUrl, token, fetch }: ClientOptions): PlantStoreClient {
  const base = absolute(baseUrl)
  const client = createClient<paths>({
    baseUrl: base,
    // Looked up when a request is sent, not when the client is made.
    fetch: fetch ?? ((input: Request | string | URL, init?: RequestInit) => globalThis.fetch(input, init)),
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    bodySerializer: stringifyExact,
  })
  client.use(exactJson, announceRequests())
  // While the plant store's handlers record a consumer contract, answers report what the app reads.
  trackReads(client)
  /** The query of the page a Link points to, resolved against the answer it came with. */
  const linked = (response: Response): URLSearchParams | undefined => {
    const next = nextPage.exec(response.headers.get('link') ?? '')?.[1]
    return next === undefined ? undefined : new URL(next, response.url || `${base}/plants`).searchParams
  }
  async function page(query: { tag?: string; limit?: number; cursor?: string } = {}): Promise<PlantPage> {
    const result = await client.GET('/plants', { params: { query } })
    const plants = ok(result)
    return { plants, next: linked(result.response)?.get('cursor') ?? undefined }
  }
  async function* plants(query: { tag?: string; limit?: number } = {}): AsyncGenerator<StoredPlant> {
    let params: Record<string, string | number> = { ...query }
    for (;;) {
      const result = await client.GET('/plants', { params: { query: params } })
      for (const plant of ok(result)) yield plant
      const next = linked(result.response)
      if (!next) return
      params = Object.fromEntries(next)
    }
  }
  return Object.assign(client, { plants, page })
}
