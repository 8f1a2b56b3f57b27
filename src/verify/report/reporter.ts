// What every report format implements: a run's report rendered as text, from the same run whatever
// the format (the text a run prints, Markdown, JUnit XML, JSON, one HTML page, GitHub Actions
// annotations); reports.ts picks the formats a command asks for.
import type { Coverage } from './coverage-summary.js'
import type { Results } from './results.js'

/** What a report is written from: the results of a run or a replay, and what is said of it besides. */
export interface ReportedRun {
  results: Results
  /** What the run exercised (coverageOf). */
  coverage: Coverage
  /** What the report is of, e.g. `Verification of http://127.0.0.1:3000`. */
  title: string
  baseUrl: string
  /** From the start of the run to its end. */
  durationMs: number
  /** The --min-coverage threshold, in percent, when one was given. */
  minCoverage?: number
  /** Whether the coverage reached minCoverage: always, when none was given. */
  met: boolean
  /** For a replay (--replay), the recording replayed: a replay has no seed and sets no pace. */
  recording?: string
}

export interface Reporter {
  /** The report as text: a file's whole content, or the lines a command prints. */
  render(run: ReportedRun): string
}
