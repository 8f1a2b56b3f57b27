// Runs one case on one target and judges the answer by the document: status, schema, exact body, and
// the deviations listed for the target. Keeps what the run saw, for coverage and for the deviations test.
import { isDeepStrictEqual } from 'node:util'
import { type CheckName, type JsonSchema, type OperationEntry, parametersOf } from '@plant-store/verify'
import {
  type Answer,
  type Case,
  describeAnswer,
  describeRequest,
  judgeAnswer,
  judgeErrorAnswer,
  type Plant,
  type RequestSpec,
  send,
} from '@plant-store/verify/testing'
import { type Deviation, deviationFor } from '../deviations.js'
import { Coverage } from './coverage.js'
import { RATE_LIMIT_HEADERS, rateLimitHeadersRequired } from './kit-rules.js'
import {
  authorization,
  isStateless,
  REAL_SERVER_TARGETS,
  type Running,
  setUpPlants,
  type Target,
  type TargetName,
} from './targets.js'

export interface Expectation {
  status: number
  /** The exact body for a real implementation: the example's value, '' for a bodiless response. */
  body?: { value: unknown } | 'empty'
}

export function expectationOf(c: Case): Expectation {
  if (c.kind === 'generated') return { status: c.status }
  return { status: c.status, body: c.body ? { value: c.body.value } : 'empty' }
}

export class CaseRunner {
  readonly coverage: Coverage
  /** Each deviation class the run met, to prove every listed one still happens. */
  readonly deviationsMet = new Set<Deviation>()
  /** The real server's answer per case, shown next to another target's answer when they differ. */
  private readonly serverAnswers = new Map<string, Answer>()
  running: Running | undefined

  constructor(
    operations: OperationEntry[],
    targets: readonly string[],
    private readonly errorSchema: JsonSchema | undefined,
  ) {
    this.coverage = new Coverage(operations, targets)
  }

  target(name: TargetName): Target {
    const t = this.running?.targets[name]
    if (!t) throw new Error(`${name} is not running`)
    return t
  }

  /**
   * What is wrong with an answer, judged by the document (empty when it conforms), and the checks
   * that judged it: the status, the verifier's checks of one answer, and the example's exact body.
   */
  conformance(
    c: Case,
    answer: Answer,
    expected: Expectation,
    opts: { exactBody: boolean },
  ): { checked: CheckName[]; problems: string[] } {
    const problems: string[] = []
    if (answer.status !== expected.status)
      problems.push(`status ${answer.status}, the document says ${expected.status}`)
    const verdict = c.entry
      ? judgeAnswer(c.entry, answer, { requiredHeaders: c.requiredHeaders })
      : judgeErrorAnswer(this.errorSchema, answer)
    problems.push(...verdict.findings.map((f) => f.message))
    const checked: CheckName[] = ['status_code_conformance', ...verdict.checked]
    if (opts.exactBody && expected.body !== undefined) {
      checked.push('example_conformance')
      if (expected.body === 'empty') {
        if (answer.text !== '') problems.push('the body should be empty')
      } else if (!answer.isJson || !isDeepStrictEqual(answer.json, expected.body.value)) {
        problems.push('the body is not the example body')
      }
    }
    return { checked: [...new Set(checked)], problems }
  }

  /** An answer that conformed counts, on this target, for what the document documents of its operation. */
  exercised(
    targetName: string,
    c: Case,
    request: RequestSpec,
    answer: Answer,
    checked: CheckName[],
    title = c.id,
  ): void {
    // Only an answer checked against an operation of the document exercises a documented response.
    if (!c.entry) return
    this.coverage.record(targetName, {
      layer: c.kind === 'example' ? 'examples' : 'generated',
      operationId: c.entry.operationId,
      checks: checked,
      status: answer.status,
      parameters: parametersOf(c.entry, request),
      title,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: `${c.status}`,
      replay: `npm run contract -- -t '${title}'`,
    })
  }

  message(
    c: Case,
    targetName: string,
    request: RequestSpec,
    given: Plant[],
    expected: Expectation,
    answer: Answer,
    problems: string[],
  ) {
    const documented =
      expected.body === undefined || expected.body === 'empty'
        ? `${expected.status}${expected.body === 'empty' ? ' (no body)' : ''}`
        : `${expected.status} ${JSON.stringify(expected.body.value)}`
    const serverAnswer = targetName !== 'server' ? this.serverAnswers.get(c.id) : undefined
    return [
      `${c.id} — on the ${targetName}`,
      `  request:  ${describeRequest(request)}`,
      ...(given.length ? [`  given:    ${JSON.stringify(given)}`] : []),
      `  document: ${documented}`,
      `  answer:   ${describeAnswer(answer)}`,
      ...(serverAnswer ? [`  server:   ${describeAnswer(serverAnswer)}`] : []),
      ...problems.map((p) => `  - ${p}`),
    ].join('\n')
  }

  async run(targetName: TargetName, c: Case): Promise<void> {
    const t = this.target(targetName)
    const token = t.newToken()
    const given = c.givenPlants
    if (c.request.auth.kind === 'principal') await setUpPlants(t, token, given)
    const url = c.kind === 'example' && c.derivation?.kind === 'store-down' ? t.storeDownUrl : t.url
    if (url === undefined) throw new Error(`${c.id}: the ${targetName} has no instance whose store is down`)
    const credentials = authorization(t, c.request.auth, token)
    // Through the target's own sender, where it has one: a create there is shown to its webhook receiver.
    const sender = t.send ?? send
    let answer = await sender(url, c.request, credentials)
    for (let sent = 1; c.request.repeat && sent < c.request.repeat.atMost; sent++) {
      if (answer.status === c.request.repeat.until) break
      answer = await sender(url, c.request, credentials)
    }
    if (targetName === 'server') this.serverAnswers.set(c.id, answer)

    const expected = expectationOf(c)
    // The kit's own server is held to more than the document asks of any server: the RateLimit
    // headers, optional in the document, on every answer it counts against a limit.
    const judged =
      REAL_SERVER_TARGETS.includes(targetName) && rateLimitHeadersRequired(c)
        ? { ...c, requiredHeaders: [...c.requiredHeaders, ...RATE_LIMIT_HEADERS] }
        : c
    // The mock answers examples, not state: its bodies are checked by the Prefer tests instead.
    const { checked, problems } = this.conformance(judged, answer, expected, {
      exactBody: !isStateless(targetName),
    })
    const deviation = deviationFor(targetName, c)

    if (deviation) {
      this.deviationsMet.add(deviation)
      const listed = `${deviation.answers.join(' or ')}${deviation.contentType ? ` ${deviation.contentType}` : ''}`
      const holds =
        deviation.answers.includes(answer.status) &&
        (deviation.contentType === undefined || answer.mediaType === deviation.contentType)
      if (problems.length === 0) {
        throw new Error(
          this.message(c, targetName, c.request, given, expected, answer, [
            `the class "${deviation.name}" in contracts/deviations.ts covers this case, but the ${targetName} now follows the document: narrow or remove the class`,
          ]),
        )
      }
      if (!holds) {
        throw new Error(
          this.message(c, targetName, c.request, given, expected, answer, [
            `the class "${deviation.name}" in contracts/deviations.ts says ${listed} ("${deviation.why}"), the ${targetName} answered otherwise`,
            ...problems,
          ]),
        )
      }
      return
    }

    if (problems.length)
      throw new Error(this.message(c, targetName, c.request, given, expected, answer, problems))
    this.exercised(targetName, c, c.request, answer, checked)
  }
}
