// One generated request's step, as the generated layer and a consumer's replay both take it: sent as
// the principal, judged in the state the principal is kept in (every page of a listing too), recorded
// under the layer, and what it changed undone before the next.
import { describeProbe, type Probe, requestOf } from '../cases/probe.js'
import type { ConsumerView, HttpExchange } from '../checks/exchange.js'
import { describeAnswer } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { mergeVerdicts } from '../judge/judge.js'
import { probeExchange } from '../judge/probe.js'
import type { State } from '../judge/state.js'
import { parametersOf } from '../report/coverage.js'
import type { Source } from '../report/results.js'
import type { Context } from './context.js'
import { followProbeListing } from './follow-links.js'
import { type Keeping, undoRequest } from './housekeeper.js'
import type { Principal } from './principal.js'

export interface ProbeStep {
  layer: Source
  /** The request's number in the layer, from 1. */
  number: number
  /** How the reports name it. */
  title: string
  /** The command that sends it again. */
  replay: string
  /** The consumer whose request it is: each exchange names it, for what the consumer reads. */
  consumer?: ConsumerView
}

/** Sends, judges and records `probe`, then undoes it; false when the state cannot be relied on after it. */
export async function sendProbe(
  ctx: Context,
  principal: Principal,
  keeping: Keeping,
  state: State,
  probe: Probe,
  step: ProbeStep,
): Promise<boolean> {
  const { answer, readBack } = await principal.send(probe)
  const exchange: HttpExchange = {
    ...probeExchange(probe, state, answer, { stateful: true, judging: ctx.judging, readBack }),
    ...(step.consumer ? { consumer: step.consumer } : {}),
  }
  const first = { exchange, verdict: ctx.judge(exchange) }
  // Every listing is followed through its Link to its end, filtered or not.
  const verdict =
    roleOf(probe.entry) === 'list' && answer.status === 200
      ? mergeVerdicts(await followProbeListing(ctx, probe, state, principal.token, first, step.consumer))
      : first.verdict
  ctx.results.record({
    layer: step.layer,
    operationId: probe.entry.operationId,
    checks: verdict.checked,
    findings: verdict.findings,
    parameters: parametersOf(probe.entry, requestOf(probe)),
    kinds: [probe.defect ?? 'valid', ...probe.features, ...(probe.covers ? [`covers: ${probe.covers}`] : [])],
    status: answer.status,
    ...(exchange.expected ? { expected: [...exchange.expected.statuses] } : {}),
    title: step.title,
    request: describeProbe(probe),
    answer: describeAnswer(answer),
    document: (exchange.expected?.statuses ?? []).join(' or '),
    replay: step.replay,
  })
  if (ctx.options.readOnly) return true
  const judgedRight = verdict.findings.length === 0
  return undoRequest(keeping, principal, probe, answer.status, judgedRight, step.number, step.replay)
}
