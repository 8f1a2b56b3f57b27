// A consumer's requests replayed (--consumer FILE): the operations its contract records, each request
// drawn within the bounds its own requests reached (cases/consumer-probes.ts), sent as the first
// principal kept in a known state, and judged as a generated request is (the status the document gives
// it in that state, the answer's schema and headers, every page of a listing, a create read back) and,
// as each exchange names the consumer, by what the consumer reads of it. The plants its item requests
// name are created first, so that it gets the answers it handles (a 404 too, where it handles one).
import { givenPlants, pickPlant } from '@plant-store/core'
import { type ConsumerPlan, consumerProbes } from '../../cases/consumer-probes.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { handledResponse } from '../../judge/consumer-reads.js'
import type { State } from '../../judge/state.js'
import type { ConsumerRun, Context } from '../context.js'
import { housekeeper } from '../housekeeper.js'
import { namedIds, Principal } from '../principal.js'
import { sendProbe } from '../probe-step.js'

export async function runConsumer(
  ctx: Context,
  { file, contract, perOperation }: ConsumerRun,
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
    ctx.replay(`--consumer ${file} --seed ${options.seed}${i === undefined ? '' : ` --case ${i + 1}`}`)
  const keeping = housekeeper(ctx, principal, 'consumer')
  const only = options.case === undefined ? undefined : Number(options.case)
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
      ctx.progress(`consumer ${consumer} ${i + 1}/${plan.probes.length}`)
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
        if (!(await keeping(`setting up request ${i + 1}`, replayOf(i), () => principal.reset(id)))) return
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
        await principal.clear()
        return undefined
      })
  }
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
