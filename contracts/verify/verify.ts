// Verifies a running server by URL against the document: the example replay, generated requests,
// stateful sequences from the document's links, and the security cases, each answer judged by the
// document alone. It knows nothing of how the kit starts its own targets: it is given a URL and two
// principals' tokens, leaves the plants those principals had alone, and deletes what it created.
import { UNKNOWN_TOKEN } from '../fixtures.js'
import {
  documentedStatuses,
  type LoadedDocument,
  loadDocument,
  type OperationEntry,
} from '../lib/document.js'
import { roleOf } from '../lib/explore.js'
import { type CheckName, selectChecks } from './checks.js'
import { runExamples } from './layers/examples.js'
import { runGenerated } from './layers/generated.js'
import { runSecurity } from './layers/security.js'
import { runStateful } from './layers/stateful.js'
import { LAYERS, type Layer, Results } from './results.js'
import { type OwnedPlant, Subject } from './subject.js'
import { tokenScopes, type WebhookOptions, WebhookReceiver } from './webhook-receiver.js'

export interface VerifyOptions {
  baseUrl: string
  /** Tokens of two principals of the server under test. */
  tokens: readonly [string, string]
  /** Another document than the one shipped. */
  spec?: string
  only?: Layer[]
  checks?: string[]
  excludeChecks?: string[]
  requests?: number
  sequences?: number
  seed?: number
  /** Only what changes nothing: reads and refused requests. */
  readOnly?: boolean
  /** Leave the plants the run created. */
  keep?: boolean
  /** The server makes a principal of any token (as the kit's sandbox does): no unknown-token cases. */
  anyToken?: boolean
  /** At most this many requests a second. */
  rate?: number
  /** One case of the example or security layers, by its name, or one generated request by its number. */
  case?: string
  /** Stateful replay: fast-check's path and replayPath, as a failure prints them. */
  path?: string
  replayPath?: string
  /** The whole run's bound; a run that reaches it says how far it got. */
  timeLimitMs?: number
  /**
   * Judge the newPlant events the server sends during the run: a receiver listens on 127.0.0.1 at this
   * port (0: any), and the server must be set up to send both principals' events to it.
   */
  webhook?: WebhookOptions
  /** Told the receiver's URL once it listens. */
  onWebhookReceiver?: (url: string) => void
  /** How a failure's replay command starts, e.g. `npx plant-store-verify --base-url …`. */
  command?: string
  onProgress?: (line: string) => void
}

/** A usage error or a server that cannot be reached: the command exits 2 on it. */
export class VerifyUsageError extends Error {}

export interface Context {
  options: Required<Pick<VerifyOptions, 'requests' | 'sequences' | 'seed'>> & VerifyOptions
  loaded: LoadedDocument
  subject: Subject
  results: Results
  /** The plants each principal owned before the run: never changed, never deleted. */
  existing: [OwnedPlant[], OwnedPlant[]]
  /** Where the run's own ids start: far from small numbers, and fixed by the seed for replays. */
  idBase: bigint
  list: OperationEntry | undefined
  /** Deletes a plant of a principal through the document's delete operation (any answer taken). */
  remove(principal: 0 | 1, id: bigint): Promise<void>
  deadline: number
  /** The replay command of one case: the run's command with these options added. */
  replay(args: string): string
  progress(line: string): void
}

export const DEFAULTS = { requests: 2000, sequences: 200 }

export async function verify(options: VerifyOptions): Promise<Results> {
  if (!/^https?:\/\//.test(options.baseUrl))
    throw new VerifyUsageError(`the base URL must start with http:// or https://, not ${options.baseUrl}`)
  const [a, b] = options.tokens
  if (!a || !b) throw new VerifyUsageError('two tokens are needed, of two different principals')
  if (a === b)
    throw new VerifyUsageError('the two tokens are the same: give tokens of two different principals')
  let selected: Set<CheckName>
  try {
    selected = selectChecks(options.checks, options.excludeChecks)
  } catch (error) {
    throw new VerifyUsageError((error as Error).message)
  }
  let loaded: LoadedDocument
  try {
    loaded = await loadDocument(options.spec)
  } catch (error) {
    throw new VerifyUsageError(
      `cannot read the document ${options.spec}: ${(error as Error).message.split('\n')[0]}`,
    )
  }
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0
  const settings = {
    ...options,
    requests: options.requests ?? DEFAULTS.requests,
    sequences: options.sequences ?? DEFAULTS.sequences,
    seed,
  }
  const subject = new Subject(options.baseUrl, options.tokens, options.rate)
  let receiver: WebhookReceiver | undefined
  if (options.webhook) {
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(options.webhook.secret))
      throw new VerifyUsageError('the webhook secret must be whsec_ followed by base64')
    try {
      receiver = await WebhookReceiver.start(options.webhook, loaded, tokenScopes(options.tokens))
    } catch (error) {
      throw new VerifyUsageError(`cannot receive webhooks: ${(error as Error).message}`)
    }
    subject.observer = receiver.observe.bind(receiver)
    options.onWebhookReceiver?.(receiver.url)
  }
  try {
    return await run(options, settings, loaded, subject, selected, receiver)
  } finally {
    // Closed by finish() after a run; here after one that threw.
    await receiver?.close()
  }
}

async function run(
  options: VerifyOptions,
  settings: Context['options'],
  loaded: LoadedDocument,
  subject: Subject,
  selected: Set<CheckName>,
  receiver: WebhookReceiver | undefined,
): Promise<Results> {
  const { seed } = settings
  const results = new Results(
    [
      ...loaded.operations.map((entry) => ({
        operationId: entry.operationId,
        statuses: documentedStatuses(entry),
      })),
      // Events are judged, not answers: no status of theirs is to be exercised.
      ...(receiver ? [{ operationId: receiver.operationId, statuses: [] }] : []),
    ],
    selected,
  )
  const list = loaded.operations.find((entry) => roleOf(entry) === 'list')
  const removal = loaded.operations.find((entry) => roleOf(entry) === 'item' && entry.method === 'delete')
  await reach(subject, loaded.operations)
  const existing: [OwnedPlant[], OwnedPlant[]] = [[], []]
  if (list) {
    for (const principal of [0, 1] as const) {
      try {
        existing[principal] = await subject.plantsOf(list, principal)
      } catch (error) {
        throw new VerifyUsageError(`token ${principal + 1} is not accepted: ${(error as Error).message}`)
      }
    }
  }
  const base = settings.command ?? `plant-store-verify --base-url ${options.baseUrl}`
  const context: Context = {
    options: settings,
    loaded,
    subject,
    results,
    existing,
    idBase: 1_000_000_000_000n + BigInt(seed >>> 0) * 1000n,
    list,
    remove: async (principal, id) => {
      if (!removal) return
      const path = removal.path.replace(/\{[^}]+\}/, encodeURIComponent(id.toString()))
      await subject.send(
        subject.baseUrl,
        { method: 'DELETE', path, auth: { kind: 'principal' } },
        subject.authorization(principal),
      )
    },
    deadline: Date.now() + (options.timeLimitMs ?? 30 * 60_000),
    replay: (args) => `${base}${options.spec ? ` --spec ${options.spec}` : ''} ${args}`,
    progress: (line) => options.onProgress?.(line),
  }
  if (existing[0].length || existing[1].length)
    results.notes.push(
      `the principals owned ${existing[0].length} and ${existing[1].length} plants before the run: they are part of the model, and left as they were`,
    )
  const layers = options.only?.length ? options.only : LAYERS
  if (layers.includes('examples')) await runExamples(context)
  if (layers.includes('security')) await runSecurity(context)
  if (layers.includes('generated')) await runGenerated(context)
  if (layers.includes('stateful')) {
    if (options.readOnly) results.notes.push('stateful sequences: not run, they change plants (--read-only)')
    else await runStateful(context)
  }
  if (receiver) {
    context.progress('waiting for the newPlant events still to come')
    const { received } = await receiver.finish(results, base)
    results.notes.push(
      `the webhook receiver took ${received} newPlant delivery(ies) for ${receiver.createsAnswered200} create(s) answered 200`,
    )
  }
  for (const operationId of results.unreached())
    results.notes.push(
      `warning: no request reached the success path of ${operationId} (every answer was an error)`,
    )
  if (subject.limited)
    results.notes.push(
      `the server answered 429 ${subject.limited} time(s); the run waited ${(subject.waitedMs / 1000).toFixed(1)} s for its Retry-After`,
    )
  results.requests = subject.requests
  results.seed = seed
  return results
}

/** Fails with one line when nothing answers at the base URL, or something that is not this API. */
async function reach(subject: Subject, operations: OperationEntry[]): Promise<void> {
  const probe = operations.find((e) => e.method === 'get' && !e.path.includes('{')) ?? operations[0]
  if (!probe) throw new VerifyUsageError('the document has no operations')
  try {
    await subject.send(
      subject.baseUrl,
      { method: 'GET', path: probe.path, auth: { kind: 'unknown' } },
      `Bearer ${UNKNOWN_TOKEN}`,
    )
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
    throw new VerifyUsageError(
      `cannot reach ${subject.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    )
  }
}
