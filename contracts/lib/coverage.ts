// What each target was seen to answer in conformance with the document, kept in the verifier's own
// Results, one per target, and written with the verifier's own reports: its Markdown (the checks, the
// coverage by operation, the statuses not exercised) and its JUnit XML, one pair per target.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  coverageOf,
  documentedStatuses,
  type Judged,
  type OperationEntry,
  REPORTERS,
  Results,
} from '@plant-store/verify'
import { BUILT_IN_CHECKS } from '@plant-store/verify/testing'

/** Where the reports go, under the run's reports folder: `<target>.md` and `<target>.junit.xml`. */
export const COVERAGE_DIR = 'contract-coverage'

/** A file name for a target: `mock (Prefer)` is `mock-prefer`. */
const fileName = (target: string) =>
  target
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export class Coverage {
  private readonly results: Map<string, Results>
  private readonly startedAt = Date.now()

  constructor(
    private readonly operations: OperationEntry[],
    readonly targets: readonly string[],
  ) {
    const documented = operations.map((e) => ({
      operationId: e.operationId,
      statuses: documentedStatuses(e),
    }))
    this.results = new Map(targets.map((t) => [t, new Results(documented, BUILT_IN_CHECKS)]))
  }

  private of(target: string): Results {
    const results = this.results.get(target)
    if (!results) throw new Error(`${target} is not a target of this run`)
    return results
  }

  /** An answer that conformed: it counts for its status, its parameters and the checks that judged it. */
  record(target: string, judged: Omit<Judged, 'findings'>): void {
    this.of(target).record({ ...judged, findings: [] })
  }

  /** Documented responses (`operationId status`) that none of these targets answered conformingly. */
  missing(targets: readonly string[]): string[] {
    const [first, ...others] = targets.map((t) => this.of(t).notExercised())
    return (first ?? []).filter((m) => others.every((list) => list.includes(m)))
  }

  /** Writes each target's Markdown and JUnit report into `<dir>/contract-coverage/`; `urlOf` a target's address. */
  write(dir: string, urlOf: (target: string) => string, notes: string[] = []): void {
    const into = join(dir, COVERAGE_DIR)
    rmSync(into, { recursive: true, force: true })
    mkdirSync(into, { recursive: true })
    for (const [target, results] of this.results) {
      results.notes.push(...notes)
      const run = {
        results,
        coverage: coverageOf(results, this.operations),
        title: `Contract coverage on the ${target}`,
        baseUrl: urlOf(target),
        durationMs: Date.now() - this.startedAt,
        met: true,
      }
      writeFileSync(join(into, `${fileName(target)}.md`), REPORTERS.markdown.render(run))
      writeFileSync(join(into, `${fileName(target)}.junit.xml`), REPORTERS.junit.render(run))
    }
  }
}
