// The recorded consumers' part of the gate's report: for each consumer whether the draft still serves it
// and, where not, each finding by operation and property; for each breaking change of the general gate,
// the consumers it touches, or that it touches none.
import type { ConsumerFinding, ConsumerReport, ConsumerVerdict } from './consumers.js'
import type { ClassifiedChange } from './policy.js'

/** Whether no recorded consumer breaks and every contract could be read. */
export const consumersPass = (report: ConsumerReport | undefined) =>
  report === undefined || (report.problems.length === 0 && report.verdicts.every((v) => !v.breaks))

/** What a breaking change of the general gate does to the recorded consumers, for its line. */
export function consumerNote(change: ClassifiedChange, report: ConsumerReport | undefined): string {
  if (!report || report.verdicts.length === 0 || change.class !== 'breaking') return ''
  const whom = report.touched.get(`${change.rule} ${change.pointer}`) ?? []
  return whom.length === 0
    ? `safe for every recorded consumer (${report.verdicts.map((v) => v.consumer).join(', ')})`
    : `touches the recorded consumer${whom.length === 1 ? '' : 's'} ${whom.join(', ')}`
}

const state = (verdict: ConsumerVerdict) =>
  verdict.breaks
    ? 'BREAKS'
    : verdict.findings.length > 0
      ? 'served, with changes to review'
      : 'served: no change touches what it sends or reads'

const findingLine = (f: ConsumerFinding) =>
  `${f.class.padEnd(9)} ${f.operation} ${f.where || 'the operation'}  ${f.rule} — ${f.detail}`

/** The consumers' lines of the run's output. */
export function consumerLines(report: ConsumerReport | undefined): string[] {
  if (!report) return []
  const n = report.verdicts.length
  const lines = ['', `Recorded consumers in ${report.folder}: ${n} consumer${n === 1 ? '' : 's'}`]
  if (n === 0 && report.problems.length === 0) lines.push('  none recorded')
  for (const verdict of report.verdicts) {
    lines.push(`  ${verdict.consumer} (recorded against ${verdict.recordedAgainst}): ${state(verdict)}`)
    for (const finding of verdict.findings) lines.push(`    ${findingLine(finding)}`)
  }
  return lines
}

/** Why the consumers fail the run, one line each. */
export function consumerFailures(report: ConsumerReport | undefined): string[] {
  if (!report) return []
  const broken = report.verdicts.filter((v) => v.breaks).map((v) => v.consumer)
  return [
    ...report.problems,
    ...(broken.length
      ? [
          `the draft breaks ${broken.length} recorded consumer${broken.length === 1 ? '' : 's'} of ${report.folder}: ${broken.join(', ')} (see the findings above)`,
        ]
      : []),
  ]
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

export function consumerMarkdown(report: ConsumerReport | undefined): string[] {
  if (!report) return []
  const out = ['## Recorded consumers', '']
  out.push(`The consumer contracts in \`${report.folder}\`, each judged against the draft.`, '')
  for (const problem of report.problems) out.push(`- FAIL: ${cell(problem)}`)
  if (report.problems.length) out.push('')
  if (report.verdicts.length === 0) out.push('None recorded.', '')
  for (const verdict of report.verdicts) {
    out.push(
      `### ${verdict.consumer}`,
      '',
      `Recorded against ${verdict.recordedAgainst} (${verdict.files.map((f) => `\`${f}\``).join(', ')}): **${state(verdict)}**.`,
      '',
    )
    if (verdict.findings.length === 0) continue
    out.push('| Class | Operation | Where | Rule | What changed |', '| --- | --- | --- | --- | --- |')
    for (const f of verdict.findings)
      out.push(
        `| ${f.class} | ${cell(f.operation)} | ${cell(f.where || 'the operation')} | \`${f.rule}\` | ${cell(f.detail)} |`,
      )
    out.push('')
  }
  return out
}

/** One JUnit case per consumer (failing when the draft breaks it), and one per unreadable contract. */
export function consumerCases(report: ConsumerReport): { name: string; failure?: string; out?: string }[] {
  return [
    ...report.verdicts.map((verdict) => {
      const lines = verdict.findings.map(findingLine).join('\n')
      return {
        name: `the draft serves ${verdict.consumer} (recorded against ${verdict.recordedAgainst})`,
        ...(verdict.breaks ? { failure: lines } : {}),
        ...(lines ? { out: lines } : {}),
      }
    }),
    ...report.problems.map((problem) => ({ name: 'a consumer contract that can be read', failure: problem })),
  ]
}
