// A consumer's requests replayed (--consumer FILE): the operations its contract records, each request
// drawn within the bounds its own requests reached (consumer-probes.ts), sent as the first principal
// kept in a known state, and judged as a generated request is (the status the document gives it in
// that state, the answer's schema and headers, the page, a create read back), and by consumer_reads:
// every property the consumer reads is in the answer. The plants its item requests name are created
// first, so that it gets the answers it handles (a 404 too, where it handles one).
import { givenPlants, pickPlant } from '@plant-store/core'
import { type CheckName, finding } from '../checks.js'
import type { ConsumerRun, Context } from '../context.js'
import { parseExact } from '../exact-json.js'
import { type Answer, describeAnswer, describeRequest } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { consumerReadFindings, handled } from '../judge/consumer-reads.js'
import { pagesAfter } from '../judge/links.js'
import { judge, readBackFindings } from '../judge/listing.js'
import { Housekeeping, namedIds, Principal } from '../judge/principal.js'
import type { State } from '../judge/state.js'
import { parametersOf } from '../report/coverage.js'
import { type ConsumerPlan, consumerProbes } from '../requests/consumer-probes.js'
import { describeProbe, requestOf } from '../requests/generated.js'
import { checksFor } from './examples.js'

export async function runConsumer(
  ctx: Context,
  { file, contract, perOperation }: ConsumerRun,
): Promise<void> {
  const { options, results, judging } = ctx
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
  const only = options.case === undefined ? undefined : Number(options.case)
  if (options.readOnly) principal.token = ctx.subject.tokens[0]
  else if (
    !(await settle(ctx, 'creating the plants the consumer’s requests name', replayOf(), () =>
      principal.reset(),
    ))
  )
    return
  let skipped = 0
  try {
    for (const [i, { probe, contract: operation }] of plan.probes.entries()) {
      if (only !== undefined && i + 1 !== only) continue
      const changes = probe.method !== 'GET' && probe.method !== 'HEAD'
      // Never a plant the run did not create; in --read-only, nothing that changes plants.
      if ((changes && probe.id !== undefined && existing.has(probe.id)) || (options.readOnly && changes)) {
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
        const ready = await settle(ctx, `setting up request ${i + 1}`, replayOf(i), () => principal.reset(id))
        if (!ready) return
      }
      const { answer, readBack } = await principal.send(probe)
      const verdict = judge(probe, state, answer, true, judging)
      if (readBack && verdict.findings.length === 0)
        verdict.findings.push(...readBackFindings(probe, readBack, judging))
      const reads = (page: Answer) =>
        page.isJson ? consumerReadFindings(consumer, operation, page.status, parseExact(page.text)) : []
      verdict.findings.push(...reads(answer))
      const role = roleOf(probe.entry)
      // A list is followed through its Link to its end, each page read as the consumer reads one.
      if (role === 'list' && verdict.findings.length === 0 && answer.status === 200)
        verdict.findings.push(
          ...(await pagesAfter(
            probe.entry.operationId,
            probe.path,
            probe.query,
            state,
            answer,
            judging,
            async (path) => {
              const page = await ctx.subject.send(
                ctx.subject.baseUrl,
                { method: 'GET', path, auth: { kind: 'principal' } },
                `Bearer ${principal.token}`,
              )
              verdict.findings.push(...reads(page))
              return page
            },
          )),
        )
      const extra: CheckName[] = ['positive_data_acceptance', 'consumer_reads']
      if (verdict.expected < 300 && role !== 'other') extra.push('store_conformance')
      if (role === 'create' && verdict.expected < 300) extra.push('create_read_back')
      results.record({
        layer: 'consumer',
        operationId: probe.entry.operationId,
        checks: checksFor(probe.entry, verdict.expected, extra),
        findings: verdict.findings,
        parameters: parametersOf(probe.entry, requestOf(probe)),
        status: answer.status,
        title: `${consumer}'s request ${i + 1}`,
        request: describeProbe(probe),
        answer: describeAnswer(answer),
        document: verdict.accepted.join(' or '),
        replay: replayOf(i),
      })
      if (options.readOnly) continue
      const undone = await settle(ctx, `undoing request ${i + 1}`, replayOf(i), () =>
        principal.undo(probe, answer.status, verdict.findings.length === 0),
      )
      if (
        !undone &&
        !(await settle(ctx, `restoring the plants after request ${i + 1}`, replayOf(i), () =>
          principal.reset(...namedIds(probe)),
        ))
      )
        return
    }
  } finally {
    if (!options.readOnly && !options.keep)
      await settle(ctx, 'deleting the run’s plants', replayOf(), () => principal.clear())
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
          .some((seen) => handled(operation, seen) === operation.responses[status])
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

/** Runs requests that set up or undo state; another answer than the document's is judged and stops the layer. */
async function settle(
  ctx: Context,
  what: string,
  replay: string,
  work: () => Promise<void>,
): Promise<boolean> {
  try {
    await work()
    return true
  } catch (error) {
    if (!(error instanceof Housekeeping)) {
      ctx.results.stop('consumer', `${what}: ${(error as Error).message}`)
      return false
    }
    const { request, answer, expected } = error
    ctx.results.record({
      layer: 'consumer',
      operationId: `${request.method} ${request.path}`,
      checks: ['status_code_conformance'],
      findings: [
        finding(
          'status_code_conformance',
          `status ${answer.status}, the document says ${expected} (${what})`,
        ),
      ],
      status: answer.status,
      title: what,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: String(expected),
      replay,
    })
    ctx.results.stop(
      'consumer',
      `${what}: the store did not answer as the document says, so the state is unknown`,
    )
    return false
  }
}
