// The JUnit XML report (--junit): one test case per operation and check, failed with each distinct
// failure's text, and each documented response not exercised as a skipped one; the suite is named
// after what the run is of.
import type { CheckName } from '../checks/check.js'
import type { Reporter } from './reporter.js'

const xmlText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const junitReporter: Reporter = {
  render({ results, title, coverage }) {
    const failuresOf = (operationId: string, check: CheckName) =>
      results.distinctFailures().filter((f) => f.operationId === operationId && f.check === check)
    const cases: string[] = []
    let failures = 0
    for (const r of results.rows()) {
      const open = `    <testcase classname="verify.${xmlText(r.operationId)}" name="${xmlText(r.check)}">`
      if (r.failed) {
        failures++
        const text = failuresOf(r.operationId, r.check)
          .map((f) => results.failureText(f))
          .join('\n\n')
        cases.push(
          `${open}<failure message="${r.failed} of ${r.passed + r.failed} answers">${xmlText(text)}</failure></testcase>`,
        )
      } else cases.push(`${open}</testcase>`)
    }
    const missing = results.notExercised()
    for (const m of missing)
      cases.push(
        `    <testcase classname="verify.not-exercised" name="${xmlText(m)}"><skipped message="not exercised"/></testcase>`,
      )
    // Each promise a request can show: failed when a request that exercised it failed one of its
    // checks, passed when requests exercised it, else skipped with why.
    let skipped = missing.length
    for (const p of coverage.promises ?? []) {
      if (p.untestable) continue
      const open = `    <testcase classname="verify.promises" name="${xmlText(p.id)}">`
      if (p.failed) {
        failures++
        cases.push(
          `${open}<failure message="${p.failed} of ${p.requests} requests failed its checks (${xmlText(p.checks.join(', '))})"/></testcase>`,
        )
      } else if (p.requests) cases.push(`${open}</testcase>`)
      else {
        skipped++
        cases.push(`${open}<skipped message="${xmlText(p.reason ?? 'not exercised')}"/></testcase>`)
      }
    }
    const head = `tests="${cases.length}" failures="${failures}" skipped="${skipped}"`
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="plant-store-verify" ${head}>`,
      `  <testsuite name="${xmlText(title)}" ${head}>`,
      ...cases,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n')
  },
}
