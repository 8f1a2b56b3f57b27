// The whole result of a run as one JSON document, for tools: what --json writes.
import type { CheckName } from '../checks.js'
import type { Coverage } from './coverage-summary.js'
import type { Failure, Results, Source } from './results.js'

/** What a report says besides the results: the server, the run's duration, its coverage and gate. */
export interface ReportContext {
  baseUrl: string
  /** From the start of the run to its end. */
  durationMs: number
  coverage: Coverage
  /** The --min-coverage threshold, in percent, when one was given. */
  minCoverage?: number
  /** For a replay (--replay), the recording replayed: a replay has no seed and sets no pace. */
  recording?: string
}

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
  coverage: Coverage & { minimum?: number; met: boolean }
}

export function jsonReport(results: Results, context: ReportContext, met: boolean): JsonReport {
  return {
    tool: 'plant-store-verify',
    baseUrl: context.baseUrl,
    passed: !results.failed && met,
    verdict: results.verdict(),
    ...(context.recording === undefined ? { seed: results.seed } : { recording: context.recording }),
    requests: results.requests,
    startedAt: new Date(results.startedAt).toISOString(),
    durationMs: Math.round(context.durationMs),
    waitedMs: Math.round(results.waitedMs),
    checks: [...results.selected],
    rows: results.rows(),
    failedAnswers: results.failures.length,
    failures: results.distinctFailures(),
    stopped: [...results.stopped],
    warnings: [...results.warnings],
    notes: [...results.notes],
    coverage: {
      ...context.coverage,
      ...(context.minCoverage === undefined ? {} : { minimum: context.minCoverage }),
      met,
    },
  }
}

export const jsonText = (report: JsonReport): string => `${JSON.stringify(report, null, 2)}\n`
