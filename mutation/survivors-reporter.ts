// A Stryker reporter that lists the mutants no verifier run killed, one line each (file, line,
// mutator, original → replacement), in reports/mutation/survivors.md beside the HTML and JSON reports.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { schema } from '@stryker-mutator/api/core'
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin'
import type { Reporter } from '@stryker-mutator/api/report'

export const SURVIVORS_FILE = 'reports/mutation/survivors.md'

/** The statuses a survivor list names: no verifier run failed while the mutant was on. */
const UNKILLED = new Set(['Survived', 'NoCoverage'])

/** One line of code, squeezed to fit a table cell. */
function cell(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return (flat.length > 80 ? `${flat.slice(0, 77)}…` : flat).replaceAll('|', '\\|').replaceAll('`', "'")
}

/** The part of a file's source a mutant replaces. */
function original(source: string, location: schema.Location): string {
  const lines = source.split('\n')
  const { start, end } = location
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1)
  const first = (lines[start.line - 1] ?? '').slice(start.column - 1)
  return `${first} …`
}

/** The survivors of a mutation-testing report, as Markdown. */
export function survivorsMarkdown(report: schema.MutationTestResult): string {
  const rows: string[] = []
  const counts = new Map<string, number>()
  for (const [file, result] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    for (const mutant of result.mutants) {
      counts.set(mutant.status, (counts.get(mutant.status) ?? 0) + 1)
      if (!UNKILLED.has(mutant.status)) continue
      const from = cell(original(result.source, mutant.location))
      rows.push(
        `| ${file}:${mutant.location.start.line} | ${mutant.mutatorName} | \`${from}\` → \`${cell(mutant.replacement ?? '')}\` | ${mutant.status === 'NoCoverage' ? 'no layer reaches it' : 'survived'} |`,
      )
    }
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  const summary = [...counts.entries()].map(([status, n]) => `${status} ${n}`).join(', ')
  return [
    '# Mutants no verifier run killed',
    '',
    `${rows.length} of ${total} mutants (${summary}).`,
    '',
    '| where | mutator | original → replacement | |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

export class SurvivorsReporter implements Reporter {
  async onMutationTestReportReady(report: schema.MutationTestResult): Promise<void> {
    await mkdir(dirname(SURVIVORS_FILE), { recursive: true })
    await writeFile(SURVIVORS_FILE, survivorsMarkdown(report))
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'survivors', SurvivorsReporter)]
