// A sequence's answer judged by the run's checks against the model: the status the model gives the
// request, the plant it shows, and no other principal's plant. fast-check learns that a sequence failed
// only from a throw, so what the judge found is thrown here (a SequenceFailure carries the findings),
// where every other layer records the judge's findings as they are.
import type { Finding } from '../../checks/check.js'
import type { HttpExchange, IsolationView } from '../../checks/exchange.js'
import type { OperationEntry } from '../../document.js'
import type { Answer, RequestSpec } from '../../http.js'
import { EXACT } from '../../judge/plant.js'
import type { Api } from './api.js'
import type { Real } from './real.js'
import { type Expected, keyText, type StoreModel } from './store-model.js'

/** What the judge found wrong with one answer of a sequence: the sequence fails there. */
export class SequenceFailure extends Error {
  override name = 'SequenceFailure'
  constructor(
    /** The operation whose answer it was. */
    readonly operationId: string,
    readonly findings: Finding[],
  ) {
    super(findings.map((f) => f.message).join('\n    '))
  }
}

/** Throws a SequenceFailure when the judge finds anything in the exchange; `where` starts each message. */
export function judged(real: Real, exchange: HttpExchange, where: string): void {
  const { findings } = real.judge(exchange)
  if (findings.length)
    throw new SequenceFailure(
      exchange.operation?.operationId ?? where,
      findings.map((f) => ({ ...f, message: `${where}: ${f.message}` })),
    )
}

/** The other principals' plants, which the caller must never see or reach; `creating` is a key the caller is creating. */
export function isolationOf(
  model: StoreModel,
  principal: number,
  named?: bigint,
  creating?: bigint,
): IsolationView {
  const others = new Map<string, string>()
  model.principals.forEach((other, index) => {
    if (index !== principal)
      for (const key of other.plants.keys()) if (!others.has(key)) others.set(key, `p${index}`)
  })
  const own = new Set(model.principals[principal]?.plants.keys())
  if (creating !== undefined) own.add(keyText(creating))
  return { others, own, caller: `p${principal}`, ...(named === undefined ? {} : { named }) }
}

/** Judges an answer to one command against what the model expects of it; throws when anything is wrong. */
export function judgeCommand(
  api: Api,
  model: StoreModel,
  principal: number,
  real: Real,
  sent: { entry: OperationEntry; request: RequestSpec; answer: Answer; key?: bigint; creates?: boolean },
  expected: Expected,
  fields: string[],
): void {
  const judging = api.judging ?? EXACT
  const { entry, request, answer, key } = sent
  // A create's answer (a Plant) may show the key it was created with, or leave it out.
  const optional = fields.includes(api.keyField) || judging.exact ? [] : [api.keyField]
  const exchange: HttpExchange = {
    kind: 'http',
    operation: entry,
    request,
    answer,
    expected: { statuses: [expected.status], why: `(${expected.rule})` },
    judging,
    store: expected.plant ? { plant: { value: expected.plant, fields, optional } } : {},
    isolation: isolationOf(model, principal, sent.creates ? undefined : key, sent.creates ? key : undefined),
  }
  judged(real, exchange, `${entry.operationId} as p${principal}`)
}
