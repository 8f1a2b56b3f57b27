// Runs a scenario: each target loaded in turn, round after round, so that noise on the machine hits
// them alike, in an order that changes each round so that no target always follows the same one
// (roundOrder); then one row of figures per target, medians over the rounds.
import type { RequestEntry } from 'autocannon'
import type { Started } from '../scripts/lib/processes.js'
import { type LoadResult, mergeLoads, runLoad, summarize } from './load.js'
import { peakRss, resetPeakRss, residentParts } from './metrics.js'
import { median, pairedMedian, type Row } from './report.js'

export interface Target {
  name: string
  process: Started
  /** Further instances that share the load with `process` (behind a load balancer, in effect). */
  also?: Started[]
  requests: () => RequestEntry[]
}

export interface Scenario {
  name: string
  /** The baseline first: the rows' order; the first round starts with it (roundOrder). */
  targets: Target[]
}

export interface LoadSettings {
  rounds: number
  /** Seconds of measured load per target per round. */
  duration: number
  /** Seconds of unmeasured load before a target's first round, so the JIT has settled. */
  warmup: number
  connections: number
  /** A fixed offered load in req/s; unset, saturation. */
  rate: number | undefined
}

/**
 * Round `round`'s order (from 1), by a Williams design: each target is loaded in each place, and right
 * after each other target, equally often: once each over as many rounds as there are targets, or
 * twice over twice as many when they are odd in number. In one fixed order a target always follows
 * the same one, and what that one leaves behind (its load's last answers, its connections closing, a
 * collection, a store's checkpoint) lands on its load, round after round: a bias the median over
 * rounds keeps. The first round starts with the first target.
 */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  const k = targets.length
  if (k === 0) return []
  // 0, 1, k-1, 2, k-2, …: the first row, whose neighbours differ by 1, -2, 3, -4, … (mod k), each once.
  const first = Array.from({ length: k }, (_, j) => (j % 2 === 1 ? (j + 1) / 2 : (k - j / 2) % k))
  const i = (round - 1) % (k % 2 === 0 ? k : 2 * k)
  const row = first.map((j) => targets[(j + i) % k] as T)
  // With an odd number of targets, the second half of the rows are the first half's reversed.
  return i < k ? row : row.reverse()
}

export async function runScenario(scenario: Scenario, settings: LoadSettings): Promise<Row[]> {
  // Several instances: the connections (and a fixed rate) split evenly among them, loaded at once.
  const load = async (target: Target, duration: number) => {
    const instances = [target.process, ...(target.also ?? [])]
    const results = await Promise.all(
      instances.map((instance) =>
        runLoad({
          url: instance.url,
          connections: Math.max(1, Math.round(settings.connections / instances.length)),
          duration,
          requests: target.requests(),
          pid: instance.pid,
          rate: settings.rate === undefined ? undefined : settings.rate / instances.length,
        }),
      ),
    )
    return mergeLoads(results)
  }
  const resets = scenario.targets.map((t) => resetPeakRss(t.process.pid))
  if (settings.warmup > 0) for (const target of scenario.targets) await load(target, settings.warmup)
  const runs = new Map<Target, LoadResult[]>(scenario.targets.map((t) => [t, []]))
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of roundOrder(scenario.targets, round)) {
      const result = await load(target, settings.duration)
      for (const instance of [target.process, ...(target.also ?? [])]) {
        const ended = instance.exit()
        if (ended !== undefined) throw new Error(`${instance.name} ended during ${scenario.name} (${ended})`)
      }
      runs.get(target)?.push(result)
      console.error(
        `  ${scenario.name} · ${target.name} · round ${round}: ${result.rps.toFixed(0)} req/s` +
          (result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''),
      )
    }
  }
  const rows = scenario.targets.map((target, i) =>
    rowOf(scenario.name, target, runs.get(target) ?? [], resets[i]),
  )
  // Each round's ratio to the baseline's in the same round: loaded within seconds, they share its noise.
  const base = rows[0]
  if (base) {
    for (const row of rows.slice(1)) {
      row.ratio = pairedMedian(row, base, (a, b) => a.rps / b.rps)
      row.cpuRatio = pairedMedian(row, base, (a, b) => a.cpuUs / b.cpuUs)
    }
  }
  return rows
}

function rowOf(scenario: string, target: Target, results: LoadResult[], peakWasReset = false): Row {
  const rounds = results.map((r) => ({
    rps: r.rps,
    latency: summarize([r.latencies]),
    cpuUs: (r.targetCpuMs * 1000) / (r.requests || 1),
  }))
  const statusCodes: Record<string, number> = {}
  for (const r of results) {
    for (const [code, count] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count
  }
  return {
    scenario,
    target: target.name,
    rounds,
    rps: median(rounds.map((r) => r.rps)),
    latency: {
      p50: median(rounds.map((r) => r.latency.p50)),
      p99: median(rounds.map((r) => r.latency.p99)),
      mean: median(rounds.map((r) => r.latency.mean)),
    },
    pooledLatency: summarize(results.map((r) => r.latencies)),
    errors: results.reduce((n, r) => n + r.errors, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    statusCodes,
    peakRss: peakRss(target.process.pid),
    resident: residentParts(target.process.pid),
    // The median of the rounds', as the ratio to the baseline is a median of the rounds' ratios.
    cpuUsPerRequest: median(rounds.map((r) => r.cpuUs)),
    clientCpuShare: results.reduce((n, r) => n + r.clientCpuShare, 0) / (results.length || 1),
    stealShare: results.reduce((n, r) => n + r.stealShare, 0) / (results.length || 1),
    ...(peakWasReset ? {} : { peakRssIsLifetime: true }),
  }
}
