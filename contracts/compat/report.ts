// Writes the gate's verdict three ways: lines for the terminal, Markdown and JUnit for reports/.

import { type RuleId, ruleIds, rules } from '../../src/core/compat/rules.js'
import {
  consumerCases,
  consumerFailures,
  consumerLines,
  consumerMarkdown,
  consumerNote,
  consumersPass,
} from './consumer-report.js'
import type { ConsumerReport } from './consumers.js'
import type { ClassifiedChange, Verdict } from './policy.js'

/** What the replay of the released document's examples against the current server gave. */
export interface ReplayResult {
  /** Why it did not run, when it refused to (it then fails, as a failed replay does). */
  skipped?: string
  passed: number
  failed: number
  ok: boolean
  seconds: number
  /** The released document it replayed. */
  document: string
}

export interface ReportInput {
  verdict: Verdict
  /** How the two documents are named in the report, e.g. `spec/openapi.yaml`. */
  specName: string
  baseName: string
  changelogName: string
  replay?: ReplayResult
  /** The recorded consumers judged against the draft, when a folder of them was given. */
  consumers?: ConsumerReport
  /**
   * `--only-consumers`: the recorded consumers are all the clients there are, so they alone decide;
   * the general rule (the policy, the released history, the replay) is reported as a note.
   */
  onlyConsumers?: boolean
}

const order = { breaking: 0, review: 1, 'non-breaking': 2 } as const
const sorted = (changes: ClassifiedChange[]) =>
  changes
    .map((change, i) => ({ change, i }))
    .sort((a, b) => order[a.change.class] - order[b.change.class] || a.i - b.i)
    .map(({ change }) => change)

/** `breaks: server clients, mock clients`, `review for: mock clients` or `breaks: no one`. */
export function whom(change: ClassifiedChange): string {
  if (change.class === 'breaking') return `breaks: ${change.who.join(', ')}`
  if (change.class === 'review') return `review for: ${change.who.join(', ')}`
  return 'breaks: no one'
}

const verdictOf = (change: ClassifiedChange, changelogName: string, section?: string) =>
  change.class !== 'breaking'
    ? ''
    : change.allowedBy
      ? `allowed by ${changelogName} ${section ?? 'Unreleased (accepted within the released major)'}: ${change.allowedBy}`
      : `NOT ALLOWED: ${change.notAccepted ?? 'not listed under a new major version'}`

/** Why the general rule fails the draft, one line each: the policy, the released history, the replay. */
function generalFailures({ verdict, replay }: ReportInput, failedReplay: string): string[] {
  const replayFailure =
    replay && !replay.ok ? [replay.skipped ? `no behaviour replay: ${replay.skipped}` : failedReplay] : []
  return [...verdict.problems, ...verdict.history, ...replayFailure]
}

const promised = (replay: ReplayResult) =>
  `the current server no longer does what ${replay.document} promised`

export const passed = (input: ReportInput) =>
  (input.onlyConsumers || generalFailures(input, '').length === 0) && consumersPass(input.consumers)

/** How a failure of the general rule is told: a failure, or with --only-consumers a note. */
const generalMark = (input: ReportInput) => (input.onlyConsumers ? 'note (general rule)' : 'FAIL')

/** The lines the run prints: one per change (its detail indented below it), then the verdict. */
export const consoleLines = (input: ReportInput): string[] => [...changeLines(input), ...verdictLines(input)]

/** The heading and one line per change, its detail indented below it. */
export function changeLines({
  verdict,
  specName,
  baseName,
  changelogName,
  consumers,
}: ReportInput): string[] {
  const lines = [
    `Compatibility of ${specName} (${verdict.headVersion}) with the released ${baseName} (${verdict.baseVersion})`,
    '',
  ]
  const changes = sorted(verdict.changes)
  const width = Math.max(0, ...changes.map((c) => c.pointer.length))
  const ruleWidth = Math.max(0, ...changes.map((c) => c.rule.length))
  for (const change of changes) {
    lines.push(
      `${change.class.padEnd(12)}  ${change.pointer.padEnd(width)}  ${change.rule.padEnd(ruleWidth)}  — ${whom(change)}`,
    )
    const notes = [verdictOf(change, changelogName, verdict.section), consumerNote(change, consumers)]
    lines.push(`${' '.repeat(14)}${[change.detail, ...notes.filter(Boolean)].join('; ')}`)
  }
  if (changes.length === 0) lines.push('No change to the interface.')
  lines.push(...consumerLines(consumers))
  return lines
}

/** The totals, the replay's outcome and what fails the run, if anything. */
export function verdictLines(input: ReportInput): string[] {
  const { verdict, replay } = input
  const lines = ['', summary(verdict)]
  if (replay && !replay.skipped) lines.push(replayLine(replay))
  for (const line of staleLines(input)) lines.push(line)
  const general = generalFailures(input, replay ? `${promised(replay)}: see the failed examples above` : '')
  for (const problem of general) lines.push(`${generalMark(input)}: ${problem}`)
  for (const problem of consumerFailures(input.consumers)) lines.push(`FAIL: ${problem}`)
  const allowedBreaking = input.verdict.changes.filter((c) => c.class === 'breaking').length
  if (passed(input) && general.length === 0)
    lines.push(
      allowedBreaking
        ? `ok: each of the ${allowedBreaking} breaking change(s) is listed in the changelog, which tells clients of the released document`
        : 'ok: no change breaks a client of the released document',
    )
  const served = input.consumers?.verdicts.length ?? 0
  if (passed(input) && served > 0)
    lines.push(
      input.onlyConsumers
        ? `ok: the draft serves each of the ${served} recorded consumer(s) as before, and --only-consumers takes them for all the clients there are`
        : `ok: the draft serves each of the ${served} recorded consumer(s) as before`,
    )
  return lines
}

/** The changelog's acceptances that hold for no change of the draft: left over, to be removed. */
function staleLines({ verdict, changelogName }: ReportInput): string[] {
  return verdict.staleAcceptances.map(
    (line) =>
      `stale: ${changelogName}, ## Unreleased accepts a change the draft does not make, "${line}": remove it, or name the change as printed above`,
  )
}

function summary({ changes }: Verdict): string {
  const count = (cls: ClassifiedChange['class']) => changes.filter((c) => c.class === cls).length
  const allowed = changes.filter((c) => c.allowedBy !== undefined).length
  const n = changes.length
  return (
    `${n} change${n === 1 ? '' : 's'}: ${count('breaking')} breaking (${allowed} allowed by the changelog), ` +
    `${count('review')} for review, ${count('non-breaking')} non-breaking`
  )
}

function replayLine(replay: ReplayResult): string {
  if (replay.skipped) return `Behaviour replay of ${replay.document}: refused (${replay.skipped})`
  return (
    `Behaviour replay of ${replay.document} against the current server: ` +
    `${replay.passed} passed, ${replay.failed} failed (${replay.seconds.toFixed(0)} s)`
  )
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

export function markdown(input: ReportInput): string {
  const { verdict, specName, baseName, changelogName, replay } = input
  const out = [
    '# Compatibility with the released document',
    '',
    `${specName} (version ${verdict.headVersion}) against the released ${baseName} (version ${verdict.baseVersion}).`,
    '',
    `**Result: ${passed(input) ? 'pass' : 'FAIL'}.** ${summary(verdict)}.`,
    '',
  ]
  const general = generalFailures(input, replay ? promised(replay) : '')
  const failures = consumerFailures(input.consumers)
  for (const problem of general) out.push(`- ${generalMark(input)}: ${cell(problem)}`)
  for (const problem of failures) out.push(`- FAIL: ${cell(problem)}`)
  for (const line of staleLines(input)) out.push(`- ${cell(line)}`)
  if (general.length || failures.length || verdict.staleAcceptances.length) out.push('')
  if (input.onlyConsumers)
    out.push(
      'With `--only-consumers`: the recorded consumers are all the clients there are, and they alone decide the result; the general rule is a note.',
      '',
    )
  out.push('## Changes', '')
  if (verdict.changes.length === 0) out.push('No change to the interface.', '')
  else {
    out.push(
      '| Class | Pointer | Rule | Whom | What changed | Policy |',
      '| --- | --- | --- | --- | --- | --- |',
    )
    for (const c of sorted(verdict.changes))
      out.push(
        `| ${c.class} | \`${cell(c.pointer)}\` | \`${c.rule}\` | ${whom(c)} | ${cell(c.detail)} | ${cell([verdictOf(c, changelogName, verdict.section), consumerNote(c, input.consumers)].filter(Boolean).join('; '))} |`,
      )
    out.push('')
  }
  out.push(...consumerMarkdown(input.consumers))
  out.push('## Behaviour replay', '')
  out.push(
    replay
      ? `${replayLine(replay)}.${replay.skipped ? '' : ` The contract suite replays every example of the released document against the current server, which serves ${specName}.`}`
      : 'Not run (`--no-replay`).',
    '',
  )
  out.push('## Rules', '', '| Rule | Class | Whom | Description |', '| --- | --- | --- | --- |')
  for (const id of ruleIds) {
    const rule = rules[id]
    out.push(`| \`${id}\` | ${rule.class} | ${rule.who.join(', ')} | ${cell(rule.description)} |`)
  }
  return `${out.join('\n')}\n`
}

const xml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    // Characters XML 1.0 cannot hold at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

interface Case {
  name: string
  failure?: string
  out?: string
}

/**
 * One test case per breaking rule (it fails when a change of that rule is not allowed), one for the
 * version, one for the replay: the counts of `npm test` stand for checks, not for changes found.
 */
export function junit(input: ReportInput): string {
  const { verdict, changelogName, replay } = input
  const line = (c: ClassifiedChange) =>
    `${c.class}  ${c.pointer}  ${c.rule}  — ${whom(c)}: ${c.detail}${c.allowedBy ? ` (allowed by ${changelogName})` : c.notAccepted ? ` (${c.notAccepted})` : ''}`
  const diffCases: Case[] = ruleIds
    .filter((id) => rules[id].class === 'breaking')
    .map((id: RuleId) => {
      const found = verdict.changes.filter((c) => c.rule === id)
      const refused = found.filter((c) => c.allowedBy === undefined)
      return {
        name: `${id}: ${rules[id].description}`,
        ...(refused.length ? { failure: refused.map(line).join('\n') } : {}),
        ...(found.length ? { out: found.map(line).join('\n') } : {}),
      }
    })
  const acceptanceProblems = verdict.problems.filter((p) => p.includes('## Unreleased: the acceptance "'))
  const versionProblems = verdict.problems.filter(
    (p) => !/breaking change/.test(p) && !acceptanceProblems.includes(p),
  )
  diffCases.push({
    name: `info.version ${verdict.headVersion} against the released ${verdict.baseVersion}`,
    ...(versionProblems.length ? { failure: versionProblems.join('\n') } : {}),
  })
  diffCases.push({
    name: 'each acceptance in the changelog names one change: its rule id, pointer, from and to',
    ...(acceptanceProblems.length ? { failure: acceptanceProblems.join('\n') } : {}),
    ...(verdict.staleAcceptances.length ? { out: staleLines(input).join('\n') } : {}),
  })
  diffCases.push({
    name: 'each released document keeps the policy against the one before it',
    ...(verdict.history.length ? { failure: verdict.history.join('\n') } : {}),
  })
  // With --only-consumers the general rule's cases pass, their failures kept as notes: the report
  // fails where the run does.
  const general = (cases: Case[]): Case[] =>
    input.onlyConsumers
      ? cases.map(({ name, failure, out }) =>
          failure === undefined
            ? { name, ...(out ? { out } : {}) }
            : { name, out: [`${generalMark(input)}: ${failure}`, out].filter(Boolean).join('\n') },
        )
      : cases
  const others = verdict.changes.filter((c) => c.class !== 'breaking')
  const suites = [
    { name: 'compatibility: document diff', cases: general(diffCases), out: others.map(line).join('\n') },
  ]
  if (input.consumers)
    suites.push({ name: 'compatibility: recorded consumers', cases: consumerCases(input.consumers), out: '' })
  if (replay) {
    const outcome = replay.skipped
      ? `no behaviour replay: ${replay.skipped}`
      : `${replay.passed} passed, ${replay.failed} failed`
    suites.push({
      name: 'compatibility: behaviour replay',
      cases: general([
        {
          name: `the current server keeps the examples of ${replay.document}`,
          ...(replay.ok ? {} : { failure: outcome }),
          out: outcome,
        },
      ]),
      out: '',
    })
  }
  const body: string[] = []
  let tests = 0
  let failures = 0
  for (const suite of suites) {
    const failed = suite.cases.filter((c) => c.failure !== undefined).length
    tests += suite.cases.length
    failures += failed
    body.push(
      `  <testsuite name="${xml(suite.name)}" tests="${suite.cases.length}" failures="${failed}" errors="0" skipped="0">`,
    )
    for (const c of suite.cases) {
      body.push(`    <testcase classname="${xml(suite.name)}" name="${xml(c.name)}">`)
      if (c.failure !== undefined)
        body.push(
          `      <failure message="${xml(c.failure.split('\n')[0] ?? '')}">${xml(c.failure)}</failure>`,
        )
      if (c.out) body.push(`      <system-out>${xml(c.out)}</system-out>`)
      body.push('    </testcase>')
    }
    if (suite.out) body.push(`    <system-out>${xml(suite.out)}</system-out>`)
    body.push('  </testsuite>')
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="compatibility" tests="${tests}" failures="${failures}" errors="0">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n')
}
