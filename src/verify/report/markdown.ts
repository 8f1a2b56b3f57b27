// The Markdown report (--report): the verdict, the checks by operation, the coverage with what was
// not exercised and why, warnings, notes, and each distinct failure with its replay.
import { unjudgedLine } from '../promises/coverage.js'
import { coverageMarkdown, promisesMarkdown } from './coverage-summary.js'
import type { Reporter } from './reporter.js'

export const markdownReporter: Reporter = {
  render({ results, coverage, title }) {
    const out = [`# ${title}`, '']
    out.push(`**${results.verdict()}.**`, '')
    const unjudged = results.failed ? undefined : unjudgedLine(coverage.notJudged ?? [])
    if (unjudged) out.push(unjudged, '')
    for (const { layer, reason } of results.stopped) out.push(`- **${layer} could not go on:** ${reason}`)
    if (results.stopped.length) out.push('')
    out.push('| operation | check | passed | failed |', '|---|---|---:|---:|')
    for (const r of results.rows()) out.push(`| ${r.operationId} | ${r.check} | ${r.passed} | ${r.failed} |`)
    out.push('', ...coverageMarkdown(coverage))
    if (coverage.promises) out.push('', ...promisesMarkdown(coverage.promises))
    if (results.warnings.length)
      out.push(
        '',
        '## Warnings',
        '',
        'Allowed by the document, and worth knowing; never a failure:',
        '',
        ...results.warnings.map((w) => `- ${w}`),
      )
    if (results.notes.length) out.push('', '## Notes', '', ...results.notes.map((n) => `- ${n}`))
    if (results.failures.length) {
      out.push('', '## Failures', '')
      for (const f of results.distinctFailures()) out.push('```', results.failureText(f), '```', '')
    }
    return `${out.join('\n')}\n`
  },
}
