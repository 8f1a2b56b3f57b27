// The requests a layer sends to set up or undo its principal's state, judged like any other answer:
// one the document does not give them is recorded under the layer, and the layer is told it cannot
// rely on the state. Shared by the layers that keep a principal in a known state.

import type { Probe } from '../cases/probe.js'
import type { HttpExchange } from '../checks/exchange.js'
import { operationFor } from '../document.js'
import { describeAnswer, describeRequest } from '../http.js'
import type { Source } from '../report/results.js'
import type { Context } from './context.js'
import { rethrowTeamCode } from './errors.js'
import { type Housekeeping, namedIds, type Principal } from './principal.js'

/** How a layer runs one piece of housekeeping: true when the state can be relied on after it. */
export type Keeping = (
  what: string,
  replay: string,
  work: () => Promise<Housekeeping | undefined>,
) => Promise<boolean>

/**
 * Watches `principal`'s housekeeping for `layer`, and returns how the layer runs one piece of it:
 * `what` it does and the `replay` of the case it serves; true when the state can be relied on after it.
 */
export function housekeeper(ctx: Context, principal: Principal, layer: Source): Keeping {
  let doing = { what: '', replay: '' }
  principal.observe = ({ request, answer, expected }: Housekeeping) => {
    const exchange: HttpExchange = {
      kind: 'http',
      operation: operationFor(ctx.loaded.operations, request.method, ctx.subject.documentPath(request.path)),
      request,
      answer,
      expected: { statuses: [expected], why: `(${doing.what})` },
      judging: ctx.judging,
    }
    const { checked, findings } = ctx.judge(exchange)
    // A housekeeping answer counts where it fails: the cases are the layer's own requests.
    if (findings.length)
      ctx.results.record({
        layer,
        operationId: exchange.operation?.operationId ?? `${request.method} ${request.path}`,
        checks: checked,
        findings,
        status: answer.status,
        expected: [expected],
        title: doing.what,
        request: describeRequest(request),
        answer: describeAnswer(answer),
        document: String(expected),
        replay: doing.replay,
      })
  }
  return async (what: string, replay: string, work: () => Promise<Housekeeping | undefined>) => {
    doing = { what, replay }
    try {
      return (await work()) === undefined
    } catch (error) {
      rethrowTeamCode(error)
      ctx.results.stop(layer, `${what}: ${(error as Error).message}`)
      return false
    }
  }
}

/**
 * Undoes what request `number` changed; where the undo is not as the document says, brings the plants
 * it names back as they were. False when even that fails: the layer cannot go on.
 */
export async function undoRequest(
  keeping: Keeping,
  principal: Principal,
  probe: Probe,
  status: number,
  judgedRight: boolean,
  number: number,
  replay: string,
): Promise<boolean> {
  return (
    (await keeping(`undoing request ${number}`, replay, () => principal.undo(probe, status, judgedRight))) ||
    (await keeping(`restoring the caller’s plants after request ${number}`, replay, () =>
      principal.reset(...namedIds(probe)),
    ))
  )
}
