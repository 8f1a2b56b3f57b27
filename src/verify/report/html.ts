// A run (or a replay) as one self-contained HTML page (what --html writes): inline CSS, no script, no
// font, image or style from anywhere else, so it opens from disk or as a CI artifact. At the top the
// verdict and the coverage; then operations × checks coloured passed, failed or not judged; the
// statuses and parameters each operation had exercised, and why not, a line for each reason; each
// distinct failure expandable with its request, answer, what the document says and its replay
// command; warnings and notes.
import type { CheckName } from '../checks/check.js'
import { type PromiseCoverage, promisesLine } from '../promises/coverage.js'
import {
  type Coverage,
  formatPercent,
  measured,
  type OperationCoverage,
  statusesNotExercised,
} from './coverage-summary.js'
import type { ReportedRun, Reporter } from './reporter.js'
import { type Failure, headline } from './results.js'

/** Text made safe for HTML content and for attribute values in double or single quotes. */
export const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')

const h = escapeHtml

const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --none: #6e7781; --none-bg: #f6f8fa; --warn: #9a6700; --warn-bg: #fff8c5; --line: #d0d7de; --text: #1f2328; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif; color: var(--text); background: #fff; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 12.5px; }
h1 { font-size: 22px; margin: 0 0 6px; word-break: break-all; }
h2 { font-size: 18px; margin: 32px 0 10px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 8px; }
a { color: #0969da; }
.summary { border: 1px solid var(--line); border-left: 8px solid var(--pass); border-radius: 8px;
  padding: 16px 20px; background: #fff; }
.summary.failed { border-left-color: var(--fail); }
.verdict { font-size: 17px; font-weight: 600; margin: 4px 0 14px; }
.summary.failed .verdict { color: var(--fail); }
.summary.passed .verdict { color: var(--pass); }
.facts { display: flex; flex-wrap: wrap; gap: 10px 28px; margin: 0; }
.facts div { min-width: 90px; }
.facts dt { font-size: 12px; color: var(--none); text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; font-size: 18px; font-weight: 600; }
.facts dd.bad { color: var(--fail); }
.bar { height: 10px; border-radius: 5px; background: var(--none-bg); border: 1px solid var(--line);
  margin-top: 14px; overflow: hidden; position: relative; }
.bar span { display: block; height: 100%; background: var(--pass); }
.bar i { position: absolute; top: -2px; bottom: -2px; width: 2px; background: var(--text); }
.gate { margin: 8px 0 0; font-weight: 600; }
.gate.bad { color: var(--fail); }
.stopped { background: var(--fail-bg); border: 1px solid var(--fail); border-radius: 6px; padding: 10px 14px;
  margin-top: 14px; }
nav { margin: 14px 0 0; font-size: 13px; }
nav a { margin-right: 14px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 0 0 10px; font-size: 12.5px; color: var(--none); }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.swatch { width: 14px; height: 14px; border-radius: 3px; border: 1px solid var(--line); display: inline-block; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 5px 8px; vertical-align: top; }
th { background: var(--none-bg); font-weight: 600; text-align: left; }
table.matrix th.check { font-weight: 400; max-width: 460px; }
table.matrix th.check .mono { display: block; font-weight: 600; }
table.matrix th.check small { display: block; color: var(--none); font-size: 12px; line-height: 1.3; }
table.matrix td { text-align: center; vertical-align: middle; white-space: nowrap;
  font-variant-numeric: tabular-nums; min-width: 92px; }
th.op { white-space: nowrap; }
td.pass { background: var(--pass-bg); color: var(--pass); }
td.fail { background: var(--fail-bg); color: var(--fail); font-weight: 700; }
td.none { background: #fff; color: #afb8c1; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { display: inline-block; border-radius: 10px; padding: 1px 8px; font-size: 12px; border: 1px solid;
  white-space: nowrap; }
.chip.yes { background: var(--pass-bg); color: var(--pass); border-color: #aceebb; }
.chip.no { background: var(--warn-bg); color: var(--warn); border-color: #eed888; border-style: dashed; }
.chip.undoc { background: var(--fail-bg); color: var(--fail); border-color: #ffcecb; }
.chip small { color: inherit; opacity: .75; }
.muted { color: var(--none); }
ul.reasons { margin: 6px 0 0; padding-left: 20px; }
ul.reasons li { margin: 2px 0; }
details { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; background: #fff; }
details > summary { cursor: pointer; padding: 8px 12px 8px 30px; list-style: none; position: relative; }
details > summary::-webkit-details-marker { display: none; }
details > summary::before { content: "▸"; position: absolute; left: 12px; top: 8px; color: var(--none); }
details[open] > summary::before { content: "▾"; }
details[open] > summary { border-bottom: 1px solid var(--line); }
details.failure > summary .check { color: var(--fail); font-weight: 700; }
details.failure > summary .first { display: block; color: var(--text); margin-top: 2px; word-break: break-word; }
details .body { padding: 10px 14px 12px; }
details.plain > summary { font-weight: 600; }
dl.failure { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; margin: 0; }
dl.failure dt { font-weight: 600; color: var(--none); padding-top: 6px; }
dl.failure dd { margin: 0; min-width: 0; }
pre { margin: 0; padding: 6px 8px; background: var(--none-bg); border: 1px solid var(--line); border-radius: 4px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
ul.problems { margin: 0; padding-left: 18px; }
ul.problems li { white-space: pre-wrap; word-break: break-word; color: var(--fail); }
ul.plain { padding-left: 20px; }
ul.plain li { margin: 3px 0; word-break: break-word; }
li.warning::marker { color: var(--warn); }
footer { margin-top: 40px; font-size: 12px; color: var(--none); }
`

function checkCell(operation: OperationCoverage, check: CheckName): string {
  const cell = operation.checks.find((c) => c.check === check)
  if (!cell || cell.state === 'not judged') return '<td class="none" title="not judged">·</td>'
  const total = cell.passed + cell.failed
  const tip = `${operation.operationId} · ${check}: ${cell.passed} passed, ${cell.failed} failed`
  return cell.state === 'failed'
    ? `<td class="fail" title="${h(tip)}">✗ ${cell.failed}/${total}</td>`
    : `<td class="pass" title="${h(tip)}">✓ ${cell.passed}</td>`
}

/**
 * One row per check, one column per operation: a document has fewer operations than checks. The
 * checks that judged an answer first, so that a run of some layers (--only) shows what it judged on top.
 */
function matrix(coverage: Coverage, checks: CheckName[], describe: (check: CheckName) => string): string {
  const head = coverage.operations.map((o) => `<th class="op" scope="col">${h(o.operationId)}</th>`).join('')
  const judged = (check: CheckName) =>
    coverage.operations.some((o) => o.checks.some((c) => c.check === check && c.state !== 'not judged'))
  const rows = [...checks.filter(judged), ...checks.filter((c) => !judged(c))]
    .map(
      (c) =>
        `<tr><th scope="row" class="check"><span class="mono">${h(c)}</span><small>${h(describe(c))}</small></th>${coverage.operations.map((o) => checkCell(o, c)).join('')}</tr>`,
    )
    .join('\n')
  return `<div class="legend"><span><i class="swatch" style="background:var(--pass-bg)"></i>✓ n: judged n times, never broken</span><span><i class="swatch" style="background:var(--fail-bg)"></i>✗ f/n: broken by f of n answers</span><span><i class="swatch"></i>· not judged (the check does not apply, or no answer reached it)</span></div>
<div class="scroll"><table class="matrix"><thead><tr><th>check</th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table></div>`
}

function coverageTable(coverage: Coverage): string {
  const rows = coverage.operations.map((o) => {
    const statuses = o.statuses
      .map((s) =>
        s.exercised
          ? `<span class="chip yes" title="exercised">${s.status}</span>`
          : // Why is said once, below the table: a reason every operation shares would repeat here.
            `<span class="chip no" title="not exercised">${s.status}</span>`,
      )
      .concat(
        o.undocumented.map(
          (s) =>
            `<span class="chip undoc" title="answered, but not documented for this operation">${s}!</span>`,
        ),
      )
      .join(' ')
    const parameters = o.parameters.length
      ? o.parameters
          .map(
            (p) =>
              `<span class="chip ${p.exercised ? 'yes' : 'no'}" title="${p.exercised ? 'carried by a judged request' : 'no judged request carried it'}">${h(p.name)} <small>${p.in}</small></span>`,
          )
          .join(' ')
      : '<span class="muted">none</span>'
    const count = (items: { exercised: boolean }[]) =>
      items.length ? `${items.filter((i) => i.exercised).length}/${items.length}` : '–'
    return `<tr><th class="op" scope="row">${h(o.operationId)}</th><td class="num">${count(o.statuses)}</td><td><div class="chips">${statuses || '<span class="muted">none</span>'}</div></td><td class="num">${count(o.parameters)}</td><td><div class="chips">${parameters}</div></td></tr>`
  })
  const reasons = statusesNotExercised(coverage).map(
    ({ statuses, reason }) => `<li><span class="mono">${h(statuses)}</span>: ${h(reason)}</li>`,
  )
  const notExercised = coverage.operations.reduce(
    (n, o) => n + o.statuses.filter((s) => !s.exercised).length,
    0,
  )
  return `<p>${h(measured(coverage))}; documented statuses ${coverage.statuses.exercised}/${coverage.statuses.total}, parameters ${coverage.parameters.exercised}/${coverage.parameters.total}. Checks (operation × check): ${coverage.checks.passed} passed, ${coverage.checks.failed} failed, ${coverage.checks.notJudged} not judged.</p>
<div class="legend"><span><span class="chip yes">200</span> exercised</span><span><span class="chip no">503</span> documented, not exercised</span><span><span class="chip undoc">418!</span> answered, not documented</span></div>
<div class="scroll"><table><thead><tr><th>operation</th><th colspan="2">statuses</th><th colspan="2">parameters and body properties</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>
${reasons.length ? `<details class="plain"><summary>Why ${notExercised} documented status(es) were not exercised</summary><div class="body"><ul class="reasons">${reasons.join('')}</ul></div></details>` : ''}`
}

/**
 * The promises in the order a reader acts on them: those a request failed, then those a run could
 * reach that this one did not exercise, then the rest (exercised, then those no request can show).
 */
export function promisesInOrder(promises: readonly PromiseCoverage[]): PromiseCoverage[] {
  const rank = (p: PromiseCoverage) => (p.failed ? 0 : p.untestable ? 3 : p.requests ? 2 : 1)
  return [...promises].sort((a, b) => rank(a) - rank(b))
}

/**
 * Every promise: its source, the requests that exercised it and the checks that judged them, or why
 * not. The document's words keep their parentheses as references, so that none reads as a CSS `url(`.
 */
function promisesTable(promises: readonly PromiseCoverage[]): string {
  const words = (text: string) => h(text).replace(/\(/g, '&#40;')
  const rows = promisesInOrder(promises).map((p) => {
    const state = p.failed ? 'fail' : p.requests ? 'pass' : 'none'
    return `<tr><th scope="row" class="mono">${h(p.id)}</th><td><span class="muted">${h(p.source.where)}</span><br>${words(p.source.words)}</td><td class="num ${state}">${p.requests}${p.failed ? ` (${p.failed} failed)` : ''}</td><td>${h(p.checks.join(', ')) || '<span class="muted">–</span>'}</td><td>${h(p.reason ?? '')}</td></tr>`
  })
  return `<p>${h(promisesLine(promises))}.</p>
<div class="scroll"><table><thead><tr><th>promise</th><th>source</th><th>requests</th><th>checks</th><th>not exercised because</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`
}

function failureDetails(f: Failure & { times: number }): string {
  const first = headline(f.problems[0])
  const more = f.times > 1 ? `, and ${f.times - 1} more like it` : ''
  return `<details class="failure"><summary><span class="check">✗ ${h(f.check)}</span> — <strong>${h(f.operationId)}</strong> <span class="muted">(${h(f.layer)}: ${h(f.title)})${h(more)}</span><span class="first">${h(first)}</span></summary>
<div class="body"><dl class="failure">
<dt>problems</dt><dd><ul class="problems">${f.problems.map((p) => `<li>${h(p)}</li>`).join('')}</ul></dd>
<dt>request</dt><dd><pre>${h(f.request)}</pre></dd>
<dt>answer</dt><dd><pre>${h(f.answer)}</pre></dd>
<dt>document</dt><dd><pre>${h(f.document)}</pre></dd>
<dt>replay</dt><dd><pre>${h(f.replay)}</pre></dd>
</dl></div></details>`
}

/** The HTML report (--html): one page, everything inline, every text from the run escaped. */
export const htmlReporter: Reporter = { render: htmlReport }

function htmlReport(context: ReportedRun): string {
  const { results, coverage, title, met } = context
  const failures = results.distinctFailures()
  const failed = results.failed || !met
  const checks = [...results.selected]
  const fact = (label: string, value: string, bad = false) =>
    `<div><dt>${h(label)}</dt><dd${bad ? ' class="bad"' : ''}>${h(value)}</dd></div>`
  const minimum = context.minCoverage
  const gate =
    minimum === undefined
      ? ''
      : `<p class="gate${met ? '' : ' bad'}">${met ? '✓' : '✗'} coverage ${h(formatPercent(coverage.percent))} ${met ? 'reaches' : 'is below'} the minimum of ${h(String(minimum))}%</p>`
  const marker =
    minimum === undefined ? '' : `<i style="left:calc(${Math.min(100, Math.max(0, minimum))}% - 1px)"></i>`
  const stopped = results.stopped.length
    ? `<div class="stopped"><strong>Could not go on:</strong><ul class="plain">${results.stopped.map((s) => `<li><strong>${h(s.layer)}</strong>: ${h(s.reason)}</li>`).join('')}</ul></div>`
    : ''
  const sections = [
    ['checks', 'Checks'],
    ['coverage', 'Coverage'],
    ...(coverage.promises ? [['promises', 'Promises']] : []),
    ...(failures.length ? [['failures', `Failures (${failures.length})`]] : []),
    ...(results.warnings.length ? [['warnings', `Warnings (${results.warnings.length})`]] : []),
    ...(results.notes.length ? [['notes', `Notes (${results.notes.length})`]] : []),
  ]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="summary ${failed ? 'failed' : 'passed'}">
<h1>${h(title)}</h1>
<p class="verdict">${failed ? '✗' : '✓'} ${h(results.verdict())}</p>
<dl class="facts">
${fact('coverage', formatPercent(coverage.percent), !met)}
${fact('failures', failures.length ? `${failures.length} distinct` : '0', failures.length > 0)}
${fact('answers failed', String(results.failures.length), results.failures.length > 0)}
${fact('requests', String(results.requests))}
${fact('duration', `${(context.durationMs / 1000).toFixed(1)} s`)}
${context.recording === undefined ? fact('waited for rate limits', `${(results.waitedMs / 1000).toFixed(1)} s`) : ''}
${context.recording === undefined ? fact('seed', String(results.seed)) : fact('recording', context.recording)}
${fact('warnings', String(results.warnings.length))}
</dl>
<div class="bar" title="coverage ${h(formatPercent(coverage.percent))}"><span style="width:${Math.min(100, coverage.percent)}%"></span>${marker}</div>
${gate}
${stopped}
<nav>${sections.map(([id, label]) => `<a href="#${id}">${h(label ?? '')}</a>`).join('')}</nav>
</header>
<section id="checks"><h2>Checks by operation</h2>
${matrix(coverage, checks, (check) => results.description(check))}
</section>
<section id="coverage"><h2>Coverage: ${h(formatPercent(coverage.percent))}</h2>
${coverageTable(coverage)}
</section>
${coverage.promises ? `<section id="promises"><h2>Promises</h2>\n${promisesTable(coverage.promises)}\n</section>` : ''}
${failures.length ? `<section id="failures"><h2>Failures</h2>\n<p class="muted">One per operation, check and first problem; open one for its request, answer, what the document says and the command that replays it.</p>\n${failures.map(failureDetails).join('\n')}\n</section>` : ''}
${results.warnings.length ? `<section id="warnings"><h2>Warnings</h2>\n<p class="muted">Allowed by the document, and worth knowing; never a failure.</p>\n<ul class="plain">${results.warnings.map((w) => `<li class="warning">${h(w)}</li>`).join('')}</ul>\n</section>` : ''}
${results.notes.length ? `<section id="notes"><h2>Notes</h2>\n<ul class="plain">${results.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>\n</section>` : ''}
<footer>plant-store-verify · ${context.recording === undefined ? `seed ${h(String(results.seed))}` : `replay of ${h(context.recording)}`} · started ${h(new Date(results.startedAt).toISOString())}</footer>
</body>
</html>
`
}
