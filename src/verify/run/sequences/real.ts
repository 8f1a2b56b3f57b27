// The target under test as the sequences' commands see it: one send per request, tagged with its
// phase, and the run's judge for its answers.
import type { Exchange } from '../../checks/exchange.js'
import type { OperationEntry } from '../../document.js'
import type { Answer, RequestSpec } from '../../http.js'
import type { Verdict } from '../../judge/judge.js'

export type Phase = 'command' | 'read-back' | 'final check' | 'cleanup'

/** The target under test, seen by the commands: sends a request as one of the principals and records it. */
export interface Real {
  send(principal: number, entry: OperationEntry, request: RequestSpec, phase: Phase): Promise<Answer>
  /** The run's selected checks on one exchange. */
  judge(exchange: Exchange): Verdict
}
