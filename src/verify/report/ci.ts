// What a run prints as it goes and for CI: GitHub Actions workflow commands (an annotation per
// distinct failure and per warning); where stderr is not a terminal, a plain progress line every few
// seconds so a log shows the run is alive, a run waiting out a rate limit included; on a terminal, one
// line rewritten in place.
import { type Coverage, formatPercent, measured } from './coverage-summary.js'
import type { Reporter } from './reporter.js'
import { headline, type Results } from './results.js'

/** A workflow command's message: `%`, CR and LF escaped, as GitHub Actions reads them. */
export const escapeData = (text: string): string =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

/** A workflow command's property value (a title): its message's escapes, and `:` and `,` too. */
export const escapeProperty = (text: string): string =>
  escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/** Whether this process runs as a GitHub Actions step. */
export const inGitHubActions = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.GITHUB_ACTIONS === 'true'

/**
 * The annotations of a run: `::error title=<check> — <operationId>::<first problem line>` for each
 * distinct failure, one for each layer that could not go on and for a coverage under its minimum, and
 * `::warning::` for each warning.
 */
export function githubAnnotations(
  results: Results,
  gate?: { coverage: Coverage; minimum: number; met: boolean },
): string[] {
  const lines: string[] = []
  for (const f of results.distinctFailures()) {
    const first = headline(f.problems[0])
    lines.push(`::error title=${escapeProperty(`${f.check} — ${f.operationId}`)}::${escapeData(first)}`)
  }
  for (const { layer, reason } of results.stopped)
    lines.push(`::error title=${escapeProperty(`${layer} could not go on`)}::${escapeData(reason)}`)
  if (gate && !gate.met)
    lines.push(
      `::error title=${escapeProperty('coverage below the minimum')}::${escapeData(coverageShortfall(gate.coverage, gate.minimum))}`,
    )
  for (const warning of results.warnings) lines.push(`::warning::${escapeData(warning)}`)
  return lines
}

/** The annotations as a report (in GitHub Actions), one workflow command a line; none: empty. */
export const githubReporter: Reporter = {
  render: ({ results, coverage, minCoverage, met }) =>
    githubAnnotations(
      results,
      minCoverage === undefined ? undefined : { coverage, minimum: minCoverage, met },
    )
      .map((line) => `${line}\n`)
      .join(''),
}

/** The one line a run under its --min-coverage ends with. */
export function coverageShortfall(coverage: Coverage, minimum: number): string {
  return `coverage ${formatPercent(coverage.percent)} is below the minimum of ${minimum}% (--min-coverage): ${measured(coverage)}`
}

/**
 * Plain progress for a log: the last line a layer reported, with the seconds since the start, at
 * most once per interval; a timer repeats it while nothing new comes, so a long wait shows too.
 */
export class ProgressLog {
  private last: string | undefined
  private printedAt = Number.NEGATIVE_INFINITY
  private timer: NodeJS.Timeout | undefined
  private readonly startedAt: number

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now()
  }

  start(): this {
    this.timer = setInterval(() => this.tick(), this.intervalMs)
    this.timer.unref()
    return this
  }

  /** A layer's progress line: printed at once when the last was printed an interval ago or more. */
  update(line: string): void {
    // Only what a log shows as text: no escape sequences, no control characters, no line breaks.
    this.last = line
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing escape sequences is the point
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
    this.tick()
  }

  private tick(): void {
    if (this.last === undefined || this.now() - this.printedAt < this.intervalMs) return
    this.printedAt = this.now()
    this.write(`verify: ${this.last} (${Math.round((this.printedAt - this.startedAt) / 1000)} s)`)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }
}

/**
 * Progress on a terminal: one line rewritten in place, at most once an interval; a line that comes
 * sooner is shown when the interval is up unless a newer one replaced it, so the line a run stops at
 * (a wait, say) is always the one shown.
 */
export class TerminalProgress {
  private shownAt = Number.NEGATIVE_INFINITY
  private pending: string | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs = 200,
    private readonly now: () => number = Date.now,
  ) {}

  update(line: string): void {
    this.pending = line
    const wait = this.shownAt + this.intervalMs - this.now()
    if (wait <= 0) this.show()
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.show(), wait)
      this.timer.unref()
    }
  }

  private show(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending === undefined) return
    this.shownAt = this.now()
    this.write(this.pending)
    this.pending = undefined
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.pending = undefined
  }
}
