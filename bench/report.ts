// Turns measured rows into the Markdown tables printed on stdout (and pasted into bench/README.md); the
// JSON report holds the same data in full.
import type { LatencySummary } from './load.js'

export interface Round {
  rps: number
  latency: LatencySummary
  /** CPU time of the target per answered request in this round, µs. */
  cpuUs: number
}

export interface Row {
  scenario: string
  target: string
  /** Each round's figures, in the order they ran; round i of every target ran back to back. */
  rounds: Round[]
  /** Median of the rounds' requests/s: a round that other work on the machine disturbed does not count. */
  rps: number
  /** Median over rounds of rps / the baseline's rps in the same round: neighbours in time share the noise. */
  ratio?: number
  /** Median over rounds of CPU µs per request / the baseline's in the same round. */
  cpuRatio?: number
  /** Medians of the rounds' p50, p99 and mean. */
  latency: LatencySummary
  /** Percentiles over all rounds' answers together (a disturbed round weighs in fully). */
  pooledLatency: LatencySummary
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  /** Peak RSS of the target process during this scenario, bytes (lifetime peak when it cannot be reset). */
  peakRss?: number
  /** Resident memory at the scenario's end by what holds it (metrics.ts residentParts), bytes. */
  resident?: { anon: number; file: number }
  /** CPU time of the target process per answered request, µs: the median of its rounds'. */
  cpuUsPerRequest: number
  /** Mean share of a core the load generator used. */
  clientCpuShare: number
  /** Mean share of the machine's CPU stolen by the hypervisor during this target's rounds. */
  stealShare: number
  /** True when the peak could not be reset before the scenario: it is then the process's lifetime peak. */
  peakRssIsLifetime?: boolean
}

export interface Growth {
  scenario: string
  small: LatencySummary
  large: LatencySummary
  /** Median over rounds of large / small, for each of p50, p99 and mean. */
  ratio: LatencySummary
}

/** `values` but NaN, in ascending order. */
const ascending = (values: number[]) => values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)

export function median(values: number[]): number {
  const sorted = ascending(values)
  if (sorted.length === 0) return Number.NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/** The middle half of `values`: their first and third quartiles (nearest rank). */
export function middleHalf(values: number[]): [number, number] {
  const sorted = ascending(values)
  const rank = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
  return [rank(0.25), rank(0.75)]
}

/** f(a's round i, b's round i) for each round both ran. */
export function paired(a: Row, b: Row, f: (a: Round, b: Round) => number): number[] {
  return a.rounds.flatMap((round, i) => (b.rounds[i] ? [f(round, b.rounds[i])] : []))
}

/** Median over rounds of f(a's round i, b's round i). */
export function pairedMedian(a: Row, b: Row, f: (a: Round, b: Round) => number): number {
  return median(paired(a, b, f))
}

/** How latency grew from the small store (a) to the large one (b), round by round. */
export function growthOf(scenario: string, a: Row, b: Row): Growth {
  const ratio = (k: 'p50' | 'p99' | 'mean') => pairedMedian(b, a, (x, y) => x.latency[k] / y.latency[k])
  return {
    scenario,
    small: a.latency,
    large: b.latency,
    ratio: { p50: ratio('p50'), p99: ratio('p99'), mean: ratio('mean') },
  }
}

const fixed = (n: number | undefined, digits: number) =>
  n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits)
/** A share (0 to 1) in whole percent, as the steal column rounds it. */
const wholePercent = (share: number) => Number((share * 100).toFixed(0))
/** A share as the steal column prints it, which the not-quiet notice quotes. */
const percent = (share: number) => `${wholePercent(share)}%`
const mib = (bytes: number | undefined) => (bytes === undefined ? '–' : `${(bytes / 2 ** 20).toFixed(0)} MiB`)

// The range of the rounds' req/s, as min–max: how much the machine disturbed them.
function range(rounds: Round[]): string {
  if (rounds.length < 2) return '–'
  const values = rounds.map((r) => r.rps)
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  // The separator row as Biome formats Markdown, so a table pasted into bench/README.md stays as printed.
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export function resultsTable(rows: Row[]): string {
  return table(
    [
      'scenario',
      'target',
      'req/s',
      'rounds min–max',
      'vs baseline',
      'CPU µs/req',
      'CPU vs baseline',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'steal',
      'errors',
      'non-2xx',
      'peak RSS',
      'RSS anon + file',
    ],
    rows.map((r) => [
      r.scenario,
      r.target,
      r.rps.toFixed(0),
      range(r.rounds),
      r.ratio === undefined ? '–' : `${r.ratio.toFixed(2)}x`,
      fixed(r.cpuUsPerRequest, 0),
      r.cpuRatio === undefined ? '–' : `${r.cpuRatio.toFixed(2)}x`,
      fixed(r.latency.p50, 2),
      fixed(r.latency.p99, 2),
      fixed(r.latency.mean, 2),
      percent(r.stealShare),
      String(r.errors),
      String(r.non2xx),
      mib(r.peakRss),
      r.resident ? `${mib(r.resident.anon)} + ${mib(r.resident.file)}` : '–',
    ]),
  )
}

/** Steal above this share in any target's rounds makes a run not a quiet one (bench/README.md, Targets). */
export const QUIET_STEAL = 0.05

/**
 * What a run's steal says of its ratios, when some target's rounds lost more than QUIET_STEAL of the
 * machine to other virtual machines: other tenants also evict the caches and slow each request beyond
 * the time taken, and unevenly from round to round, so such a run's ratios are not comparable to a quiet
 * run's. Undefined for a quiet run.
 */
export function stealNotice(rows: Row[]): string | undefined {
  const worst = rows.reduce<Row | undefined>((a, r) => (a && a.stealShare >= r.stealShare ? a : r), undefined)
  // Judged as the column prints it: a share that reads 5% is a quiet run's, whatever its decimals.
  if (!worst || !(wholePercent(worst.stealShare) > wholePercent(QUIET_STEAL))) return undefined
  return (
    `Not a quiet run: other virtual machines took up to ${percent(worst.stealShare)} of this machine's CPU ` +
    `(steal, in ${worst.scenario} · ${worst.target}), above the ${percent(QUIET_STEAL)} of a quiet run. Its ratios ` +
    "are not comparable to a quiet run's, on which the targets are stated (bench/README.md): run it again when the steal column stays low."
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
