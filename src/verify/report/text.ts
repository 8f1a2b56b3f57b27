// The report a run prints on standard output: the checks by operation, the coverage by operation,
// what was not exercised, warnings, notes, what could not go on, each distinct failure with its
// replay, and last the coverage and the verdict, with the requests, the time and the seed.

import { promisesLine, unjudgedLine } from '../promises/coverage.js'
import { coverageShortfall } from './ci.js'
import {
  coverageLine,
  coverageTable,
  notExercisedLines,
  promisesNotExercisedLines,
} from './coverage-summary.js'
import type { Reporter } from './reporter.js'

export const textReporter: Reporter = {
  render({ results, coverage, durationMs, minCoverage, met }) {
    const out = [results.table(), '', coverageTable(coverage)]
    const missing = notExercisedLines(coverage)
    if (missing.length)
      out.push(
        '',
        'Not exercised (documented, never answered or sent in this run):',
        ...missing.map((l) => `- ${l}`),
      )
    if (coverage.promises) {
      const unexercised = promisesNotExercisedLines(coverage.promises)
      out.push('', `${promisesLine(coverage.promises)}${unexercised.length ? '; not exercised:' : '.'}`)
      out.push(...unexercised.map((l) => `- ${l}`))
    }
    if (results.warnings.length)
      out.push(
        '',
        'Warnings (allowed by the document; never a failure):',
        ...results.warnings.map((w) => `- ${w}`),
      )
    if (results.notes.length) out.push('', 'Notes:', ...results.notes.map((n) => `- ${n}`))
    for (const { layer, reason } of results.stopped) out.push('', `✗ ${layer} could not go on: ${reason}`)
    for (const failure of results.distinctFailures()) out.push('', results.failureText(failure))
    out.push(
      '',
      coverageLine(coverage),
      `${results.verdict()}: ${results.requests} requests in ${(durationMs / 1000).toFixed(1)} s, ${(results.waitedMs / 1000).toFixed(1)} s of it waiting for the server’s rate limits (seed ${results.seed}).`,
    )
    // A passing run says what it did not judge, so that a pass is not read as more than it is.
    const unjudged = results.failed ? undefined : unjudgedLine(coverage.notJudged ?? [])
    if (unjudged) out.push(unjudged)
    if (!met && minCoverage !== undefined)
      out.push(`plant-store-verify: ${coverageShortfall(coverage, minCoverage)}`)
    return `${out.join('\n')}\n`
  },
}
