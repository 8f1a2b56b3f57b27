// Reads a HAR recording of plant store traffic and works out what each principal's store held when it
// ended. Pure (no file system, nothing of Node's), so that the sandbox and the in-process handlers,
// in a browser too, start their stores from a recording alike.
import { type OperationEntry, routeSchema, type Schema } from '../document.js'
import type { components } from '../generated/openapi.js'
import { requestValidators } from '../generated/request-validators.js'
import { bearerToken } from './bearer.js'
import { checkOf, type Validate, validatable } from './check.js'
import { parseJsonBody } from './json-body.js'
import { nextAddress } from './link.js'
import { type ExactPlant, pickPlant } from './plant-fields.js'

export interface HarHeader {
  name: string
  value: string
}

/** A body as HAR 1.2 keeps it: text, or base64 when `encoding` says so. */
export interface HarContent {
  size: number
  mimeType: string
  text?: string
  encoding?: string
}

/** The verdict of the validating proxy on one exchange, as it judged it at record time. */
export interface ContractVerdict {
  ok: boolean
  /** The operation the exchange was judged by; null when the document has none. */
  operation?: string | null
  findings: { check: string; message: string }[]
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    headers: HarHeader[]
    queryString: HarHeader[]
    cookies: unknown[]
    postData?: { mimeType: string; text?: string; encoding?: string }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    headers: HarHeader[]
    cookies: unknown[]
    content: HarContent
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, unknown>
  timings: { send: number; wait: number; receive: number }
  /** Written by the kit's proxy; absent from a browser's export. */
  _contract?: ContractVerdict
}

export interface Har {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] }
}

/** A plant as the recording left it: the document's fields, the id a bigint. */
export type RecordedPlant = ExactPlant

/** An exchange left out of the store because it departed from the document, and why. */
export interface SkippedExchange {
  /** Its place among the recording's entries, from 0. */
  index: number
  method: string
  url: string
  status: number
  reason: string
}

export interface RecordingState {
  /**
   * Each principal, by the credentials its requests carried (the text after `Bearer `: the
   * recording's pseudonym such as `principal-1`, or a real token in a browser's export), and the
   * plants its store held at the end of the recording, in id order.
   */
  principals: Map<string, RecordedPlant[]>
  skipped: SkippedExchange[]
}

/** What the store of one principal is known to hold, and where each page's Link pointed. */
interface Known {
  plants: Map<bigint, RecordedPlant>
  /** A cursor a page's Link gave → the last id of that page. */
  cursors: Map<string, bigint>
}

/**
 * Replays the recording's exchanges, in order, onto empty stores: a create answered 2xx adds its plant,
 * a delete removes it, a read or a replace shows it as answered (a 404 shows it absent), and a page
 * of the list shows which plants exist between its first and last id. `operations` are the document's.
 */
export function readRecording(har: Har | string, operations: OperationEntry[]): RecordingState {
  const parsed = (typeof har === 'string' ? JSON.parse(har) : har) as Partial<Har>
  const entries = parsed?.log?.entries
  if (!Array.isArray(entries)) throw new Error('not a HAR recording: it has no log.entries')
  const route = router(operations)
  const stores = new Map<string, Known>()
  const skipped: SkippedExchange[] = []
  entries.forEach((entry, index) => {
    const { method, url } = entry.request
    const status = entry.response.status
    // HEAD and CORS preflights change nothing; status 0 is a browser's request that got no answer.
    if (method === 'HEAD' || method === 'OPTIONS' || status === 0) return
    const address = new URL(url, 'http://recording.invalid')
    const found = route(method, address.pathname)
    const reason = departure(entry, found)
    if (reason !== undefined) {
      skipped.push({ index, method, url, status, reason })
      return
    }
    if (!found?.entry.secured) return
    const token = bearerToken(header(entry.request.headers, 'authorization'))
    if (token === undefined || status === 401 || status === 403) return
    let known = stores.get(token)
    if (!known) {
      known = { plants: new Map(), cursors: new Map() }
      stores.set(token, known)
    }
    apply(known, found, entry, address.searchParams)
  })
  const principals = new Map<string, RecordedPlant[]>()
  for (const [token, { plants }] of stores)
    principals.set(
      token,
      [...plants.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    )
  return { principals, skipped }
}

interface Found {
  entry: OperationEntry
  params: Record<string, string>
}

/** The operation of a path: exactly the document's, or the document's below a prefix (`/api/plants`). */
function router(operations: OperationEntry[]): (method: string, pathname: string) => Found | undefined {
  const routes = operations
    .map((entry) => {
      const names = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string)
      const source = entry.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')
      return { entry, names, exact: new RegExp(`^${source}$`), below: new RegExp(`/${source.slice(1)}$`) }
    })
    // A literal segment wins over a template, as in a router: /plants/search is never /plants/{id}.
    .sort((a, b) => a.names.length - b.names.length)
  return (method, pathname) => {
    const same = routes.filter((r) => r.entry.method === method.toLowerCase())
    for (const pattern of ['exact', 'below'] as const)
      for (const r of same) {
        const match = r[pattern].exec(pathname)
        if (match)
          return {
            entry: r.entry,
            params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? '')])),
          }
      }
    return undefined
  }
}

const header = (headers: HarHeader[], name: string): string | undefined =>
  headers.find((h) => h.name.toLowerCase() === name)?.value

/** A HAR body as text: base64 decoded to UTF-8, as the client read it. */
export function bodyText(content: { text?: string; encoding?: string } | undefined): string {
  if (content?.text === undefined) return ''
  if (content.encoding !== 'base64') return content.text
  const bytes = Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/**
 * Why an exchange is not imported, or undefined when it is. The proxy's verdict (`_contract`) when the
 * recording has one; otherwise what can be judged here: the status is documented, an error is the
 * document's Error, and a success answered a request the document accepts with plants its schemas
 * accept. Headers and content types are judged only by the proxy.
 */
function departure(entry: HarEntry, found: Found | undefined): string | undefined {
  const verdict = entry._contract
  if (verdict) {
    if (verdict.ok) return undefined
    const said = verdict.findings.map((f) => `${f.check}: ${f.message}`).join('; ')
    return said || 'the recording marks it as departing from the document'
  }
  const { status } = entry.response
  // A browser's export holds the page's own files and other services too: not the store's to judge.
  if (!found) return undefined
  const { operationId, operation } = found.entry
  const responses = Object.keys(operation.responses ?? {})
  if (![String(status), `${String(status)[0]}XX`, 'default'].some((key) => responses.includes(key)))
    return `status ${status} is not documented for ${operationId} (documented: ${responses.join(', ')})`
  let body: unknown
  const text = bodyText(entry.response.content)
  try {
    body = text === '' ? undefined : parseJsonBody(text)
  } catch {
    return `the ${status} answer's body is not JSON`
  }
  if (status >= 400) {
    const error = body as { error?: unknown; message?: unknown } | undefined
    return error?.error === status && typeof error.message === 'string'
      ? undefined
      : `the ${status} answer is not the document's Error with error ${status}`
  }
  const refused = requestProblem(entry, found)
  if (refused) return `the request departs from the document (${refused}), yet was answered ${status}`
  return answerProblem(operationId, status, body)
}

/** The compiled validators of core's document, by operation and request part. */
const validators = requestValidators as Record<string, Partial<Record<string, Validate>>>

function requestProblem(entry: HarEntry, { entry: op, params }: Found): string | undefined {
  const schema = routeSchema(op)
  const query: Record<string, string> = {}
  for (const [name, value] of new URL(entry.request.url, 'http://recording.invalid').searchParams)
    query[name] = value
  const parts: [string, Schema | undefined, () => unknown][] = [
    ['params', schema.params, () => params],
    ['querystring', schema.querystring, () => query],
    ['body', schema.body, () => parseJsonBody(bodyText(entry.request.postData))],
  ]
  for (const [part, partSchema, data] of parts) {
    const validate = validators[op.operationId]?.[part]
    if (!partSchema || !validate) continue
    const check = checkOf({ schema: partSchema, httpPart: part }, () => validate)
    let value: unknown
    try {
      value = data()
    } catch (error) {
      return `${part}: ${(error as Error).message}`
    }
    if (check(value) === false)
      return (check.errors ?? []).map((e) => `${part}${e.instancePath} ${e.message}`).join(', ')
  }
  return undefined
}

/** A plant's schema: Plant (a create's answer) or StoredPlant (with its id), by core's validators. */
const plantSchema = (withId: boolean): Validate | undefined =>
  withId ? validators.createPlant?.body : validators.replacePlant?.body

function answerProblem(operationId: string, status: number, body: unknown): string | undefined {
  const judged: [unknown[], boolean] | undefined =
    operationId === 'listPlants'
      ? [Array.isArray(body) ? body : [body], true]
      : operationId === 'createPlant'
        ? [[body], false]
        : operationId === 'getPlant' || operationId === 'replacePlant'
          ? [[body], true]
          : undefined
  if (!judged) return undefined
  const [plants, withId] = judged
  if (operationId === 'listPlants' && !Array.isArray(body))
    return `the ${status} answer is not a list of plants`
  const validate = plantSchema(withId)
  for (const plant of plants)
    if (validate && !validate(validatable(plant)))
      return `the ${status} answer's plant departs from the document: ${(validate.errors ?? [])
        .map((e) => `body${e.instancePath} ${e.message}`)
        .join(', ')}`
  return undefined
}

/** A plant as a body holds it (the id as parsed: a number, or a bigint beyond 2^53). */
type BodyPlant = Partial<components['schemas']['StoredPlant']>

const plantOf = (id: number | bigint | string, body: BodyPlant): RecordedPlant => pickPlant(body, id)

/** What one accepted exchange shows of its principal's store. */
function apply(known: Known, { entry: op, params }: Found, entry: HarEntry, query: URLSearchParams): void {
  const { status } = entry.response
  const answered = (): unknown => parseJsonBody(bodyText(entry.response.content))
  const { plants } = known
  const id = params.id === undefined ? undefined : BigInt(params.id)
  switch (op.operationId) {
    case 'createPlant': {
      if (status < 200 || status > 299) return
      const sent = parseJsonBody(bodyText(entry.request.postData)) as BodyPlant
      if (sent.id === undefined) return
      // The answer's name and tag are what the store kept; the id is the one the caller chose.
      const kept = (bodyText(entry.response.content) === '' ? sent : answered()) as BodyPlant
      plants.set(BigInt(sent.id), plantOf(sent.id, kept.name === undefined ? sent : kept))
      return
    }
    case 'getPlant':
    case 'replacePlant':
      if (status === 200) {
        const plant = answered() as BodyPlant
        if (plant.id !== undefined) plants.set(BigInt(plant.id), plantOf(plant.id, plant))
      } else if (status === 404 && id !== undefined) plants.delete(id)
      return
    case 'deletePlant':
      if ((status === 404 || (status >= 200 && status < 300)) && id !== undefined) plants.delete(id)
      return
    case 'listPlants':
      if (status === 200) page(known, answered() as BodyPlant[], entry, query)
  }
}

/**
 * A page shows every plant with an id after the cursor's and up to its last (to the end, on the last
 * page), the tag's alone when filtered: a known plant there that the page lacks is gone. After a
 * cursor no page of this recording gave, only the plants shown are known.
 */
function page(known: Known, shown: BodyPlant[], entry: HarEntry, query: URLSearchParams): void {
  const ids = new Set<bigint>()
  for (const plant of shown) {
    if (plant.id === undefined) continue
    ids.add(BigInt(plant.id))
    known.plants.set(BigInt(plant.id), plantOf(plant.id, plant))
  }
  const last = shown.at(-1)?.id
  const target = nextAddress(header(entry.response.headers, 'link'))
  const next =
    target === undefined ? undefined : new URL(target, entry.request.url).searchParams.get('cursor')
  if (next && last !== undefined) known.cursors.set(next, BigInt(last))
  const cursor = query.get('cursor')
  const after = cursor === null ? undefined : known.cursors.get(cursor)
  if (cursor !== null && after === undefined) return
  const upTo = target === undefined ? undefined : last === undefined ? undefined : BigInt(last)
  if (target !== undefined && upTo === undefined) return
  const tag = query.get('tag')
  for (const [id, plant] of known.plants) {
    const inRange = (after === undefined || id > after) && (upTo === undefined || id <= upTo)
    if (inRange && (tag === null || plant.tag === tag) && !ids.has(id)) known.plants.delete(id)
  }
}
