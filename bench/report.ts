// Turns measured rows into the Markdown tables printed on stdout (and pasted into the README) and checks
// them against the targets; the JSON report holds the same data in full.
import type { LatencySummary } from './load.js'

export interface Row {
  scenario: string
  target: string
  rps: number
  /** Per-round requests/s, to show how much the rounds disagree. */
  roundsRps: number[]
  /** rps / the baseline's rps in the same scenario. */
  ratio?: number
  latency: LatencySummary
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  /** Peak RSS of the target process during this scenario, bytes (lifetime peak when it cannot be reset). */
  peakRss?: number
  /** CPU time of the target process per answered request, µs. */
  cpuUsPerRequest: number
  /** Mean share of a core the load generator used. */
  clientCpuShare: number
  /** True when the peak could not be reset before the scenario: it is then the process's lifetime peak. */
  peakRssIsLifetime?: boolean
}

export interface Growth {
  scenario: string
  small: LatencySummary
  large: LatencySummary
  /** large / small, for each of p50, p99 and mean. */
  ratio: LatencySummary
}

export interface TargetCheck {
  target: string
  figure: string
  met: boolean
}

const fixed = (n: number | undefined, digits: number) =>
  n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits)
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${(bytes / 2 ** 20).toFixed(0)} MB`)

function spread(values: number[]): string {
  if (values.length < 2) return '–'
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return `±${(((Math.max(...values) - Math.min(...values)) / 2 / mean) * 100).toFixed(0)}%`
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}

export function resultsTable(rows: Row[]): string {
  return table(
    [
      'scenario',
      'target',
      'req/s',
      'rounds',
      'vs baseline',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'errors',
      'non-2xx',
      'peak RSS',
    ],
    rows.map((r) => [
      r.scenario,
      r.target,
      r.rps.toFixed(0),
      spread(r.roundsRps),
      r.ratio === undefined ? '–' : `${r.ratio.toFixed(2)}x`,
      fixed(r.latency.p50, 2),
      fixed(r.latency.p99, 2),
      fixed(r.latency.mean, 2),
      fixed(r.cpuUsPerRequest, 0),
      String(r.errors),
      String(r.non2xx),
      mb(r.peakRss),
    ]),
  )
}

export function growthTable(growth: Growth[], small: number, large: number): string {
  const n = (count: number) => count.toLocaleString('en-US')
  return table(
    [
      'scenario',
      `p50 ms ${n(small)}`,
      `p50 ms ${n(large)}`,
      `p99 ms ${n(small)}`,
      `p99 ms ${n(large)}`,
      'mean ratio',
      'p50 ratio',
      'p99 ratio',
    ],
    growth.map((g) => [
      g.scenario,
      fixed(g.small.p50, 2),
      fixed(g.large.p50, 2),
      fixed(g.small.p99, 2),
      fixed(g.large.p99, 2),
      `${fixed(g.ratio.mean, 2)}x`,
      `${fixed(g.ratio.p50, 2)}x`,
      `${fixed(g.ratio.p99, 2)}x`,
    ]),
  )
}

export function targetsTable(checks: TargetCheck[]): string {
  return table(
    ['target', 'measured', ''],
    checks.map((c) => [c.target, c.figure, c.met ? 'met' : 'MISSED']),
  )
}
