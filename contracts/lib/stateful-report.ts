// The stateful layer's report (reports/stateful.md): the settings, the commands derived, each target's
// outcome, the requests per operation and outcome, and each failure with its replay.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { RequestCounts, RunResult } from '@plant-store/verify/testing'

export function writeReport(
  file: string,
  results: RunResult[],
  counts: RequestCounts,
  lines: { derived: string[]; settings: string[] },
): void {
  const out: string[] = ['# Stateful contract run', '']
  out.push(...lines.settings.map((l) => `- ${l}`), '')
  out.push('## Commands derived from the document', '', ...lines.derived.map((l) => `- ${l}`), '')
  out.push('## Results', '')
  out.push(
    'Sequences: those generated; run: all run, shrinking included, and the commands and requests of all of them.',
    '',
  )
  out.push(
    '| target | sequences | run | commands | requests | time | outcome |',
    '|---|---:|---:|---:|---:|---:|---|',
  )
  for (const r of results) {
    const outcome = r.failed
      ? `FAILED (shrunk ${r.shrinks}×)`
      : r.report
        ? 'FAILED (nothing checked)'
        : r.note
          ? `passed, ${r.note}`
          : 'passed'
    out.push(
      `| ${r.target} | ${r.sequences} | ${r.executed} | ${r.commands} | ${r.requests} | ${(r.ms / 1000).toFixed(1)} s | ${outcome} |`,
    )
  }
  out.push('', '## Requests per operation and outcome', '')
  out.push(
    'Phases: `command` (a generated command), `read-back` (reading a plant after a 409), `final check` (each principal listed after the sequence), `cleanup` (each principal emptied after the sequence).',
    '',
  )
  out.push('| target | operation | phase | status | requests |', '|---|---|---|---:|---:|')
  const rows = [...counts.rows].map(
    ([key, n]) => [...key.split('\t'), n] as [string, string, string, string, number],
  )
  rows.sort((a, b) => a.slice(0, 4).join('\t').localeCompare(b.slice(0, 4).join('\t')))
  for (const [target, op, phase, status, n] of rows)
    out.push(`| ${target} | ${op} | ${phase} | ${status} | ${n} |`)
  out.push('', `Total: ${counts.total()} requests.`, '')
  for (const r of results.filter((r) => r.leftovers.length)) {
    out.push(
      `## ${r.target}: principals left with plants`,
      '',
      `${r.leftovers.length} principal(s) could not be emptied after their sequence; the first:`,
      '',
      '```',
      r.leftovers[0] ?? '',
      '```',
      '',
    )
  }
  for (const r of results.filter((r) => r.report))
    out.push(`## ${r.target}: failure`, '', '```', r.report ?? '', '```', '')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, out.join('\n'))
}
