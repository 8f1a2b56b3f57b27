// Replays a HAR recording against a server as a regression test: the recorded requests in order, each
// answer judged by the document (as the proxy judges) and compared with the recorded answer (status,
// body, Link). Pseudonyms are sent as the tokens given; a cursor or id the new server hands out in
// place of a recorded one is used where the recording used the old.
import { bodyText, type ContractVerdict, type Har, type HarEntry } from '@plant-store/core'
import type { Check, Finding } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import { recordingConformance } from '../checks/recording-conformance.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import { type JsonSchema, loadDocument, type OperationEntry } from '../document.js'
import { parseExact } from '../exact-json.js'
import { answerOf, describeAnswer } from '../http.js'
import { judgeExchange } from '../judge/judge.js'
import { EXACT } from '../judge/plant.js'
import { type Difference, recordingDifferences } from '../judge/recording.js'
import { type Hooks, headersAfter } from '../run/config.js'
import { REDACTED } from './har-recorder.js'

export interface ReplayOptions {
  /** The recording: its JSON text, or parsed. */
  har: Har | string
  /** The server to replay against, e.g. `http://127.0.0.1:3000`; the recorded paths go below it. */
  baseUrl: string
  /**
   * The tokens to send, in the order the recording's principals first appear (`principal-1`,
   * `principal-2`…); none: each Authorization is sent as recorded (a sandbox takes any token).
   */
  tokens?: string[]
  /** The document to judge by (default: the one this package ships). */
  spec?: string
  /** Called as each exchange is judged. */
  onExchange?: (exchange: ReplayedExchange) => void
  /** The checks each answer is judged by (default: the built-in ones); a team's own beside them. */
  checks?: readonly Check[]
  /** Before each request is sent: may change its headers (a team's beforeRequest hook). */
  beforeRequest?: Hooks['beforeRequest']
}

export type { Difference } from '../judge/recording.js'

export interface ReplayedExchange {
  /** Its place in the recording, from 1. */
  number: number
  method: string
  /** Path and query as sent. */
  path: string
  /** The document's operation it went to; undefined for a path or method the document lacks. */
  operationId: string | undefined
  status: number
  /** The answer in one line, as a run's reports show one. */
  answer: string
  /** Where the answer departs from the document (by every check but the recording's); empty when it conforms. */
  findings: Finding[]
  /** The checks that judged it by the document, found something or not. */
  checked: string[]
  /** Where the answer differs from the recorded one. */
  differences: Difference[]
  /** The proxy's verdict on the recorded answer, when the recording has one. */
  recorded: ContractVerdict | undefined
  /** The exchange as the checks judge it, the recorded answer with it. */
  exchange: HttpExchange
}

export class ReplayUsageError extends Error {}

const UNSENT = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  // fetch asks for and decodes what it can itself; the comparison is of the decoded body.
  'accept-encoding',
])

const credentialsOf = (value: string): string => value.trim().split(/ +/).slice(1).join(' ') || value.trim()

/** The recording's principals, by their credentials, in the order they first appear. */
export function principalsOf(entries: HarEntry[]): string[] {
  const seen: string[] = []
  for (const entry of entries)
    for (const { name, value } of entry.request.headers)
      if (name.toLowerCase() === 'authorization' && !seen.includes(credentialsOf(value)))
        seen.push(credentialsOf(value))
  return seen
}

export async function replay(options: ReplayOptions): Promise<ReplayedExchange[]> {
  const parsed = (typeof options.har === 'string' ? JSON.parse(options.har) : options.har) as Partial<Har>
  const entries = parsed?.log?.entries
  if (!Array.isArray(entries)) throw new ReplayUsageError('not a HAR recording: it has no log.entries')
  const principals = principalsOf(entries)
  const tokens = options.tokens ?? []
  if (tokens.length > 0 && tokens.length < principals.length)
    throw new ReplayUsageError(
      `the recording has ${principals.length} principals; give a --token for each (in order), or none to send them as recorded`,
    )
  const tokenOf = new Map(principals.map((p, i) => [p, tokens[i] ?? p]))
  const { document, operations } = await loadDocument(options.spec, 'kit')
  const errorSchema: JsonSchema | undefined = document.components?.schemas?.Error
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/$/, '')
  /** Recorded path and query → the new server's, for Link targets and ids it gave otherwise. */
  const addresses = new Map<string, string>()
  const ids = new Map<string, string>()
  const results: ReplayedExchange[] = []
  // The differences from the recording are reported as such, apart from the departures.
  const byDocument = (options.checks ?? BUILT_IN_CHECKS).filter((check) => check !== recordingConformance)
  for (const [i, entry] of entries.entries()) {
    const recordedUrl = new URL(entry.request.url)
    const recordedPath = `${recordedUrl.pathname}${recordedUrl.search}`
    const path = mapIds(addresses.get(recordedPath) ?? recordedPath, ids)
    const headers = new Headers()
    for (const { name, value } of entry.request.headers) {
      const key = name.toLowerCase()
      if (UNSENT.has(key) || value === REDACTED || key.startsWith(':')) continue
      if (key === 'authorization') {
        const credentials = credentialsOf(value)
        const token = tokenOf.get(credentials) ?? credentials
        headers.append(name, value.replace(credentials, token))
      } else headers.append(name, value)
    }
    const sent = entry.request.postData ? mapIds(bodyText(entry.request.postData), ids) : undefined
    const url = `${base.origin}${prefix}${path}`
    if (options.beforeRequest) {
      const outgoing = { method: entry.request.method, url, headers: Object.fromEntries(headers) }
      const changed = await headersAfter(options.beforeRequest, outgoing)
      for (const name of [...headers.keys()]) headers.delete(name)
      for (const [name, value] of Object.entries(changed)) headers.set(name, value)
    }
    const sentHeaders = Object.fromEntries(headers)
    const response = await fetch(url, {
      method: entry.request.method,
      headers,
      redirect: 'manual',
      ...(sent === undefined || entry.request.method === 'GET' || entry.request.method === 'HEAD'
        ? {}
        : { body: sent }),
      signal: AbortSignal.timeout(30_000),
    })
    const text = await response.text()
    const answerHeaders: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      answerHeaders[name] = value
    })
    const answer = { ...answerOf(response.status, answerHeaders, text), url, sentHeaders }
    const recordedText = mapIds(bodyText(entry.response.content), ids)
    learnIds(entry, recordedText, text, response.status, ids)
    const recordedLink = entry.response.headers.find((h) => h.name.toLowerCase() === 'link')?.value
    const replayedLink = answerHeaders.link
    learnAddress(addresses, recordedLink, entry.request.url, replayedLink, url, base.origin, prefix)
    const method = entry.request.method
    const pathname = path.split('?')[0] ?? path
    const operation = operationOf(operations, method, pathname)
    const recorded = { status: entry.response.status, text: recordedText, link: recordedLink }
    const judged: HttpExchange = {
      kind: 'http',
      operation,
      request: { method, path: pathname, ...(sent === undefined ? {} : { body: sent }) },
      answer,
      judging: EXACT,
      recorded,
      ...(operation ? {} : { errorSchema }),
    }
    // HEAD and OPTIONS are not an operation's answers: only the recording judges them.
    const { checked, findings } =
      method === 'HEAD' || method === 'OPTIONS'
        ? { checked: [], findings: [] }
        : judgeExchange(judged, byDocument)
    const exchange: ReplayedExchange = {
      number: i + 1,
      method,
      path,
      operationId: operation?.operationId,
      status: response.status,
      answer: describeAnswer(answer),
      findings,
      checked,
      differences: recordingDifferences(recorded, answer),
      recorded: entry._contract,
      exchange: judged,
    }
    results.push(exchange)
    options.onExchange?.(exchange)
  }
  return results
}

/** The document's operation a method and path go to: the one with the fewest path parameters. */
function operationOf(
  operations: OperationEntry[],
  method: string,
  pathname: string,
): OperationEntry | undefined {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return operations
    .filter((e) => e.method === method.toLowerCase())
    .map((e) => ({ e, parts: e.path.split(/\{[^}]+\}/) }))
    .sort((a, b) => a.parts.length - b.parts.length)
    .find(({ parts }) => new RegExp(`^${parts.map(literal).join('[^/]+')}$`).test(pathname))?.e
}

/** Digits of a recorded id, wherever they stand alone in a path or body, as the new server's id. */
function mapIds(text: string, ids: Map<string, string>): string {
  let out = text
  for (const [recorded, replayed] of ids)
    out = out.replace(new RegExp(`(?<![\\d.])${recorded}(?![\\d.])`, 'g'), replayed)
  return out
}

/** A create whose answer names its plant's id: the new server's id stands for the recorded one from now on. */
function learnIds(
  entry: HarEntry,
  recorded: string,
  replayed: string,
  status: number,
  ids: Map<string, string>,
) {
  if (entry.request.method !== 'POST' || status < 200 || status > 299) return
  const idOf = (text: string) => {
    try {
      const id = (parseExact(text) as { id?: unknown } | null)?.id
      return typeof id === 'bigint' ? String(id) : undefined
    } catch {
      return undefined
    }
  }
  const [was, is] = [idOf(recorded), idOf(replayed)]
  if (was !== undefined && is !== undefined && was !== is) ids.set(was, is)
}

/** Where a page's Link leads in the recording, and where it leads now: a later request follows the new. */
function learnAddress(
  addresses: Map<string, string>,
  recordedLink: string | undefined,
  recordedUrl: string,
  replayedLink: string | undefined,
  replayedUrl: string,
  origin: string,
  prefix: string,
) {
  const target = (link: string | undefined, against: string) => {
    const written = link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1] : undefined
    if (written === undefined) return undefined
    const url = new URL(written, against)
    return `${url.pathname}${url.search}`
  }
  const was = target(recordedLink, recordedUrl)
  const is = target(replayedLink, replayedUrl)
  if (was === undefined || is === undefined) return
  const below = new URL(replayedUrl).origin === origin && is.startsWith(prefix) ? is.slice(prefix.length) : is
  if (below !== was) addresses.set(was, below)
}
