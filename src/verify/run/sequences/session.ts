// One sequence's view of the target: each request sent as one of its principals, counted, and logged
// with its answer for the failure report; its answers judged by the run's judge.
import type { Exchange } from '../../checks/exchange.js'
import type { OperationEntry } from '../../document.js'
import { type Answer, type Endpoint, type RequestSpec, send } from '../../http.js'
import type { Verdict } from '../../judge/judge.js'
import type { Phase, Real } from './real.js'
import type { RequestCounts } from './request-counts.js'

const clip = (text: string, max = 400) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text

export class Session implements Real {
  readonly log: string[] = []
  constructor(
    readonly target: Endpoint,
    readonly tokens: string[],
    readonly counts: RequestCounts,
    readonly stopped: () => boolean,
    readonly judge: (exchange: Exchange) => Verdict = () => ({ checked: [], findings: [] }),
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
