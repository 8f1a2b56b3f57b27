// The reports a command writes, chosen in one place from its options: its text on standard output (a
// run's; a replay prints its exchanges as they come instead), GitHub Actions annotations when it runs
// as a step there, and each report file asked for, its folder created when it does not exist.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { githubReporter, inGitHubActions } from './ci.js'
import { htmlReporter } from './html.js'
import { jsonReporter } from './json.js'
import { junitReporter } from './junit.js'
import { markdownReporter } from './markdown.js'
import type { ReportedRun, Reporter } from './reporter.js'
import { textReporter } from './text.js'

export type ReportFormat = 'text' | 'markdown' | 'junit' | 'json' | 'html' | 'github'

/** Every format's reporter, by its name. */
export const REPORTERS: Readonly<Record<ReportFormat, Reporter>> = {
  text: textReporter,
  markdown: markdownReporter,
  junit: junitReporter,
  json: jsonReporter,
  html: htmlReporter,
  github: githubReporter,
}

/** The report files a command's options name: --junit, --report (Markdown), --json and --html. */
export interface ReportFiles {
  junit?: string | undefined
  report?: string | undefined
  json?: string | undefined
  html?: string | undefined
}

/** One report to write: its format, and the file it goes to (standard output without one). */
export interface ReportOutput {
  format: ReportFormat
  file?: string
}

/**
 * The reports a command asks for. `text`: whether its own text goes to standard output; `env`, where
 * GitHub Actions is told apart.
 */
export function reportsAsked(
  files: ReportFiles,
  { text = true, env = process.env }: { text?: boolean; env?: NodeJS.ProcessEnv } = {},
): ReportOutput[] {
  const asked: [ReportFormat, string | undefined][] = [
    ['junit', files.junit],
    ['markdown', files.report],
    ['json', files.json],
    ['html', files.html],
  ]
  return [
    ...(text ? [{ format: 'text' as const }] : []),
    ...(inGitHubActions(env) ? [{ format: 'github' as const }] : []),
    ...asked.flatMap(([format, file]) => (file === undefined ? [] : [{ format, file }])),
  ]
}

/** Writes each report, rendered from the same run: into its file, or on standard output. */
export function writeReports(
  outputs: readonly ReportOutput[],
  run: ReportedRun,
  print: (text: string) => void = (text) => process.stdout.write(text),
): void {
  for (const { format, file } of outputs) {
    const text = REPORTERS[format].render(run)
    if (file === undefined) {
      if (text) print(`${format === 'text' ? '' : '\n'}${text}`)
      continue
    }
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
}
