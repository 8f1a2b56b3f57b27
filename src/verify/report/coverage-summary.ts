// A run's coverage as data and as text: the shape coverage.ts measures into, the percentage a team
// gates on, and the table, lines and Markdown section the reports show. Apart from coverage.ts, which
// reads a run's Results: a report reads the coverage alone.
import type { CheckName } from '../checks/check.js'
import { type PromiseCoverage, promisesLine, type UnjudgedPart } from '../promises/coverage.js'

/** Where an operation takes a parameter: its path, its query string, or its request body's top level. */
export type ParameterPlace = 'path' | 'query' | 'body'

export interface DocumentedParameter {
  name: string
  in: ParameterPlace
}

export interface StatusCoverage {
  status: number
  exercised: boolean
  /** Why it was not, when a layer said (or that no answer of the run had it). */
  reason?: string
}

export interface ParameterCoverage extends DocumentedParameter {
  exercised: boolean
}

export interface CheckCoverage {
  check: CheckName
  passed: number
  failed: number
  /** failed: some answer broke it; passed: judged, never broken; not judged: no answer was judged by it. */
  state: 'passed' | 'failed' | 'not judged'
}

export interface OperationCoverage {
  operationId: string
  statuses: StatusCoverage[]
  /** Statuses answered that the document does not give this operation (each is a failure too). */
  undocumented: number[]
  parameters: ParameterCoverage[]
  checks: CheckCoverage[]
}

export interface Tally {
  exercised: number
  total: number
}

export interface Coverage {
  /**
   * What --min-coverage measures, in percent (rounded down to one decimal), of `exercised` and
   * `total`: when the document's promises were given, the promises judged (a request exercised it and
   * one of its checks judged that request) of those a request can show; without them, the documented
   * statuses and parameters (path, query, request-body property) exercised.
   */
  percent: number
  exercised: number
  total: number
  /** What `exercised` and `total` count. */
  counts: 'promises judged' | 'statuses and parameters exercised'
  statuses: Tally
  parameters: Tally
  checks: { passed: number; failed: number; notJudged: number }
  operations: OperationCoverage[]
  /**
   * Each promise of the document and of the rules of HTTP it relies on, with the requests that
   * exercised it and the checks that judged them, or why none did; when the document's promises were
   * given (not counted in the percentage).
   */
  promises?: PromiseCoverage[]
  /**
   * The parts of the document the run left unjudged for want of an option (the newPlant webhook, the
   * kit profile), each with its promises a request could show and the option; when promises were given.
   */
  notJudged?: UnjudgedPart[]
}

/** Exercised of total in percent, rounded down to one decimal (so 49.96 shows as 49.9, not 50.0). */
export function percentOf(exercised: number, total: number): number {
  return total === 0 ? 100 : Math.floor((exercised * 1000) / total) / 10
}

/** Whether the coverage reaches `minimum` percent, compared exactly (not after rounding). */
export function meets(coverage: Coverage, minimum: number): boolean {
  return coverage.total === 0 || coverage.exercised * 100 >= minimum * coverage.total
}

export const formatPercent = (percent: number): string => `${percent.toFixed(1)}%`

/** What the percentage counts, in words: `71 of 97 promises judged`. */
export function measured(coverage: Coverage): string {
  return coverage.counts === 'promises judged'
    ? `${coverage.exercised} of ${coverage.total} promises judged`
    : `${coverage.exercised} of ${coverage.total} documented statuses and parameters exercised`
}

/** The statuses and parameters exercised, beside the percentage when it counts promises. */
const besides = (coverage: Coverage) =>
  `${coverage.counts === 'promises judged' ? 'documented ' : ''}statuses ${coverage.statuses.exercised}/${coverage.statuses.total}, parameters ${coverage.parameters.exercised}/${coverage.parameters.total}`

/** One line: the percentage and what it counts. */
export function coverageLine(coverage: Coverage): string {
  return `Coverage ${formatPercent(coverage.percent)}: ${measured(coverage)} (${besides(coverage)})`
}

const fraction = (items: { exercised: boolean }[]) =>
  items.length ? `${items.filter((i) => i.exercised).length}/${items.length}` : '–'

/** Per operation: statuses and parameters exercised, and checks passed, failed and not judged. */
export function coverageTable(coverage: Coverage): string {
  const rows = coverage.operations.map((o) => [
    o.operationId,
    fraction(o.statuses),
    fraction(o.parameters),
    String(o.checks.filter((c) => c.state === 'passed').length),
    String(o.checks.filter((c) => c.state === 'failed').length),
    String(o.checks.filter((c) => c.state === 'not judged').length),
  ])
  const head = ['operation', 'statuses', 'parameters', 'checks passed', 'failed', 'not judged']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  return [line(head), ...rows.map(line)].join('\n')
}

/**
 * The statuses not exercised, one group per reason, so that a reason every operation shares is said
 * once: `listPlants 429, 503; getPlant 429, 503`, and why.
 */
export function statusesNotExercised(coverage: Coverage): { statuses: string; reason: string }[] {
  const byReason = new Map<string, Map<string, number[]>>()
  for (const o of coverage.operations)
    for (const s of o.statuses) {
      if (s.exercised) continue
      const reason = s.reason ?? ''
      const operations = byReason.get(reason) ?? new Map<string, number[]>()
      operations.set(o.operationId, [...(operations.get(o.operationId) ?? []), s.status])
      byReason.set(reason, operations)
    }
  return [...byReason].map(([reason, operations]) => ({
    statuses: [...operations]
      .map(([operationId, statuses]) => `${operationId} ${statuses.join(', ')}`)
      .join('; '),
    reason,
  }))
}

/**
 * What was not exercised, one item a line: the statuses a line per reason (`listPlants 503; getPlant
 * 503 — why`), then each parameter (`listPlants parameter cursor (query)`).
 */
export function notExercisedLines(coverage: Coverage): string[] {
  const lines = statusesNotExercised(coverage).map(({ statuses, reason }) => `${statuses} — ${reason}`)
  for (const o of coverage.operations)
    for (const p of o.parameters)
      if (!p.exercised) lines.push(`${o.operationId} parameter ${p.name} (${p.in})`)
  return lines
}

/**
 * The promises not exercised that a request could show, a line per reason so that one reason (no
 * webhook receiver) is said once: `a, b, c and 19 more — why`.
 */
export function promisesNotExercisedLines(promises: readonly PromiseCoverage[]): string[] {
  const byReason = new Map<string, string[]>()
  for (const p of promises)
    if (!p.untestable && p.requests === 0)
      byReason.set(p.reason ?? '', [...(byReason.get(p.reason ?? '') ?? []), p.id])
  return [...byReason].map(([reason, ids]) => {
    const shown = ids.length > 4 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ')
    return `${shown} — ${reason}`
  })
}

/** The promises section of the Markdown report: every promise, its source, requests, checks or why not. */
export function promisesMarkdown(promises: readonly PromiseCoverage[]): string[] {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
  return [
    '## Promises',
    '',
    `${promisesLine(promises)}.`,
    '',
    '| promise | source | requests | checks | not exercised because |',
    '|---|---|---:|---|---|',
    ...promises.map(
      (p) =>
        `| ${cell(p.id)} | ${cell(`${p.source.where}: ${p.source.words}`)} | ${p.requests}${p.failed ? ` (${p.failed} failed)` : ''} | ${cell(p.checks.join(', ')) || '–'} | ${cell(p.reason ?? '') || '–'} |`,
    ),
  ]
}

/** The coverage section of the Markdown report. */
export function coverageMarkdown(coverage: Coverage): string[] {
  const out = [
    '## Coverage',
    '',
    `**${formatPercent(coverage.percent)}** — ${measured(coverage)} (${besides(coverage)}). Checks: ${coverage.checks.passed} passed, ${coverage.checks.failed} failed, ${coverage.checks.notJudged} not judged (operation × check).`,
    '',
    '| operation | statuses | not exercised | parameters | not exercised | checks passed | failed | not judged |',
    '|---|---:|---|---:|---|---:|---:|---:|',
  ]
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
  for (const o of coverage.operations) {
    const missingStatuses = o.statuses.filter((s) => !s.exercised).map((s) => s.status)
    const missingParameters = o.parameters.filter((p) => !p.exercised).map((p) => `${p.name} (${p.in})`)
    out.push(
      `| ${cell(o.operationId)} | ${fraction(o.statuses)} | ${missingStatuses.join(', ') || '–'} | ${fraction(o.parameters)} | ${cell(missingParameters.join(', ')) || '–'} | ${o.checks.filter((c) => c.state === 'passed').length} | ${o.checks.filter((c) => c.state === 'failed').length} | ${o.checks.filter((c) => c.state === 'not judged').length} |`,
    )
  }
  const why = statusesNotExercised(coverage).map(({ statuses, reason }) => `- ${statuses}: ${reason}`)
  if (why.length) out.push('', '### Statuses not exercised, and why', '', ...why)
  return out
}
