// A consumer's requests replayed (--consumer FILE): the operations its contract records, each request
// drawn within the bounds its own requests reached (cases/consumer-probes.ts), sent as the first
// principal kept in a known state, and judged as a generated request is (the status the document gives
// it in that state, the answer's schema and headers, every page of a listing, a create read back) and,
// as each exchange names the consumer, by what the consumer reads of it. The plants its item requests
// name are created first, so that it gets the answers it handles (a 404 too, where it handles one);
// and where it follows a listing's Link, enough plants that its pages reach a second. Every request
// the run sends counts for the coverage, and for the progress line.
import { type ContractOperation, givenPlants, pickPlant } from '@plant-store/core'
import { type ConsumerPlan, consumerProbes } from '../../cases/consumer-probes.js'
import { type OperationEntry, operationFor } from '../../document.js'
import type { Answer, RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { handledResponse } from '../../judge/consumer-reads.js'
import type { State } from '../../judge/state.js'
import { parametersOf } from '../../report/coverage.js'
import type { ConsumerRun, Context } from '../context.js'
import { housekeeper } from '../housekeeper.js'
import { namedIds, Principal } from '../principal.js'
import { sendProbe } from '../probe-step.js'

export async function runConsumer(ctx: Context, run: ConsumerRun): Promise<void> {
  const { subject } = ctx
  const before = subject.requests
  let doing = 'setting up'
  const say = (what = doing) => {
    doing = what
    const sent = subject.requests - before
    ctx.progress(`consumer ${run.contract.consumer}: ${sent} request${sent === 1 ? '' : 's'} sent, ${doing}`)
  }
  const observed = subject.observer
  subject.observer = (request, authorization, answer) => {
    observed?.(request, authorization, answer)
    count(ctx, request, answer)
    say()
  }
  try {
    await replayConsumer(ctx, run, say)
  } finally {
    subject.observer = observed
  }
}

/**
 * A request of the run counted for the coverage, whichever part of the run sent it (a page its Link
 * led to, a plant set up): the status of its answer and the parameters it carried.
 */
function count(ctx: Context, request: RequestSpec, answer: Answer): void {
  const path = ctx.subject.documentPath(request.path)
  const entry = operationFor(ctx.loaded.operations, request.method, path)
  if (!entry) return
  ctx.results.saw(entry.operationId, answer.status)
  ctx.results.carried(entry.operationId, parametersOf(entry, { path, body: request.body }))
}

async function replayConsumer(
  ctx: Context,
  { file, contract, perOperation }: ConsumerRun,
  say: (what: string) => void,
): Promise<void> {
  const { options, results } = ctx
  const { consumer } = contract
  const plan = consumerProbes(contract, ctx.loaded.operations, perOperation, options.seed)
  for (const missing of plan.missing) results.notes.push(`consumer ${consumer}: not replayed: ${missing}`)
  const existing = new Set(ctx.existing[0].map((p) => p.id))
  const state: State = new Map(ctx.existing[0].map((p) => [p.id, pickPlant(p)]))
  const arranged = arrangement(plan.probes)
  const [sample] = givenPlants(ctx.loaded.document)
  const principal = new Principal(ctx.subject.endpoint(0), state, existing)
  const replayOf = (i?: number) =>
    ctx.replay(`--consumer ${file} --seed=${options.seed}${i === undefined ? '' : ` --case ${i + 1}`}`)
  const keeping = housekeeper(ctx, principal, 'consumer')
  const only = options.case === undefined ? undefined : Number(options.case)
  // The run's own plants for the pages: ids of the run's range, none a request names.
  const named = new Set(plan.probes.flatMap(({ probe }) => namedIds(probe)))
  let nextId = ctx.idBase
  const newId = () => {
    while (state.has(nextId) || named.has(nextId)) nextId++
    return nextId++
  }
  let unpaged = false
  if (options.readOnly) principal.token = ctx.subject.tokens[0]
  else if (
    !(await keeping('creating the plants the consumer’s requests name', replayOf(), () => principal.reset()))
  )
    return
  let skipped = 0
  try {
    for (const [i, { probe, contract: operation }] of plan.probes.entries()) {
      if (only !== undefined && i + 1 !== only) continue
      const changes = probe.method !== 'GET' && probe.method !== 'HEAD'
      // Never a plant the run did not create; in --read-only, nothing that changes plants.
      if ((changes && namedIds(probe).some((id) => existing.has(id))) || (options.readOnly && changes)) {
        skipped++
        continue
      }
      const at = `its request ${i + 1} of ${plan.probes.length}`
      say(at)
      // The plant the request names is there, or not, as the answer the consumer handles needs.
      const want = arranged[i]
      const id = probe.id
      if (
        want &&
        id !== undefined &&
        !existing.has(id) &&
        !options.readOnly &&
        state.has(id) !== (want === 'there')
      ) {
        if (want === 'there') state.set(id, pickPlant({ name: 'plant', ...sample }, id))
        else state.delete(id)
        if (!(await keeping(`setting up request ${i + 1}`, replayOf(i), () => principal.settle(id)))) return
      }
      // A listing the consumer pages through Link: more plants than its largest page holds, so that
      // its pages are read through Link to the end.
      const size = pageSize(operation, probe.entry)
      if (size !== undefined && state.size <= size) {
        if (options.readOnly) unpaged = true
        else {
          const ids = Array.from({ length: size + 1 - state.size }, newId)
          for (const id of ids) state.set(id, pickPlant({ name: 'plant', ...sample }, id))
          const what = `creating ${ids.length} plants, so that its pages of ${size} reach a second`
          say(what)
          if (!(await keeping(what, replayOf(i), () => principal.settle(...ids)))) return
          say(at)
        }
      }
      const step = {
        layer: 'consumer' as const,
        number: i + 1,
        title: `${consumer}'s request ${i + 1}`,
        replay: replayOf(i),
        consumer: { name: consumer, operation },
      }
      if (!(await sendProbe(ctx, principal, keeping, state, probe, step))) return
    }
  } finally {
    if (!options.readOnly && !options.keep)
      await keeping('deleting the run’s plants', replayOf(), async () => {
        say('deleting the run’s plants')
        await principal.clear()
        return undefined
      })
  }
  if (unpaged)
    results.notes.push(
      `consumer ${consumer}: its pages past the first were not read, as the caller has no more plants than a page of its holds and --read-only creates none`,
    )
  if (skipped)
    results.notes.push(
      `consumer ${consumer}: ${skipped} request(s) not sent, as they would change a plant the run did not create${options.readOnly ? ' or change plants at all (--read-only)' : ''}`,
    )
  for (const [first] of byOperation(plan.probes)) {
    if (!first) continue
    const { operationId } = first.probe.entry
    const operation = first.contract
    for (const status of Object.keys(operation.responses).filter((key) => /^\d+$/.test(key)))
      if (
        !results
          .statusesSeen(operationId)
          .some((seen) => handledResponse(operation, seen) === operation.responses[status])
      )
        results.notExercisedBecause(
          operationId,
          Number(status),
          `${consumer} handles it, and no request drawn from its contract got it (a status a test forced, or one for a request the document refuses)`,
        )
  }
}

/**
 * Whether the plant each request names is to be there: for an item request whose success the consumer
 * handles, it is (but for the last, where it handles a 404 too); for a create, it is not (but for the
 * last, where it handles a 409).
 */
function arrangement(probes: ConsumerPlan['probes']): ('there' | 'absent' | undefined)[] {
  const out: ('there' | 'absent' | undefined)[] = []
  for (const group of byOperation(probes)) {
    const { responses } = group[0]?.contract ?? { responses: {} }
    const role = group[0] ? roleOf(group[0].probe.entry) : 'other'
    const success = Object.keys(responses).some((status) => status.startsWith('2'))
    for (const [i, { probe }] of group.entries()) {
      const last = i === group.length - 1 && i > 0
      out[probes.findIndex((item) => item.probe === probe)] =
        role === 'item' && success
          ? last && '404' in responses
            ? 'absent'
            : 'there'
          : role === 'create'
            ? last && '409' in responses
              ? 'there'
              : 'absent'
            : undefined
    }
  }
  return out
}

const byOperation = (probes: ConsumerPlan['probes']) => {
  const groups = new Map<string, ConsumerPlan['probes']>()
  for (const item of probes)
    groups.set(item.probe.entry.operationId, [...(groups.get(item.probe.entry.operationId) ?? []), item])
  return [...groups.values()]
}

/**
 * The most plants a page of the consumer's listing holds when it follows the listing's Link (its
 * contract shows it sent a cursor): its largest limit (the document's default when it sent none), at
 * most the most a page holds; undefined for any other request.
 */
function pageSize(operation: ContractOperation, entry: OperationEntry): number | undefined {
  const sent = operation.parameters ?? []
  const query = (name: string) => (p: { in: string; name: string }) => p.in === 'query' && p.name === name
  if (roleOf(entry) !== 'list' || !sent.some(query('cursor'))) return undefined
  const documented = entry.parameters.find(query('limit'))?.schema
  const size = Number(sent.find(query('limit'))?.schema.maximum ?? documented?.default)
  if (!Number.isSafeInteger(size) || size < 1) return undefined
  const most = Number(documented?.maximum)
  return Number.isSafeInteger(most) ? Math.min(size, most) : size
}
