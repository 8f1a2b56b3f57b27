// One bounded autocannon load against one target, with latencies kept to the microsecond: autocannon's own
// histogram rounds to whole milliseconds, too coarse for answers that take one or two.
import autocannon, { type RequestEntry } from 'autocannon'
import { cpuTimeMs, machineTicks } from './metrics.js'

export interface LoadOptions {
  url: string
  connections: number
  /** Seconds. */
  duration: number
  requests: RequestEntry[]
  /** The process under load, whose CPU time is measured. */
  pid: number
  /** A fixed offered load in requests/s; unset, each connection sends as soon as it has its answer. */
  rate?: number
}

export interface LoadResult {
  /** Answered requests (any status) per second over the measured time. */
  rps: number
  requests: number
  seconds: number
  non2xx: number
  /** Connection errors and timeouts. */
  errors: number
  statusCodes: Record<string, number>
  /** Response times of 2xx answers, in ms, unsorted. */
  latencies: Float64Array
  /** CPU time the target used during the load, ms: per request, it varies less than req/s on a busy box. */
  targetCpuMs: number
  /** Share of one core the load generator (this process) used: near 1 means it may be the limit. */
  clientCpuShare: number
  /** Share of the machine's CPU time the hypervisor gave to other guests (steal): the noise it adds. */
  stealShare: number
}

// A cap no loopback run reaches, so the request count is bounded as well as the time.
const MAX_RPS = 200_000

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(Math.ceil(options.duration + 2) * MAX_RPS)
  let recorded = 0
  const cpuBefore = cpuTimeMs(options.pid) ?? Number.NaN
  const clientBefore = process.cpuUsage()
  const ticksBefore = machineTicks()
  const wallBefore = performance.now()
  return new Promise((resolve, reject) => {
    let watchdog: NodeJS.Timeout | undefined
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.duration,
        maxOverallRequests: Math.ceil(options.duration * MAX_RPS),
        timeout: 10,
        ...(options.rate ? { overallRate: options.rate } : {}),
        requests: options.requests,
      },
      (error, result) => {
        clearTimeout(watchdog)
        if (error) return reject(error)
        const client = process.cpuUsage(clientBefore)
        const ticksAfter = machineTicks()
        const statusCodes = Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
        )
        resolve({
          rps: result.requests.total / result.duration,
          requests: result.requests.total,
          seconds: result.duration,
          non2xx: result.non2xx,
          errors: result.errors,
          statusCodes,
          latencies: latencies.slice(0, recorded),
          targetCpuMs: (cpuTimeMs(options.pid) ?? Number.NaN) - cpuBefore,
          clientCpuShare: (client.user + client.system) / 1000 / (performance.now() - wallBefore),
          stealShare: (ticksAfter.steal - ticksBefore.steal) / (ticksAfter.total - ticksBefore.total || 1),
        })
      },
    )
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300 && recorded < latencies.length) {
        latencies[recorded++] = responseTimeMs
      }
    })
    // autocannon stops by itself; this only guards against a run that never ends.
    watchdog = setTimeout(() => instance.stop(), (options.duration + 15) * 1000)
  })
}

export interface LatencySummary {
  p50: number
  p99: number
  mean: number
}

/** Percentiles over all rounds' samples together. */
export function summarize(samples: Float64Array[]): LatencySummary {
  const all = new Float64Array(samples.reduce((n, s) => n + s.length, 0))
  let at = 0
  for (const s of samples) {
    all.set(s, at)
    at += s.length
  }
  all.sort()
  if (all.length === 0) return { p50: Number.NaN, p99: Number.NaN, mean: Number.NaN }
  const pick = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))] ?? Number.NaN
  return { p50: pick(0.5), p99: pick(0.99), mean: all.reduce((a, b) => a + b, 0) / all.length }
}

/** Loads run at the same time on several instances, as one: rates and counts add up, latencies pool. */
export function mergeLoads(results: LoadResult[]): LoadResult {
  const [first, ...rest] = results
  if (!first) throw new Error('mergeLoads: no results')
  if (rest.length === 0) return first
  const sum = (f: (r: LoadResult) => number) => results.reduce((n, r) => n + f(r), 0)
  const statusCodes: Record<string, number> = {}
  for (const r of results)
    for (const [code, count] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count
  const latencies = new Float64Array(sum((r) => r.latencies.length))
  let at = 0
  for (const r of results) {
    latencies.set(r.latencies, at)
    at += r.latencies.length
  }
  return {
    rps: sum((r) => r.rps),
    requests: sum((r) => r.requests),
    seconds: Math.max(...results.map((r) => r.seconds)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    statusCodes,
    latencies,
    targetCpuMs: sum((r) => r.targetCpuMs),
    clientCpuShare: sum((r) => r.clientCpuShare),
    stealShare: sum((r) => r.stealShare) / results.length,
  }
}
