// What a verification found: for each operation and check, the answers that kept and broke the
// promise; each failure with its request, answer, what the document says and a replay command; the
// documented responses never seen; the parameters judged requests carried; and the table and failure
// text every report shows them by (the reports themselves are reporters: reports.ts).
import type { CheckName, Finding } from '../checks/check.js'
import { CHECK_NAMES } from '../checks/registry.js'

export type Layer = 'examples' | 'generated' | 'stateful' | 'security' | 'concurrency'
export const LAYERS: Layer[] = ['examples', 'generated', 'stateful', 'security', 'concurrency']
/**
 * Where a judged answer came from: a layer's requests, the events the webhook receiver took, a
 * recording's requests sent again (--replay), or a consumer's requests (--consumer).
 */
export type Source = Layer | 'webhooks' | 'replay' | 'consumer'

export interface Failure {
  layer: Source
  operationId: string
  check: CheckName
  /** The case, as the layer names it. */
  title: string
  request: string
  answer: string
  document: string
  problems: string[]
  replay: string
}

export interface Judged {
  layer: Source
  operationId: string
  /** The checks that judged this answer (the judge's verdict), found something or not. */
  checks: CheckName[]
  /** What the checks found, each with the check that found it. */
  findings: Finding[]
  status?: number
  title: string
  request: string
  answer: string
  document: string
  replay: string
  /**
   * The names of the operation's parameters and request-body properties the request carried (see
   * parametersOf in coverage.ts), e.g. ['id', 'name', 'tag']: counted as exercised.
   */
  parameters?: string[]
  /**
   * What kind of case the request was, for the promises it exercises (promises/registry.ts): a
   * generated request's defect (or `valid`), its features and `covers: …`; an example's `example: …`
   * and `derived: …`; a security case's defect, `other principal`, `other method`, …
   */
  kinds?: string[]
  /**
   * The statuses the document gives the request in the caller's state, where the layer keeps that
   * state: what the request was, whatever the store answered (a replace of a plant the caller does
   * not have: 404), for the promises counted by it.
   */
  expected?: number[]
}

/** What the promises' coverage reads of a judged answer (the rest of it is for failures). */
export interface JudgedFacts {
  layer: Source
  operationId: string
  status?: number
  kinds: string[]
  /** The statuses the document gives it in the caller's state, where the layer knows them. */
  expected?: number[]
  parameters: string[]
  /** The checks that judged it, whether or not they found something. */
  checks: CheckName[]
  /** Of those, the checks that found something. */
  failed: CheckName[]
}

/**
 * A problem in one line, for a summary or an annotation: its first line, and the line after it when
 * the first only introduces what follows (ends with a colon).
 */
export function headline(problem: string | undefined): string {
  const lines = (problem ?? '').split(/\r?\n/).map((line) => line.trim())
  const [first = '', next] = lines
  return first.endsWith(':') && next ? `${first} ${next}` : first
}

export class Results {
  private readonly counts = new Map<string, { passed: number; failed: number }>()
  readonly failures: Failure[] = []
  readonly notes: string[] = []
  /**
   * What the document allows but a reader should know, once each (an undocumented property in an
   * operation's answers, a recommendation not followed): never a failure.
   */
  readonly warnings: string[] = []
  private readonly warned = new Set<string>()
  /** Layers that could not go on, each with why: the run fails, and the other layers still ran. */
  readonly stopped: { layer: Source; reason: string }[] = []
  /** Statuses seen per operation, for "not exercised" and the success-path warning. */
  private readonly seen = new Map<string, Set<number>>()
  /** Parameter and body-property names carried per operation, for coverage. */
  private readonly carriedBy = new Map<string, Set<string>>()
  /** Why a documented status was not exercised, where a layer knows, by `operationId status`. */
  private readonly whyNot = new Map<string, string[]>()
  /** Every judged answer, as the promises' coverage reads it. */
  readonly judged: JudgedFacts[] = []
  requests = 0
  /** Time the run waited for the server's rate limits (its declared quotas, its 429s' Retry-After). */
  waitedMs = 0
  seed = 0
  startedAt = Date.now()

  /** The names of the checks the run judges by, in the order reports list them. */
  readonly selected: ReadonlySet<CheckName>
  private readonly descriptions: ReadonlyMap<CheckName, string>

  constructor(
    /**
     * The operations the run covers: the statuses of each it counts and, where it counts not every
     * parameter the document gives it (a consumer's run: those the consumer sends), the parameters.
     */
    readonly operations: {
      operationId: string
      statuses: number[]
      parameters?: readonly { name: string; in: string }[]
    }[],
    checks: readonly { name: CheckName; description: string }[],
  ) {
    this.selected = new Set(checks.map((c) => c.name))
    this.descriptions = new Map(checks.map((c) => [c.name, c.description]))
  }

  /** A check's promise, in one line. */
  description(check: CheckName): string {
    return this.descriptions.get(check) ?? ''
  }

  private cell(operationId: string, check: CheckName) {
    const key = `${operationId}\t${check}`
    let cell = this.counts.get(key)
    if (!cell) {
      cell = { passed: 0, failed: 0 }
      this.counts.set(key, cell)
    }
    return cell
  }

  /** An answer of this status was seen (judged elsewhere, as a stateful sequence's are). */
  saw(operationId: string, status: number): void {
    const statuses = this.seen.get(operationId) ?? new Set()
    statuses.add(status)
    this.seen.set(operationId, statuses)
  }

  /** A request of this operation carried these parameters (judged elsewhere, as a sequence's are). */
  carried(operationId: string, parameters: readonly string[]): void {
    const names = this.carriedBy.get(operationId) ?? new Set()
    for (const name of parameters) names.add(name)
    this.carriedBy.set(operationId, names)
  }

  /** A documented status no request of the run was sent for, and why: the coverage says it. */
  notExercisedBecause(operationId: string, status: number, why: string): void {
    const reasons = this.whyNot.get(`${operationId} ${status}`) ?? []
    if (!reasons.includes(why)) reasons.push(why)
    this.whyNot.set(`${operationId} ${status}`, reasons)
  }

  /** Why a status was not exercised, as the layers said (notExercisedBecause). */
  reasonsNotExercised(operationId: string, status: number): readonly string[] {
    return this.whyNot.get(`${operationId} ${status}`) ?? []
  }

  /** The statuses answers of this operation had, in the order first seen. */
  statusesSeen(operationId: string): number[] {
    return [...(this.seen.get(operationId) ?? [])]
  }

  /** The parameter and body-property names requests of this operation carried. */
  parametersCarried(operationId: string): string[] {
    return [...(this.carriedBy.get(operationId) ?? [])]
  }

  /** Counts one judged answer against each of its checks; returns the failures it adds. */
  record(judged: Judged): Failure[] {
    if (judged.status !== undefined) this.saw(judged.operationId, judged.status)
    if (judged.parameters) this.carried(judged.operationId, judged.parameters)
    const byCheck = new Map<CheckName, string[]>()
    for (const { check, message } of judged.findings)
      byCheck.set(check, [...(byCheck.get(check) ?? []), message])
    const added: Failure[] = []
    const checks = [...new Set([...judged.checks, ...byCheck.keys()])]
    this.judged.push({
      layer: judged.layer,
      operationId: judged.operationId,
      ...(judged.status === undefined ? {} : { status: judged.status }),
      kinds: judged.kinds ?? [],
      ...(judged.expected ? { expected: judged.expected } : {}),
      parameters: judged.parameters ?? [],
      checks,
      failed: [...byCheck.keys()],
    })
    for (const check of checks) {
      const problems = byCheck.get(check)
      const cell = this.cell(judged.operationId, check)
      if (!problems) {
        cell.passed++
        continue
      }
      cell.failed++
      const {
        findings: _all,
        checks: _checks,
        status: _status,
        parameters: _carried,
        kinds: _kinds,
        expected: _expected,
        ...shown
      } = judged
      const failure: Failure = { ...shown, check, problems }
      this.failures.push(failure)
      added.push(failure)
    }
    return added
  }

  /** Says `message` once, however often it is found (keyed by `key`, or the message itself). */
  warn(message: string, key = message): void {
    if (this.warned.has(key)) return
    this.warned.add(key)
    this.warnings.push(message)
  }

  /** A layer that cannot go on says why; the run then fails, whatever else it found. */
  stop(layer: Source, reason: string): void {
    this.stopped.push({ layer, reason })
  }

  get failed(): boolean {
    return this.failures.length > 0 || this.stopped.length > 0
  }

  /** Documented responses no answer of the run had: said, not failed. */
  notExercised(): string[] {
    return this.operations.flatMap(({ operationId, statuses }) =>
      statuses.filter((s) => !this.seen.get(operationId)?.has(s)).map((s) => `${operationId} ${s}`),
    )
  }

  /** Operations whose success path no request reached (every answer an error). */
  unreached(): string[] {
    return this.operations
      .filter(({ operationId }) => {
        const seen = this.seen.get(operationId)
        return seen !== undefined && ![...seen].some((s) => s >= 200 && s < 300)
      })
      .map(({ operationId }) => operationId)
  }

  /** One row per operation and check that was judged at least once, and the checks never judged. */
  rows(): { operationId: string; check: CheckName; passed: number; failed: number }[] {
    const rows = []
    for (const { operationId } of this.operations) {
      for (const check of this.selected) {
        const cell = this.counts.get(`${operationId}\t${check}`)
        if (cell) rows.push({ operationId, check, ...cell })
      }
    }
    return rows
  }

  /** Distinct failures: one per operation, check and first problem, so a bug met 500 times shows once. */
  distinctFailures(): (Failure & { times: number })[] {
    const byKey = new Map<string, Failure & { times: number }>()
    for (const f of this.failures) {
      const key = `${f.operationId}\t${f.check}\t${f.problems[0]?.replace(/\d+/g, 'N')}`
      const known = byKey.get(key)
      if (known) known.times++
      else byKey.set(key, { ...f, times: 1 })
    }
    return [...byKey.values()]
  }

  table(): string {
    const rows = this.rows()
    const width = Math.max(9, ...rows.map((r) => r.operationId.length))
    const checkWidth = Math.max(5, ...rows.map((r) => r.check.length))
    const line = (a: string, b: string, c: string, d: string) =>
      `${a.padEnd(width)}  ${b.padEnd(checkWidth)}  ${c.padStart(6)}  ${d.padStart(6)}`
    return [
      line('operation', 'check', 'passed', 'failed'),
      ...rows.map((r) => line(r.operationId, r.check, String(r.passed), String(r.failed))),
    ].join('\n')
  }

  failureText(f: Failure & { times?: number }): string {
    return [
      `✗ ${f.check} — ${f.operationId} (${f.layer}: ${f.title})${f.times && f.times > 1 ? `, and ${f.times - 1} more like it` : ''}`,
      `  request:  ${f.request}`,
      `  answer:   ${f.answer}`,
      `  document: ${f.document}`,
      ...f.problems.map((p) => `  - ${p.replace(/\n/g, '\n    ')}`),
      `  replay:   ${f.replay}`,
    ].join('\n')
  }

  /** One line: how the run went, for the top of a report. */
  verdict(): string {
    const stopped = this.stopped.length ? `, and ${this.stopped.length} layer(s) could not go on` : ''
    // A team's own check holds answers to the team's rule, not the document's.
    const departed = this.failures.filter((f) => CHECK_NAMES.includes(f.check)).length
    const own = this.failures.length - departed
    const found = [
      ...(departed ? [`${departed} answer(s) departed from the document`] : []),
      ...(own ? [`${own} answer(s) failed your own checks`] : []),
    ]
    if (found.length) return `${found.join(', and ')}${stopped}`
    return this.stopped.length
      ? `No answer departed from the document${stopped}`
      : 'Every answer agreed with the document'
  }
}
