// Verifies a running server by URL against the document: the example replay, generated requests,
// stateful sequences from the document's links, the security cases, and requests sent together, each
// answer judged by the document alone. It knows nothing of how the kit starts its own targets: it is
// given a URL and two principals' tokens, leaves the plants those principals had alone, and deletes
// what it created.

import { setTimeout as sleep } from 'node:timers/promises'
import type { ContractOperation } from '@plant-store/core'
import { RefusedTokens } from '../cases/refused-tokens.js'
import type { Check } from '../checks/check.js'
import type { Exchange, HttpExchange } from '../checks/exchange.js'
import { BUILT_IN_CHECKS, selectChecks } from '../checks/registry.js'
import {
  documentedStatuses,
  type LoadedDocument,
  loadDocument,
  type OperationEntry,
  type Profile,
} from '../document.js'
import { describeAnswer } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { judgeExchange } from '../judge/judge.js'
import type { Judging } from '../judge/plant.js'
import { LAYERS, type Layer, Results } from '../report/results.js'
import { tokenScopes, WebhookReceiver } from '../webhooks/receiver.js'
import { hooksOf, teamChecks } from './config.js'
import type { Context, VerifyOptions } from './context.js'
import { rethrowTeamCode, TeamCodeError, VerifyUsageError } from './errors.js'
import { runConcurrency } from './layers/concurrency.js'
import { runConsumer } from './layers/consumer.js'
import { runExamples } from './layers/examples.js'
import { runGenerated } from './layers/generated.js'
import { runSecurity } from './layers/security.js'
import { runStateful } from './layers/stateful.js'
import { fitRun } from './quota-fit.js'
import { waitProgress } from './rate-limits.js'
import { type OwnedPlant, type PlantsRead, Subject } from './subject.js'

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

async function run(
  options: VerifyOptions,
  settings: Context['options'],
  loaded: LoadedDocument,
  subject: Subject,
  selected: Check[],
  receiver: WebhookReceiver | undefined,
): Promise<Results> {
  const { seed } = settings
  const judge = (exchange: Exchange) => {
    if (subject.fatal) throw subject.fatal
    try {
      return judgeExchange(exchange, selected)
    } catch (error) {
      // A team's check that threw: nothing more is sent or judged.
      if (error instanceof TeamCodeError) subject.fatal = error
      throw error
    }
  }
  // A consumer's replay covers what its contract records: its operations, the statuses it handles,
  // and the parameters and body properties it sends.
  const contracted = (entry: OperationEntry) => options.consumer?.contract.paths[entry.path]?.[entry.method]
  const judged = options.consumer ? loaded.operations.filter(contracted) : loaded.operations
  const results = new Results(
    [
      ...judged.map((entry) => {
        const contract = contracted(entry)
        return {
          operationId: entry.operationId,
          statuses: documentedStatuses(entry).filter((s) => !contract || String(s) in contract.responses),
          ...(contract ? { parameters: sentBy(contract) } : {}),
        }
      }),
      // Events are judged, not answers: no status of theirs is to be exercised.
      ...(receiver ? [{ operationId: receiver.operationId, statuses: [] }] : []),
    ],
    selected,
  )
  const list = loaded.operations.find((entry) => roleOf(entry) === 'list')
  const removal = loaded.operations.find((entry) => roleOf(entry) === 'item' && entry.method === 'delete')
  // A wait says what the run was doing, what it waits for and how long.
  let doing = ''
  const progress = (line: string) => {
    doing = line
    options.onProgress?.(line)
  }
  subject.onWait = (wait) => options.onProgress?.(waitProgress(doing, wait))
  await reach(subject, loaded.operations, options.waitMs ?? 0)
  const base = settings.command ?? `plant-store-verify --base-url ${options.baseUrl}`
  // A default run (no sizes, not a replay) fits within the quotas the server declares, not to wait for them.
  const fitting = [options.requests, options.sequences, options.case, options.path].every(
    (o) => o === undefined,
  )
  const existing: [OwnedPlant[], OwnedPlant[]] = [[], []]
  const judging = judgingFor(results, options.profile)
  if (list) {
    for (const principal of [0, 1] as const) {
      const read = await readExisting(subject, list, principal, judging)
      if (Array.isArray(read)) {
        existing[principal] = read
        continue
      }
      // The run models the store from these plants and must leave them alone: without them it cannot
      // change anything safely, so every layer stops, and the answer that stopped them is judged.
      const { checked, findings } = judge(read.exchange)
      if (findings.length)
        results.record({
          layer: 'examples',
          operationId: list.operationId,
          checks: checked,
          findings,
          status: read.exchange.answer.status,
          title: `reading the plants of token ${principal + 1} before the run`,
          request: `GET ${list.path} (every page)`,
          answer: describeAnswer(read.exchange.answer),
          document: '200, a page of the caller’s plants',
          replay: base,
        })
      for (const layer of options.consumer ? ['consumer' as const] : LAYERS)
        results.stop(
          layer,
          `the plants token ${principal + 1} owns could not be read (${read.reason}), so the run cannot leave them alone`,
        )
      return finished(results, subject, seed)
    }
  }
  const context: Context = {
    options: settings,
    loaded,
    subject,
    results,
    judging,
    judge,
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
    replay: (args) =>
      `${base}${options.spec ? ` --spec ${options.spec}` : ''}${options.profile === 'kit' ? ' --profile kit' : ''} ${args}`,
    wants: (name) => options.case === undefined || options.case === name,
    progress,
    // A default run keeps to the server's quota for failed authentications: a case past it is left out.
    refusals: new RefusedTokens(fitting ? () => subject.refusalDue() !== undefined : undefined),
    deferred: [],
  }
  if (existing[0].length || existing[1].length)
    results.notes.push(
      `the principals owned ${existing[0].length} and ${existing[1].length} plants before the run: they are part of the model, and left as they were`,
    )
  // A consumer's requests instead of the layers, judged and recorded as a layer's.
  const { consumer } = options
  if (consumer) {
    try {
      await runConsumer(context, consumer)
    } catch (error) {
      rethrowTeamCode(error)
      results.stop('consumer', (error as Error).message)
    }
    if (subject.fatal) throw subject.fatal
  }
  const layers = consumer ? [] : options.only?.length ? options.only : LAYERS
  const runs: [Layer, (ctx: Context) => Promise<void>][] = [
    ['examples', runExamples],
    ['security', runSecurity],
    // Before the sizing: the quota the generated requests and sequences are fitted to is what it left.
    ['concurrency', runConcurrency],
    ['generated', runGenerated],
    ['stateful', runStateful],
  ]
  let sized = !fitting
  for (const [layer, runLayer] of runs) {
    if (!layers.includes(layer)) continue
    if (!sized && (layer === 'generated' || layer === 'stateful')) {
      sized = true
      const note = fitRun(context, layers, DEFAULTS)
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
  // What a layer left for the end (refused tokens past the server's quota): by now its window may have
  // moved on; if not, the wait is said and counted like any other.
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
  if (receiver) {
    context.progress('waiting for the newPlant events still to come')
    // A webhook failure's replay is the whole run again, with what it drew (the receiver adds its own options).
    const runArgs = [
      `--seed=${seed}`,
      ...(consumer ? [`--consumer ${consumer.file}`] : []),
      ...(options.only?.length ? [`--only ${options.only.join(',')}`] : []),
      ...(options.requests === undefined ? [] : [`--requests ${options.requests}`]),
      ...(options.sequences === undefined ? [] : [`--sequences ${options.sequences}`]),
      ...(options.readOnly ? ['--read-only'] : []),
      ...(options.anyToken ? ['--any-token'] : []),
    ].join(' ')
    const { events, document, replay, received } = await receiver.finish(context.replay(runArgs))
    for (const event of events) {
      const { checked, findings } = judge({
        kind: 'event',
        operationId: receiver.operationId,
        problems: event.problems,
      })
      results.record({
        layer: 'webhooks',
        operationId: receiver.operationId,
        checks: checked,
        findings,
        kinds: ['event'],
        title: event.title,
        request: event.request,
        answer: event.answer,
        document,
        replay,
      })
    }
    results.notes.push(receiver.retryNote())
    results.notes.push(
      `the webhook receiver took ${received} newPlant delivery(ies) for ${receiver.createsAnswered200} create(s) answered 200`,
    )
  }
  for (const operationId of results.unreached())
    results.notes.push(
      `warning: no request reached the success path of ${operationId} (every answer was an error)`,
    )
  return finished(results, subject, seed)
}

/** What a consumer sends an operation: its parameters, and its body's top-level properties. */
function sentBy(operation: ContractOperation): { name: string; in: string }[] {
  const body = Object.values(operation.requestBody?.content ?? {}).flatMap(({ schema }) =>
    Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}),
  )
  return [
    ...(operation.parameters ?? []).map(({ name, in: place }) => ({ name, in: place })),
    ...[...new Set(body)].map((name) => ({ name, in: 'body' })),
  ]
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

/**
 * Every plant a principal owns, or the answer that kept them from being read (to be judged) and why;
 * a token the server refuses is a usage error.
 */
async function readExisting(
  subject: Subject,
  list: OperationEntry,
  principal: 0 | 1,
  judging: Judging,
): Promise<OwnedPlant[] | { exchange: HttpExchange; reason: string }> {
  let read: PlantsRead
  try {
    read = await subject.plantsOf(list, principal)
  } catch (error) {
    rethrowTeamCode(error)
    throw new VerifyUsageError(`token ${principal + 1}: ${(error as Error).message}`)
  }
  if ('plants' in read) return read.plants
  const { answer, address, reason } = read
  if (answer.status === 401 || answer.status === 403)
    throw new VerifyUsageError(`token ${principal + 1} is not accepted: ${reason}`)
  return {
    exchange: {
      kind: 'http',
      operation: list,
      request: { method: 'GET', path: address },
      answer,
      expected: { statuses: [200] },
      judging,
    },
    reason,
  }
}

/**
 * How a server under test's answers are judged: by what the document promises, a property it does
 * not name allowed and told once per operation among the warnings (the schemas are open); with the
 * kit profile, exactly as the kit's server answers, and held to the profile's headers.
 */
function judgingFor(results: Results, profile: Profile = 'interface'): Judging {
  return {
    exact: profile === 'kit',
    kitProfile: profile === 'kit',
    bodilessRefusals: profile !== 'kit',
    undocumented: (operationId, property) =>
      results.warn(
        `undocumented property \`${property}\` in \`${operationId}\`'s answer (allowed: the schema does not close it)`,
        `${operationId}\t${property}`,
      ),
  }
}

/**
 * Fails with one line when nothing answers at the base URL, after trying again for `waitMs` (a server
 * still starting). Sent with the first principal's token: a refused token would spend the server's
 * quota for failed authentications, which the run needs.
 */
async function reach(subject: Subject, operations: OperationEntry[], waitMs: number): Promise<void> {
  const probe = operations.find((e) => e.method === 'get' && !e.path.includes('{')) ?? operations[0]
  if (!probe) throw new VerifyUsageError('the document has no operations')
  const until = Date.now() + waitMs
  for (;;) {
    try {
      await subject.send(
        subject.baseUrl,
        { method: 'GET', path: probe.path, auth: { kind: 'principal' } },
        subject.authorization(0),
      )
      return
    } catch (error) {
      rethrowTeamCode(error)
      if (Date.now() < until) {
        await sleep(250)
        continue
      }
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
      const waited = waitMs ? ` (waited ${Math.round(waitMs / 1000)} s)` : ''
      throw new VerifyUsageError(
        `cannot reach ${subject.baseUrl}${waited}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      )
    }
  }
}
