// Runs the sequences of commands.ts against one target with fast-check
// (fc.check of fc.commands run by fc.asyncModelRun): principals for each sequence (principals.ts), the
// requests sent and counted (session.ts), and the failure text with the seed, the path and the command
// that replays it; run-report.ts writes the report (reports/stateful.md).
import fc from 'fast-check'
import type { CheckName } from '../checks.js'
import type { Endpoint } from '../http.js'
import type { Api } from './api.js'
import { commandArbitraries } from './commands.js'
import { walkList } from './list-walk.js'
import { Mismatch } from './mismatch.js'
import { type PrincipalPool, Principals } from './principals.js'
import type { Real } from './real.js'
import type { RequestCounts } from './request-counts.js'
import { Session } from './session.js'
import { initialModel, type StoreModel } from './store-model.js'

/** Two principals per sequence: what one writes must never show to the other. */
export const PRINCIPALS = 2

export interface RunSettings {
  target: Endpoint
  api: Api
  /** The document (dereferenced), for the sandbox's seed plants. */
  document: unknown
  runs: number
  seed: number
  maxCommands: number
  timeLimitMs: number
  counts: RequestCounts
  /** Replay: the counterexample's path, and the replayPath fc.commands needs to rebuild it. */
  path?: string
  replayPath?: string
  /** Fresh server tokens to use before principals are emptied and used again. */
  freshBudget?: number
  /** Instead of fresh principals, emptied after each sequence: a server under test's own (see layers/stateful.ts). */
  pool?: PrincipalPool
  /** The store the principals start each sequence with; by default empty, or seeded. */
  initial?: () => StoreModel
  /** Keys drawn around `base`, never one of `avoid`. */
  keys?: { base: bigint; avoid: ReadonlySet<bigint> }
  /** The command that replays a failure; by default `npm run explore`'s. */
  replay?: (seed: number, path: string, replayPath: string | undefined) => string
}

export interface RunResult {
  target: string
  seed: number
  /** Sequences fast-check generated and passed (up to the failure, if one came). */
  sequences: number
  /** Sequences run in all, shrinking included, and the commands they ran. */
  executed: number
  commands: number
  requests: number
  ms: number
  failed: boolean
  interrupted: boolean
  shrinks: number
  /** Principals that could not be emptied after their sequence (so later sequences may see their plants). */
  leftovers: string[]
  /** The failure text: seed, path, replay command, shrunk sequence with its requests and answers. */
  report?: string
  /** What failed, alone (the shrunk failure's message). */
  message?: string
  /** The check whose promise the shrunk failure broke; undefined when no answer was judged wrong (no answer came). */
  check?: CheckName
  /** Why the run stopped before all its sequences, when it did without failing. */
  note?: string
}

type Ran = { hasRan?: boolean; toString(): string }

export async function runTarget(settings: RunSettings): Promise<RunResult> {
  const { target, api, counts } = settings
  const started = Date.now()
  const requestsBefore = counts.total(target.name)
  const principals = settings.pool ?? new Principals(target, api, counts, settings.freshBudget ?? 700)
  let stopped = false
  let inFlight: Promise<unknown> = Promise.resolve()
  let commands = 0
  let executed = 0
  let lastFailure: { log: string[]; error: unknown } | undefined

  const sequence = async (cmds: Iterable<fc.AsyncCommand<StoreModel, Real>>) => {
    executed++
    const tokens = Array.from({ length: PRINCIPALS }, () => principals.take())
    const model =
      settings.initial?.() ?? initialModel(PRINCIPALS, target.seeded, settings.document, api.keyField)
    const session = new Session(target, tokens, counts, () => stopped)
    let passed = false
    try {
      await fc.asyncModelRun(() => ({ model, real: session }), cmds)
      // Whatever the sequence did, each principal's whole store ends as the model's.
      for (let p = 0; p < PRINCIPALS; p++)
        await walkList(api, model, session, p, { limit: api.list?.pageSize?.max }, 'final check')
      passed = true
    } catch (error) {
      lastFailure = { log: session.log, error }
      throw error
    } finally {
      commands += [...cmds].filter((c) => (c as Ran).hasRan).length
      for (const [i, token] of tokens.entries())
        await principals.give(token, passed ? model.principals[i] : undefined)
    }
  }

  const property = fc.asyncProperty(
    fc.commands(commandArbitraries(api, PRINCIPALS, settings.keys?.base, settings.keys?.avoid), {
      maxCommands: settings.maxCommands,
      // Lengths spread evenly up to maxCommands (the default size keeps most sequences under 10).
      size: 'max',
      replayPath: settings.replayPath,
    }),
    (cmds) => {
      const run = sequence(cmds)
      inFlight = run.catch(() => undefined)
      return run
    },
  )
  const details = (await fc
    .check(property, {
      numRuns: settings.runs,
      seed: settings.seed,
      ...(settings.path === undefined ? {} : { path: settings.path, endOnFailure: true }),
      plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs)],
    })
    .catch((error: unknown) => {
      // fast-check cannot walk a commands path without the replayPath that the failure printed.
      const hint =
        settings.path && !settings.replayPath
          ? ' (set CONTRACT_REPLAY to the replayPath printed with the path)'
          : ''
      throw new Error(`${(error as Error).message}${hint}`)
    })) as fc.RunDetails<[Iterable<fc.AsyncCommand<StoreModel, Real>>]>
  // An interrupted run may still be sending: let it end before the targets are stopped.
  stopped = true
  await inFlight

  const result: RunResult = {
    target: target.name,
    seed: details.seed,
    sequences: details.numRuns,
    executed,
    commands,
    requests: counts.total(target.name) - requestsBefore,
    ms: Date.now() - started,
    failed: details.failed,
    interrupted: details.interrupted,
    shrinks: details.numShrinks,
    leftovers: principals.leftovers,
  }
  if (details.failed) {
    result.report = failureReport(settings, details, lastFailure)
    const error = details.errorInstance
    result.message = error instanceof Error ? error.message : String(error)
    if (error instanceof Mismatch) result.check = error.check
  } else if (details.interrupted && details.numRuns === 0) {
    // Not one sequence in all that time, each request bounded by its own time-out: nothing was checked.
    result.report = `${target.name}: no sequence ended within the time limit (${settings.timeLimitMs} ms; seed ${details.seed}); ${result.requests} requests were answered`
  } else if (details.interrupted) {
    // A slow machine, not a wrong answer: said, not failed.
    result.note = `stopped at the time limit (${settings.timeLimitMs} ms) after ${details.numRuns} of ${settings.runs} sequences, all agreeing with the model (seed ${details.seed}); CONTRACT_TIME_LIMIT_MS raises it`
  }
  return result
}

export const replayCommand = (target: string, seed: number, path: string, replayPath: string | undefined) =>
  [
    'npm run explore -- --only stateful',
    `--target=${target}`,
    `--seed=${seed}`,
    `--path=${path}`,
    ...(replayPath ? [`--replay='${replayPath}'`] : []),
  ].join(' ')

function failureReport(
  settings: RunSettings,
  details: fc.RunDetails<[Iterable<fc.AsyncCommand<StoreModel, Real>>]>,
  failure: { log: string[]; error: unknown } | undefined,
): string {
  const name = settings.target.name
  if (!details.counterexample || details.counterexamplePath === null) {
    return `${name}: the run failed without a counterexample (seed ${details.seed}): ${String(details.errorInstance)}`
  }
  const [cmds] = details.counterexample
  const shown = String(cmds)
  const replayPath = /\/\*replayPath="([^"]*)"\*\/$/.exec(shown)?.[1]
  const ran = [...cmds].filter((c) => (c as Ran).hasRan).map((c) => String(c))
  const error = details.errorInstance
  const message = error instanceof Error ? error.message : String(error)
  return [
    `${name}: the store disagrees with its model after ${details.numRuns} sequence(s), shrunk ${details.numShrinks} time(s)${details.interrupted ? ' (shrinking interrupted by the time limit)' : ''}.`,
    '',
    `Seed ${details.seed}, path ${details.counterexamplePath}${replayPath ? `, replayPath ${replayPath}` : ''}. Replay exactly this case:`,
    `  ${(settings.replay ?? ((seed, path, rp) => replayCommand(name, seed, path, rp)))(details.seed, details.counterexamplePath, replayPath)}`,
    '',
    `What failed: ${message}`,
    '',
    `The shrunk sequence (${ran.length} command(s); p0 and p1 are ${settings.pool ? 'the two principals' : 'two fresh principals'}${settings.target.seeded ? ', each seeded with x-given-plants' : ''}):`,
    ...ran.map((c, i) => `  ${i + 1}. ${c}`),
    '',
    'Its requests and answers:',
    ...(failure?.log ?? ['  (not recorded)']).map((line) => `  ${line}`),
  ].join('\n')
}
