// Runs the sequences of commands.ts against one target with fast-check
// (fc.check of fc.commands run by fc.asyncModelRun): principals for each sequence, the requests sent
// and counted, the failure text with the seed, the path and the command that replays it, and the
// report (reports/stateful.md).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { nextAddress } from '@plant-store/core'
import fc from 'fast-check'
import type { CheckName } from '../checks.js'
import type { OperationEntry } from '../document.js'
import { parseExact } from '../exact-json.js'
import { type Answer, type Endpoint, type RequestSpec, send } from '../http.js'
import { resolveLink } from '../judge/links.js'
import type { Api } from './api.js'
import { commandArbitraries } from './commands.js'
import { walkList } from './list-walk.js'
import { Mismatch } from './mismatch.js'
import type { Phase, Real } from './real.js'
import { initialModel, type PrincipalModel, type StoreModel } from './store-model.js'

/** Two principals per sequence: what one writes must never show to the other. */
export const PRINCIPALS = 2

// ---- Counting ------------------------------------------------------------------------------------

/** Requests sent, per target, operation, phase and outcome (the status, or `error` when none came). */
export class RequestCounts {
  readonly rows = new Map<string, number>()
  add(target: string, operationId: string, phase: Phase, outcome: number | 'error'): void {
    const key = [target, operationId, phase, String(outcome)].join('\t')
    this.rows.set(key, (this.rows.get(key) ?? 0) + 1)
  }
  total(target?: string): number {
    let sum = 0
    for (const [key, n] of this.rows) if (!target || key.startsWith(`${target}\t`)) sum += n
    return sum
  }
}

// ---- One sequence's view of the target ---------------------------------------------------------------

const clip = (text: string, max = 400) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text

export class Session implements Real {
  readonly log: string[] = []
  constructor(
    readonly target: Endpoint,
    readonly tokens: string[],
    readonly counts: RequestCounts,
    readonly stopped: () => boolean,
  ) {}

  async send(principal: number, entry: OperationEntry, request: RequestSpec, phase: Phase): Promise<Answer> {
    if (this.stopped()) throw new Error('stopped: the time limit of the run is up')
    const token = this.tokens[principal]
    if (token === undefined) throw new Error(`no principal ${principal}`)
    const line = `p${principal} ${phase === 'command' ? '' : `[${phase}] `}${request.method} ${request.path}${request.body === undefined ? '' : ` ${clip(request.body)}`}`
    let answer: Answer
    try {
      answer = await (this.target.send ?? send)(this.target.url, request, `Bearer ${token}`)
    } catch (error) {
      this.counts.add(this.target.name, entry.operationId, phase, 'error')
      this.log.push(`${line}\n      -> no answer: ${(error as Error).message}`)
      throw error
    }
    this.counts.add(this.target.name, entry.operationId, phase, answer.status)
    const link = answer.headers.link === undefined ? '' : ` [Link: ${answer.headers.link}]`
    this.log.push(`${line}\n      -> ${answer.status}${link} ${clip(answer.text) || '(no body)'}`)
    return answer
  }
}

// ---- Principals ----------------------------------------------------------------------------------------

/**
 * Fresh principals for each sequence, emptied through the API once it ends, so that no sequence sees
 * what an earlier one left: a failure then shrinks to a sequence that fails on a fresh target too, and
 * its replay reproduces it. The sandbox makes a principal of any new token; the real server knows only
 * the tokens it was started with (the kit's suite starts it with a few), so once `freshBudget` of them are used,
 * emptied principals are used again.
 */
/** Where a run takes the tokens of a sequence's principals, and gives them back once it ends. */
export interface PrincipalPool {
  take(): string
  /** After the sequence: `known` is the principal's model when it passed, undefined when it failed. */
  give(token: string, known: PrincipalModel | undefined): Promise<void>
  /** Principals that could not be brought back (each with what was tried), for the report. */
  readonly leftovers: string[]
}

class Principals implements PrincipalPool {
  private fresh = 0
  private readonly idle: string[] = []
  /** Principals that could not be emptied (after a failed sequence, on a target that misbehaves). */
  readonly leftovers: string[] = []
  constructor(
    readonly target: Endpoint,
    readonly api: Api,
    readonly counts: RequestCounts,
    readonly freshBudget: number,
  ) {}

  take(): string {
    if (this.target.seeded || this.fresh < this.freshBudget) {
      this.fresh++
      return this.target.newToken()
    }
    const token = this.idle.shift()
    if (token === undefined) throw new Error(`${this.target.name}: no emptied principal left to use again`)
    return token
  }

  /**
   * Empties a principal: deletes the plants of `known` (the model's, after a sequence that passed),
   * or else every plant its list shows. Never throws: a principal it cannot empty is not used again.
   */
  async give(token: string, known: PrincipalModel | undefined): Promise<void> {
    const session = new Session(this.target, [token], this.counts, () => false)
    try {
      if (known)
        await this.remove(
          session,
          [...known.plants.values()].map((p) => p[this.api.keyField]),
        )
      else await this.empty(session)
      if (!this.target.seeded) this.idle.push(token)
    } catch (error) {
      this.leftovers.push(`${(error as Error).message}
${session.log.join('\n')}`)
    }
  }

  private deleteOperation() {
    const remove = this.api.linked.find((l) => l.entry.method === 'delete')
    if (!remove) throw new Error('a principal cannot be emptied without a linked DELETE')
    return remove
  }

  private async remove(session: Session, keys: unknown[]): Promise<void> {
    const remove = this.deleteOperation()
    for (const key of keys) {
      const path = remove.entry.path.replace(/\{[^}]+\}/, encodeURIComponent(String(key)))
      const answer = await session.send(
        0,
        remove.entry,
        { method: 'DELETE', path, auth: { kind: 'principal' } },
        'cleanup',
      )
      if (answer.status !== remove.success)
        throw new Error(`cleanup: DELETE ${path} answered ${answer.status}`)
    }
  }

  private async empty(session: Session): Promise<void> {
    const { list } = this.api
    if (!list) throw new Error('a principal cannot be emptied without a list operation')
    for (let round = 0; round < 3; round++) {
      const size = list.pageSize
      const plants: unknown[] = []
      let address: string | undefined = `${list.entry.path}${size ? `?${size.name}=${size.max}` : ''}`
      for (let page = 0; address !== undefined && page < 100; page++) {
        const answer = await session.send(
          0,
          list.entry,
          { method: 'GET', path: address, auth: { kind: 'principal' } },
          'cleanup',
        )
        if (answer.status !== list.success)
          throw new Error(`cleanup: GET ${address} answered ${answer.status}`)
        plants.push(...(parseExact(answer.text) as unknown[]))
        const next = nextAddress(answer.headers.link)
        // Resolved against the address the page came from, as a client does (RFC 3986 §5).
        address = next === undefined ? undefined : resolveLink(next, answer.url ?? address)
      }
      if (plants.length === 0) return
      await this.remove(
        session,
        plants.map((plant) => (plant as Record<string, unknown>)[this.api.keyField]),
      )
    }
    throw new Error('cleanup: the principal still has plants after 3 rounds')
  }
}

// ---- Running -----------------------------------------------------------------------------------------

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
        await walkList(api, model, session, p, api.list?.pageSize?.max, 'final check')
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

// ---- Report ----------------------------------------------------------------------------------------

export function writeReport(
  file: string,
  results: RunResult[],
  counts: RequestCounts,
  lines: { derived: string[]; settings: string[] },
): void {
  const out: string[] = ['# Stateful contract run', '']
  out.push(...lines.settings.map((l) => `- ${l}`), '')
  out.push('## Commands derived from the document', '', ...lines.derived.map((l) => `- ${l}`), '')
  out.push('## Results', '')
  out.push(
    'Sequences: those generated; run: all run, shrinking included, and the commands and requests of all of them.',
    '',
  )
  out.push(
    '| target | sequences | run | commands | requests | time | outcome |',
    '|---|---:|---:|---:|---:|---:|---|',
  )
  for (const r of results) {
    const outcome = r.failed
      ? `FAILED (shrunk ${r.shrinks}×)`
      : r.report
        ? 'FAILED (nothing checked)'
        : r.note
          ? `passed, ${r.note}`
          : 'passed'
    out.push(
      `| ${r.target} | ${r.sequences} | ${r.executed} | ${r.commands} | ${r.requests} | ${(r.ms / 1000).toFixed(1)} s | ${outcome} |`,
    )
  }
  out.push('', '## Requests per operation and outcome', '')
  out.push(
    'Phases: `command` (a generated command), `read-back` (reading a plant after a 409), `final check` (each principal listed after the sequence), `cleanup` (each principal emptied after the sequence).',
    '',
  )
  out.push('| target | operation | phase | status | requests |', '|---|---|---|---:|---:|')
  const rows = [...counts.rows].map(
    ([key, n]) => [...key.split('\t'), n] as [string, string, string, string, number],
  )
  rows.sort((a, b) => a.slice(0, 4).join('\t').localeCompare(b.slice(0, 4).join('\t')))
  for (const [target, op, phase, status, n] of rows)
    out.push(`| ${target} | ${op} | ${phase} | ${status} | ${n} |`)
  out.push('', `Total: ${counts.total()} requests.`, '')
  for (const r of results.filter((r) => r.leftovers.length)) {
    out.push(
      `## ${r.target}: principals left with plants`,
      '',
      `${r.leftovers.length} principal(s) could not be emptied after their sequence; the first:`,
      '',
      '```',
      r.leftovers[0] ?? '',
      '```',
      '',
    )
  }
  for (const r of results.filter((r) => r.report))
    out.push(`## ${r.target}: failure`, '', '```', r.report ?? '', '```', '')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, out.join('\n'))
}
