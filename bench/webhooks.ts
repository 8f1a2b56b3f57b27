// The newPlant webhook's delay: probe creates, one at a time with no other load, beside the benchmark's
// createPlant load, and beside half that load at a fixed rate, each timed from its answer to its event's
// arrival at a receiver on this machine; and how fast a backlog of events drains. The CPU cost per
// create is a scenario of run-bench.ts.
import type { RequestEntry } from 'autocannon'
import { runLoad } from './load.js'
import { median } from './report.js'

export interface DeliveryLatency {
  probes: number
  /** Probes whose event did not arrive within the wait. */
  missing: number
  /** From the create's answer to its event's arrival, ms. */
  medianMs: number
  p90Ms: number
  /** From the create's request to its event's arrival, ms. */
  medianFromRequestMs: number
}

export interface WebhookResult {
  /** Events a second while the backlog the CPU scenario left was delivered, with no create coming. */
  drainPerSecond: number
  idle: DeliveryLatency
  /** Beside the benchmark's load (saturation): creates outpace deliveries, so the delay is a queue's. */
  loaded: DeliveryLatency & { loadRps: number }
  /** Beside half the saturated rate, offered steadily. */
  halfLoad: DeliveryLatency & { loadRps: number }
  eventsReceived: number
}

// Ids far from the load's (10,000,000 up) and the stores' own: ten digits, as the receiver keeps them.
let nextProbeId = 5_000_000_000
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Probe {
  id: string
  sentAt: number
  answeredAt: number
}

async function probe(url: string, token: string): Promise<Probe> {
  const id = String(nextProbeId++)
  const sentAt = now()
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: `{"id":${id},"name":"Probe"}`,
  })
  await response.text()
  const answeredAt = now()
  if (response.status !== 200) throw new Error(`a probe create answered ${response.status}`)
  return { id, sentAt, answeredAt }
}

async function arrivals(receiver: string): Promise<{ received: number; arrivals: Record<string, number> }> {
  return (await (await fetch(receiver)).json()) as { received: number; arrivals: Record<string, number> }
}

/** Waits, within a bound, until no event has come for a second; returns the rate they came at meanwhile. */
async function drain(receiver: string, waitMs = 300_000): Promise<number> {
  const began = performance.now()
  const first = (await arrivals(receiver)).received
  let last = first
  let lastChange = performance.now()
  while (performance.now() - lastChange < 1_000 && performance.now() - began < waitMs) {
    await sleep(100)
    const count = (await arrivals(receiver)).received
    if (count !== last) {
      last = count
      lastChange = performance.now()
    }
  }
  const seconds = (lastChange - began) / 1000
  return seconds > 0 ? (last - first) / seconds : 0
}

/** Probes spread over a load of `duration` seconds, one at a time; the load's rate and their latencies. */
async function underLoad(
  options: MeasureOptions,
  rate: number | undefined,
): Promise<DeliveryLatency & { loadRps: number }> {
  const loading = runLoad({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    requests: options.load,
    pid: options.pid,
    rate,
  })
  let done = false
  void loading.finally(() => {
    done = true
  })
  const gap = Math.max(10, (options.duration * 1000) / options.probes)
  const probes: Probe[] = []
  // Bounded by the count too: a load that ends early ends the probes.
  while (!done && probes.length < options.probes * 2) {
    probes.push(await probe(options.url, options.token))
    await sleep(gap)
  }
  const load = await loading
  return { ...(await latencies(options.receiver, probes)), loadRps: load.rps }
}

/** Waits, within a bound, for every probe's event; then the latencies of those that came. */
async function latencies(receiver: string, probes: Probe[], waitMs = 60_000): Promise<DeliveryLatency> {
  const deadline = Date.now() + waitMs
  let seen = await arrivals(receiver)
  while (probes.some((p) => seen.arrivals[p.id] === undefined) && Date.now() < deadline) {
    await sleep(50)
    seen = await arrivals(receiver)
  }
  const came = probes.filter((p) => seen.arrivals[p.id] !== undefined)
  const fromAnswer = came.map((p) => (seen.arrivals[p.id] as number) - p.answeredAt).sort((a, b) => a - b)
  const fromRequest = came.map((p) => (seen.arrivals[p.id] as number) - p.sentAt)
  return {
    probes: probes.length,
    missing: probes.length - came.length,
    medianMs: median(fromAnswer),
    p90Ms: fromAnswer[Math.min(fromAnswer.length - 1, Math.floor(fromAnswer.length * 0.9))] ?? Number.NaN,
    medianFromRequestMs: median(fromRequest),
  }
}

interface MeasureOptions {
  url: string
  pid: number
  receiver: string
  token: string
  load: RequestEntry[]
  connections: number
  duration: number
  probes: number
}

export async function measureDelivery(options: MeasureOptions): Promise<WebhookResult> {
  const { url, receiver, token } = options
  // The CPU scenario's creates outpace their delivery: its backlog first, or every probe waits behind it.
  const drainPerSecond = await drain(receiver)
  // With no load: the floor, the worker's own reaction to a commit.
  const idleProbes: Probe[] = []
  for (let i = 0; i < options.probes; i++) {
    idleProbes.push(await probe(url, token))
    await sleep(10)
  }
  const idle = await latencies(receiver, idleProbes)
  const loaded = await underLoad(options, undefined)
  await drain(receiver)
  const halfLoad = await underLoad(options, loaded.loadRps / 2)
  const { received } = await arrivals(receiver)
  return { drainPerSecond, idle, loaded, halfLoad, eventsReceived: received }
}
