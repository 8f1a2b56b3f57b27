// Records which documented responses each target was seen to answer in conformance with the
// document, and writes the operations x statuses x targets table as Markdown and JUnit XML.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { documentedStatuses, type OperationEntry } from '../../src/verify/document.js'

export class Coverage {
  private readonly seen = new Map<string, string[]>()

  constructor(
    private readonly operations: OperationEntry[],
    readonly targets: readonly string[],
  ) {}

  private key(target: string, operationId: string, status: number) {
    return `${target} ${operationId} ${status}`
  }

  /** A conforming answer with this status was seen; `by` names the case, for the report. */
  record(target: string, operationId: string, status: number, by: string): void {
    const key = this.key(target, operationId, status)
    const list = this.seen.get(key) ?? []
    list.push(by)
    this.seen.set(key, list)
  }

  exercisedBy(target: string, operationId: string, status: number): string[] {
    return this.seen.get(this.key(target, operationId, status)) ?? []
  }

  /** Documented responses that none of these targets answered conformingly. */
  missing(targets: readonly string[]): string[] {
    const out: string[] = []
    for (const entry of this.operations) {
      for (const status of documentedStatuses(entry)) {
        if (targets.every((target) => this.exercisedBy(target, entry.operationId, status).length === 0))
          out.push(`${entry.operationId} ${status}`)
      }
    }
    return out
  }

  markdown(notes: string[] = []): string {
    const lines = [
      '# Contract coverage',
      '',
      'Each documented response of each operation, and whether each target answered it in conformance',
      'with the document during the contract run (✅ exercised, ❌ never seen). The run fails when a',
      'documented response was never exercised against the real server.',
      '',
      `| operation | status | ${this.targets.join(' | ')} |`,
      `| --- | --- | ${this.targets.map(() => '---').join(' | ')} |`,
    ]
    for (const entry of this.operations) {
      for (const status of documentedStatuses(entry)) {
        const cells = this.targets.map((t) => {
          const by = this.exercisedBy(t, entry.operationId, status)
          return by.length ? `✅ ${by.length}` : '❌'
        })
        lines.push(`| ${entry.operationId} | ${status} | ${cells.join(' | ')} |`)
      }
    }
    if (notes.length) lines.push('', ...notes)
    return `${lines.join('\n')}\n`
  }

  /**
   * One testcase per operation x status x target; only a response that none of the `required`
   * targets (the real server, on each store) was seen to answer fails.
   */
  junit(required: readonly string[]): string {
    const esc = (s: string) =>
      s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    const cases: string[] = []
    let failures = 0
    let skipped = 0
    for (const entry of this.operations) {
      for (const status of documentedStatuses(entry)) {
        for (const target of this.targets) {
          const by = this.exercisedBy(target, entry.operationId, status)
          const name = esc(`${entry.operationId} ${status} on ${target}`)
          const seenOnRequired = required.some(
            (r) => this.exercisedBy(r, entry.operationId, status).length > 0,
          )
          const open = `    <testcase classname="contract-coverage.${esc(target)}" name="${name}">`
          if (by.length) {
            cases.push(`${open}<system-out>${esc(by.join('\n'))}</system-out></testcase>`)
          } else if (required.includes(target) && !seenOnRequired) {
            failures++
            cases.push(`${open}<failure message="never exercised against the real server"/></testcase>`)
          } else {
            skipped++
            cases.push(`${open}<skipped message="not exercised on ${esc(target)}"/></testcase>`)
          }
        }
      }
    }
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="contract coverage" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
      `  <testsuite name="contract coverage" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
      ...cases,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n')
  }

  write(dir: string, required: readonly string[], notes: string[] = []): void {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'contract-coverage.md'), this.markdown(notes))
    writeFileSync(join(dir, 'contract-coverage.junit.xml'), this.junit(required))
  }
}
