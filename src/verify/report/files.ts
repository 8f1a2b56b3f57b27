// The report files a run or a replay writes (--junit, --report, --json, --html), each from the same
// Results, each in the folder it names, created when it does not exist.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { htmlReport } from './html.js'
import { jsonReport, jsonText, type ReportContext } from './json.js'
import type { Results } from './results.js'

export interface ReportFiles {
  junit?: string | undefined
  /** Markdown. */
  report?: string | undefined
  json?: string | undefined
  html?: string | undefined
}

/** Writes each report asked for; `met` is whether the coverage reached its minimum. */
export function writeReports(
  files: ReportFiles,
  results: Results,
  context: ReportContext,
  title: string,
  met = true,
): void {
  const write = (file: string | undefined, text: () => string) => {
    if (file === undefined) return
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text())
  }
  write(files.junit, () => results.junit())
  write(files.report, () => results.markdown(title, context.coverage))
  write(files.json, () => jsonText(jsonReport(results, context, met)))
  write(files.html, () => htmlReport(results, context, met, title))
}
