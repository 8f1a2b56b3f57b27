// The one judge: runs the selected checks on an exchange, each only where it applies, and says which
// checks judged it (an answer counts as passed by each of them that found nothing) and what they found.
// Pure: whatever sends requests builds the exchange first.
import type { Check, Finding } from '../checks/check.js'
import type { Exchange } from '../checks/exchange.js'

export interface Verdict {
  /** The checks that judged the exchange, found something or not. */
  checked: string[]
  findings: Finding[]
}

export function judgeExchange(exchange: Exchange, checks: readonly Check[]): Verdict {
  const checked: string[] = []
  const findings: Finding[] = []
  for (const check of checks) {
    if (!check.appliesTo(exchange)) continue
    checked.push(check.name)
    for (const message of check.run(exchange)) findings.push({ check: check.name, message })
  }
  return { checked, findings }
}

/** Several exchanges judged as one case (a listing and the pages after it): every check that judged any. */
export function mergeVerdicts(verdicts: readonly Verdict[]): Verdict {
  const checked = new Set<string>()
  const findings: Finding[] = []
  for (const verdict of verdicts) {
    for (const name of verdict.checked) checked.add(name)
    findings.push(...verdict.findings)
  }
  return { checked: [...checked], findings }
}
