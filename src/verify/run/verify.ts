// Verifies a running server by URL against the document: the example replay, generated requests,
// stateful sequences from the document's links, the security cases, and requests sent together, each
// answer judged by the document alone. It knows nothing of how the kit starts its own targets: it is
// given a URL and two principals' tokens, leaves the plants those principals had alone, and deletes
// what it created.

import { RefusedTokens } from '../cases/refused-tokens.js'
import type { Check } from '../checks/check.js'
import type { Exchange } from '../checks/exchange.js'
import { BUILT_IN_CHECKS, selectChecks } from '../checks/registry.js'
import { type LoadedDocument, loadDocument } from '../document.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { judgeExchange } from '../judge/judge.js'
import { LAYERS, type Layer, type Results } from '../report/results.js'
import { tokenScopes, WebhookReceiver } from '../webhooks/receiver.js'
import { hooksOf, teamChecks } from './config.js'
import type { ConsumerRun, Context, VerifyOptions } from './context.js'
import { rethrowTeamCode, TeamCodeError, VerifyUsageError } from './errors.js'
import { runConcurrency } from './layers/concurrency.js'
import { runConsumer } from './layers/consumer.js'
import { runExamples } from './layers/examples.js'
import { runGenerated } from './layers/generated.js'
import { runSecurity } from './layers/security.js'
import { runStateful } from './layers/stateful.js'
import { fitRun } from './quota-fit.js'
import { waitProgress } from './rate-limits.js'
import { judgingFor, reach, readPrincipals, resultsFor } from './set-up.js'
import { Subject } from './subject.js'
import { judgeEvents } from './webhook-events.js'

export type { VerifyOptions } from './context.js'
export { VerifyUsageError } from './errors.js'

export const DEFAULTS = { requests: 2000, sequences: 200, consumerRequests: 10 }

export async function verify(options: VerifyOptions): Promise<Results> {
  if (!/^https?:\/\//.test(options.baseUrl))
    throw new VerifyUsageError(`the base URL must start with http:// or https://, not ${options.baseUrl}`)
  const [a, b] = options.tokens
  if (!a || !b) throw new VerifyUsageError('two tokens are needed, of two different principals')
  if (a === b)
    throw new VerifyUsageError('the two tokens are the same: give tokens of two different principals')
  // The team's checks beside the built-in ones, selected alike; and its hooks.
  const available = [...BUILT_IN_CHECKS, ...teamChecks(options.config, BUILT_IN_CHECKS)]
  const hooks = hooksOf(options.config)
  let selected: Check[]
  try {
    selected = selectChecks(available, options.checks, options.excludeChecks)
  } catch (error) {
    throw new VerifyUsageError((error as Error).message)
  }
  let loaded: LoadedDocument
  try {
    loaded = await loadDocument(options.spec, options.profile ?? 'interface')
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
  subject.beforeRequest = hooks.beforeRequest
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
    await hooks.beforeRun()
    const results = await run(options, settings, loaded, subject, selected, receiver)
    await hooks.afterRun(results)
    return results
  } finally {
    // Closed by finish() after a run; here after one that threw.
    await receiver?.close()
  }
}

/**
 * The run, in its steps: its set-up (what it counts, the server reached, both principals' plants
 * read), the layers (or a consumer's requests) and what they left for the end, the webhook's events,
 * and its counts.
 */
async function run(
  options: VerifyOptions,
  settings: Context['options'],
  loaded: LoadedDocument,
  subject: Subject,
  selected: Check[],
  receiver: WebhookReceiver | undefined,
): Promise<Results> {
  const results = resultsFor(options, loaded, selected, receiver)
  const judging = judgingFor(results, options.profile)
  const judge = judgeWith(subject, selected)
  const progress = progressOf(subject, options)
  await reach(subject, loaded.operations, options.waitMs ?? 0)
  const list = loaded.operations.find((entry) => roleOf(entry) === 'list')
  const base = settings.command ?? `plant-store-verify --base-url ${options.baseUrl}`
  const existing = await readPrincipals(subject, list, results, {
    judging,
    judge,
    consumer: options.consumer !== undefined,
    replay: base,
  })
  if (!existing) return finished(results, subject, settings.seed)
  const context = contextFor(options, settings, {
    loaded,
    subject,
    results,
    judging,
    judge,
    existing,
    list,
    progress,
    base,
  })
  if (options.consumer) await runConsumerInstead(context, options.consumer)
  else await runLayers(context, options.only?.length ? options.only : LAYERS, fitsQuotas(options))
  await runDeferred(context)
  if (receiver) await judgeEvents(context, receiver, options)
  for (const operationId of results.unreached())
    results.notes.push(
      `warning: no request reached the success path of ${operationId} (every answer was an error)`,
    )
  return finished(results, subject, settings.seed)
}

/** The run's one judge: the selected checks on an exchange; a team's check that throws ends the run. */
function judgeWith(subject: Subject, selected: Check[]): Context['judge'] {
  return (exchange: Exchange) => {
    if (subject.fatal) throw subject.fatal
    try {
      return judgeExchange(exchange, selected)
    } catch (error) {
      // A team's check that threw: nothing more is sent or judged.
      if (error instanceof TeamCodeError) subject.fatal = error
      throw error
    }
  }
}

/**
 * The run's progress line. From the first request on, a wait says what the run was doing, what it
 * waits for and how long.
 */
function progressOf(subject: Subject, options: VerifyOptions): Context['progress'] {
  let doing = ''
  subject.onWait = (wait) => options.onProgress?.(waitProgress(doing, wait))
  return (line) => {
    doing = line
    options.onProgress?.(line)
  }
}

/**
 * A default run (no sizes, not a replay) fits within the quotas the server declares, not to wait for
 * them: read from the options as given, before the defaults fill them in.
 */
const fitsQuotas = (options: VerifyOptions) =>
  [options.requests, options.sequences, options.case, options.path].every((o) => o === undefined)

/** What every layer works with. */
function contextFor(
  options: VerifyOptions,
  settings: Context['options'],
  made: Pick<
    Context,
    'loaded' | 'subject' | 'results' | 'judging' | 'judge' | 'existing' | 'list' | 'progress'
  > & { base: string },
): Context {
  const { subject, loaded, base, ...rest } = made
  const removal = loaded.operations.find((entry) => roleOf(entry) === 'item' && entry.method === 'delete')
  return {
    ...rest,
    options: settings,
    loaded,
    subject,
    idBase: 1_000_000_000_000n + BigInt(settings.seed >>> 0) * 1000n,
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
    replay: (args) =>
      `${base}${options.spec ? ` --spec ${options.spec}` : ''}${options.profile === 'kit' ? ' --profile kit' : ''} ${args}`,
    wants: (name) => options.case === undefined || options.case === name,
    // A default run keeps to the server's quota for failed authentications: a case past it is left out.
    refusals: new RefusedTokens(fitsQuotas(options) ? () => subject.refusalDue() !== undefined : undefined),
    deferred: [],
  }
}

/** A consumer's requests instead of the layers, judged and recorded as a layer's. */
async function runConsumerInstead(context: Context, consumer: ConsumerRun): Promise<void> {
  try {
    await runConsumer(context, consumer)
  } catch (error) {
    rethrowTeamCode(error)
    context.results.stop('consumer', (error as Error).message)
  }
  if (context.subject.fatal) throw context.subject.fatal
}

const RUNS: [Layer, (ctx: Context) => Promise<void>][] = [
  ['examples', runExamples],
  ['security', runSecurity],
  // Before the sizing: the quota the generated requests and sequences are fitted to is what it left.
  ['concurrency', runConcurrency],
  ['generated', runGenerated],
  ['stateful', runStateful],
]

/**
 * The selected layers in their order; in a run that `fits` the server's quotas (given no sizes), the
 * generated requests and sequences are first sized to them.
 */
async function runLayers(context: Context, layers: readonly Layer[], fits: boolean): Promise<void> {
  const { options, results, subject } = context
  let sized = !fits
  for (const [layer, runLayer] of RUNS) {
    if (!layers.includes(layer)) continue
    if (!sized && (layer === 'generated' || layer === 'stateful')) {
      sized = true
      const note = fitRun(context, [...layers], DEFAULTS)
      if (note) {
        results.notes.push(note)
        options.onNotice?.(note)
      }
    }
    if (layer === 'stateful' && options.readOnly) {
      results.notes.push('stateful sequences: not run, they change plants (--read-only)')
      continue
    }
    if (layer === 'concurrency' && options.readOnly) {
      results.notes.push('concurrency: not run, it changes plants (--read-only)')
      continue
    }
    // Whatever a layer meets, the run goes on to the next and ends with its report. What an answer
    // shows wrong is a finding the judge returns, recorded where it was found; a layer throws only
    // when it cannot go on (no answer broke a promise: it could not send, or set up, what it needs),
    // and the run says why.
    try {
      await runLayer(context)
    } catch (error) {
      rethrowTeamCode(error)
      results.stop(layer, (error as Error).message)
    }
    // A team's check or hook that threw where a layer swallows errors (a principal not brought back).
    if (subject.fatal) throw subject.fatal
  }
}

/**
 * What a layer left for the end (refused tokens past the server's quota): by now its window may have
 * moved on; if not, the wait is said and counted like any other. Then what was left out, said.
 */
async function runDeferred(context: Context): Promise<void> {
  const { results, subject } = context
  for (const { layer, run } of context.deferred) {
    try {
      await run()
    } catch (error) {
      rethrowTeamCode(error)
      results.stop(layer, (error as Error).message)
      break
    }
  }
  const leftOut = context.refusals.leftOutNote(subject.limits.policy('refused')?.said)
  if (leftOut) results.notes.push(leftOut)
}

/** The run's counts: its requests, its seed, and the time it waited for the server's rate limits. */
function finished(results: Results, subject: Subject, seed: number): Results {
  const waited = subject.limits.summary()
  if (waited) results.notes.push(waited)
  results.requests = subject.requests
  results.waitedMs = subject.limits.totalMs
  results.seed = seed
  return results
}
