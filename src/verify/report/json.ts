// The whole result of a run as one JSON document, for tools: what --json writes.
import type { CheckName } from '../checks/check.js'
import type { PromiseCoverage } from '../promises/coverage.js'
import type { Coverage } from './coverage-summary.js'
import type { ReportedRun, Reporter } from './reporter.js'
import type { Failure, Source } from './results.js'

export interface JsonReport {
  tool: 'plant-store-verify'
  baseUrl: string
  /** Whether the run passed: no answer departed, no layer stopped, and the coverage reached its minimum. */
  passed: boolean
  verdict: string
  /** A run's seed; a replay has none. */
  seed?: number
  /** The recording a replay sent (--replay). */
  recording?: string
  requests: number
  startedAt: string
  durationMs: number
  /** Of durationMs, the time the run waited for the server's rate limits (a replay never waits). */
  waitedMs: number
  checks: CheckName[]
  rows: { operationId: string; check: CheckName; passed: number; failed: number }[]
  /** Answers that departed, counted once per check. */
  failedAnswers: number
  /** Each distinct failure (operation, check and first problem), with how many answers had it. */
  failures: (Failure & { times: number })[]
  stopped: { layer: Source; reason: string }[]
  warnings: string[]
  notes: string[]
  coverage: Omit<Coverage, 'promises'> & { minimum?: number; met: boolean }
  /** Each promise of the document: its source, the requests that exercised it, the checks that judged them, or why not. */
  promises: PromiseCoverage[]
}

export function jsonReport({
  results,
  coverage,
  baseUrl,
  durationMs,
  minCoverage,
  met,
  recording,
}: ReportedRun): JsonReport {
  const { promises = [], ...counted } = coverage
  return {
    tool: 'plant-store-verify',
    baseUrl,
    passed: !results.failed && met,
    verdict: results.verdict(),
    ...(recording === undefined ? { seed: results.seed } : { recording }),
    requests: results.requests,
    startedAt: new Date(results.startedAt).toISOString(),
    durationMs: Math.round(durationMs),
    waitedMs: Math.round(results.waitedMs),
    checks: [...results.selected],
    rows: results.rows(),
    failedAnswers: results.failures.length,
    failures: results.distinctFailures(),
    stopped: [...results.stopped],
    warnings: [...results.warnings],
    notes: [...results.notes],
    coverage: { ...counted, ...(minCoverage === undefined ? {} : { minimum: minCoverage }), met },
    promises,
  }
}

export const jsonReporter: Reporter = {
  render: (run) => `${JSON.stringify(jsonReport(run), null, 2)}\n`,
}
