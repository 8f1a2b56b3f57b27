// Stateful sequences from the document's links, model-based, as the two principals: the model starts
// from the plants they already own, keys come from the run's own range, and after each sequence only
// the plants the run created are deleted.

import type { Exchange } from '../../checks/exchange.js'
import { operationFor } from '../../document.js'
import type { Endpoint } from '../../http.js'
import { parametersOf } from '../../report/coverage.js'
import type { Context } from '../context.js'
import { deriveApi } from '../sequences/api.js'
import type { PrincipalPool } from '../sequences/principals.js'
import { RequestCounts } from '../sequences/request-counts.js'
import { runTarget } from '../sequences/run.js'
import type { PrincipalModel, StoreModel } from '../sequences/store-model.js'
import { keyText } from '../sequences/store-model.js'
import { plantsOrStop } from '../subject.js'

/** How many commands a sequence has at most. */
const MAX_COMMANDS = 20

export async function runStateful(ctx: Context): Promise<void> {
  const { subject, results, options, loaded } = ctx
  let api: ReturnType<typeof deriveApi>
  try {
    api = { ...deriveApi(loaded.operations), judging: ctx.judging }
  } catch (error) {
    results.notes.push(
      `stateful sequences: not run, the document's links give no model (${(error as Error).message})`,
    )
    return
  }
  const existing = ctx.existing.map((plants) => new Set(plants.map((p) => p.id)))
  const tokens = subject.tokens
  let taken = 0
  const deletePlants = async (principal: 0 | 1, keys: bigint[]) => {
    for (const key of keys) if (!existing[principal]?.has(key)) await ctx.remove(principal, key)
  }
  const pool: PrincipalPool = {
    leftovers: [],
    take: () => tokens[taken++ % 2] as string,
    async give(token, known) {
      const principal = tokens.indexOf(token) as 0 | 1
      try {
        const keys = known
          ? [...known.plants.values()].map((p) => p[api.keyField] as bigint)
          : await listKeys(ctx, principal, api.keyField)
        await deletePlants(principal, keys)
      } catch (error) {
        this.leftovers.push(`${(error as Error).message}`)
      }
    },
  }
  const initial = (): StoreModel => ({
    principals: ctx.existing.map(
      (plants): PrincipalModel => ({
        plants: new Map(plants.map((p) => [keyText(p.id), { ...p }])),
        created: [],
      }),
    ),
  })
  const counts = new RequestCounts()
  // The checks that judged each operation's answers, across every sequence: its one row each.
  const checkedBy = new Map<string, Set<string>>()
  const judge = (exchange: Exchange) => {
    const verdict = ctx.judge(exchange)
    if (exchange.kind === 'http' && exchange.operation) {
      const checked = checkedBy.get(exchange.operation.operationId) ?? new Set()
      for (const name of verdict.checked) checked.add(name)
      checkedBy.set(exchange.operation.operationId, checked)
    }
    return verdict
  }
  ctx.progress(`stateful: ${options.sequences} sequences`)
  const result = await runTarget({
    target: carrying(ctx),
    api,
    document: loaded.document,
    runs: options.sequences,
    seed: options.seed,
    maxCommands: MAX_COMMANDS,
    timeLimitMs: Math.max(1000, ctx.deadline - Date.now()),
    counts,
    pool,
    initial,
    keys: {
      base: ctx.idBase + 10_000n,
      avoid: new Set([...ctx.existing[0], ...ctx.existing[1]].map((p) => p.id)),
    },
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
    judge,
    replay: (seed, path, replayPath) =>
      ctx.replay(
        `--only stateful --seed=${seed} --sequences ${options.sequences} --path ${path}${replayPath ? ` --replay-path '${replayPath}'` : ''}`,
      ),
  })
  // Each operation the sequences sent is counted once, with the failure where one came.
  const operations = new Set([...counts.rows.keys()].map((key) => key.split('\t')[1] ?? ''))
  if (result.failed && !result.findings)
    results.stop(
      'stateful',
      `a sequence could not be judged: ${result.message ?? 'no message'}\n${result.report ?? ''}`,
    )
  for (const operationId of operations) {
    const statuses = [...counts.rows.keys()]
      .filter((k) => k.split('\t')[1] === operationId)
      .map((k) => Number(k.split('\t')[3]))
    for (const status of statuses.filter(Number.isFinite)) results.saw(operationId, status)
    results.record({
      layer: 'stateful',
      operationId,
      checks: [...(checkedBy.get(operationId) ?? [])],
      findings: operationId === result.operationId ? (result.findings ?? []) : [],
      kinds: ['sequence'],
      title: `sequences (seed ${result.seed})`,
      request: 'the shrunk sequence below',
      answer: result.report ?? '',
      document: 'the model of the store the document’s links describe',
      replay: /Replay exactly this case:\n\s+(.*)/.exec(result.report ?? '')?.[1] ?? '',
    })
  }
  if (result.note) results.notes.push(`stateful sequences: ${result.note}`)
  else if (result.report && !result.failed) results.notes.push(`stateful sequences: ${result.report}`)
  results.notes.push(
    `stateful sequences: ${result.sequences} sequences, ${result.commands} commands, ${result.requests} requests`,
  )
  for (const leftover of pool.leftovers.slice(0, 3))
    results.notes.push(`stateful sequences: a principal could not be brought back: ${leftover}`)
}

async function listKeys(ctx: Context, principal: 0 | 1, keyField: string): Promise<bigint[]> {
  if (!ctx.list) return []
  return plantsOrStop(await ctx.subject.plantsOf(ctx.list, principal)).map((p) => p[keyField] as bigint)
}

/** The server under test as the sequences reach it, each request's parameters counted for coverage. */
function carrying(ctx: Context): Endpoint {
  const endpoint = ctx.subject.endpoint(0)
  const send = endpoint.send ?? ctx.subject.send
  return {
    ...endpoint,
    send: (base, request, authorization, extra) => {
      const entry = operationFor(
        ctx.loaded.operations,
        request.method,
        ctx.subject.documentPath(request.path),
      )
      if (entry) ctx.results.carried(entry.operationId, parametersOf(entry, request))
      return send(base, request, authorization, extra)
    },
  }
}
