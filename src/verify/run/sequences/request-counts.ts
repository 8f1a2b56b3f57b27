// The requests a stateful run sent, counted per target, operation, phase and outcome, for its report.
import type { Phase } from './real.js'

/** Requests sent, per target, operation, phase and outcome (the status, or `error` when none came). */
export class RequestCounts {
  readonly rows = new Map<string, number>()
  add(target: string, operationId: string, phase: Phase, outcome: number | 'error'): void {
    const key = [target, operationId, phase, String(outcome)].join('\t')
    this.rows.set(key, (this.rows.get(key) ?? 0) + 1)
  }
  total(target?: string): number {
    let sum = 0
    for (const [key, n] of this.rows) if (!target || key.startsWith(`${target}\t`)) sum += n
    return sum
  }
}
