// Replays a HAR recording against a server as a regression test: the recorded requests in order, each
// answer judged by the document (as the proxy judges) and compared with the recorded answer (status,
// body, Link). Pseudonyms are sent as the tokens given; a cursor or id the new server hands out in
// place of a recorded one is used where the recording used the old.
import { bodyText, type ContractVerdict, type Har, type HarEntry } from '@plant-store/core'
import { type Finding, finding } from './checks.js'
import { type JsonSchema, loadDocument, type OperationEntry } from './document.js'
import { canonical, parseExact } from './exact-json.js'
import { REDACTED } from './har-recorder.js'
import { answerOf, describeAnswer } from './http.js'
import { judgeAnswer, judgeErrorAnswer } from './judge/answer.js'

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
}

export interface Difference {
  what: 'status' | 'body' | 'link'
  recorded: string
  replayed: string
}

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
  /** Where the answer departs from the document; empty when it conforms. */
  findings: Finding[]
  /** Where the answer differs from the recorded one. */
  differences: Difference[]
  /** The proxy's verdict on the recorded answer, when the recording has one. */
  recorded: ContractVerdict | undefined
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
  const { document, operations } = await loadDocument(options.spec)
  const errorSchema: JsonSchema | undefined = document.components?.schemas?.Error
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/$/, '')
  /** Recorded path and query → the new server's, for Link targets and ids it gave otherwise. */
  const addresses = new Map<string, string>()
  const ids = new Map<string, string>()
  const results: ReplayedExchange[] = []
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
    const answer = answerOf(response.status, answerHeaders, text)
    const recordedText = mapIds(bodyText(entry.response.content), ids)
    learnIds(entry, recordedText, text, response.status, ids)
    const recordedLink = entry.response.headers.find((h) => h.name.toLowerCase() === 'link')?.value
    const replayedLink = answerHeaders.link
    learnAddress(addresses, recordedLink, entry.request.url, replayedLink, url, base.origin, prefix)
    const method = entry.request.method
    const pathname = path.split('?')[0] ?? path
    const operation = operationOf(operations, method, pathname)
    const judged =
      method === 'HEAD' || method === 'OPTIONS' ? [] : judge(operation, errorSchema, method, pathname, answer)
    const exchange: ReplayedExchange = {
      number: i + 1,
      method,
      path,
      operationId: operation?.operationId,
      status: response.status,
      answer: describeAnswer(answer),
      findings: judged,
      differences: differences(entry, recordedText, recordedLink, answer.status, text, replayedLink),
      recorded: entry._contract,
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

/** The document's verdict, as the proxy gives it: by the operation, or as an Error for a path it lacks. */
function judge(
  entry: OperationEntry | undefined,
  errorSchema: JsonSchema | undefined,
  method: string,
  pathname: string,
  answer: ReturnType<typeof answerOf>,
): Finding[] {
  if (entry) return judgeAnswer(entry, answer)
  if (answer.status < 400)
    return [
      finding(
        'status_code_conformance',
        `status ${answer.status} is not documented: the document has no ${method} ${pathname}`,
      ),
    ]
  return judgeErrorAnswer(errorSchema, answer)
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

function differences(
  entry: HarEntry,
  recordedText: string,
  recordedLink: string | undefined,
  status: number,
  text: string,
  replayedLink: string | undefined,
): Difference[] {
  const found: Difference[] = []
  if (status !== entry.response.status)
    found.push({ what: 'status', recorded: String(entry.response.status), replayed: String(status) })
  if (!sameBody(recordedText, text)) found.push({ what: 'body', recorded: recordedText, replayed: text })
  // Cursors are the server's own: a Link is the same when both answers have one or neither has. Where
  // it leads is compared when the recording followed it: that page's request goes to the new target.
  if ((recordedLink === undefined) !== (replayedLink === undefined))
    found.push({ what: 'link', recorded: recordedLink ?? '(none)', replayed: replayedLink ?? '(none)' })
  return found
}

/** JSON bodies are the same when their values are, digit for digit, whatever the order of keys. */
function sameBody(recorded: string, replayed: string): boolean {
  if (recorded === replayed) return true
  try {
    return canonical(parseExact(recorded)) === canonical(parseExact(replayed))
  } catch {
    return false
  }
}
