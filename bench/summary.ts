// The lines a full run prints after its tables: durability, start times, the in-process handlers, the
// verifier and the newPlant webhook; and the file system the stores were on.
import { readFileSync } from 'node:fs'
import type { DurabilityResult } from './durability.js'
import type { HandlersResult } from './handlers.js'
import { median, type Row } from './report.js'
import { type Starts, startRatio } from './starts.js'
import type { VerifyResult } from './verify.js'
import type { DeliveryLatency, WebhookResult } from './webhooks.js'

export function durabilityLine(durability: DurabilityResult): string {
  return (
    `Durability: ${durability.cycles} kill -9 under load; ${durability.acknowledged} plants acknowledged, ` +
    `${durability.stored} listed after restart, ${durability.missing} missing; ` +
    `${durability.unanswered} requests unanswered at the kills, ${durability.non200} other answers.`
  )
}

export function startsLine(starts: Starts, serverStarts: { store: string; ms: number }[]): string {
  const large = serverStarts.filter((s) => s.store === 'large').map((s) => s.ms)
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ')
  return (
    `Start to listening, node on a built .js file with the server's flags, alternating: the server median ` +
    `${median(starts.server).toFixed(0)} ms (${ms(starts.server)}), the baseline ${median(starts.baseline).toFixed(0)} ms ` +
    `(${ms(starts.baseline)}): ${startRatio(starts).toFixed(2)}x` +
    (large.length > 0 ? `; the server on the large store ${ms(large)} ms` : '')
  )
}

export function handlersLine(inProcess: HandlersResult): string {
  const medians = Object.entries(inProcess.medianMs).map(([name, ms]) => `${name} ${ms.toFixed(3)} ms`)
  return (
    `In-process handlers (Node, getResponse, ${inProcess.requests} creates and reads): import ` +
    `${inProcess.importMs.toFixed(0)} ms (msw's own import is most of it), then ready ` +
    `${inProcess.readyMs.toFixed(0)} ms after import (target under 200); median answer ${medians.join(', ')} ` +
    '(target under 1 ms).'
  )
}

export function verifyLine(verified: VerifyResult): string {
  return (
    `Verifier (plant-store-verify, ${verified.requests} requests against a fresh server): ` +
    `${verified.perSecond.toFixed(0)} answers judged a second, ${verified.cpuUsPerRequest.toFixed(0)} µs CPU per request; ` +
    `a bare loop of sequential requests (node:http, kept-open connections) in the same run: ${verified.baseline.perSecond.toFixed(0)} a second, ` +
    `${verified.baseline.cpuUsPerRequest.toFixed(0)} µs CPU per request (ratio ${verified.ratio.perSecond.toFixed(2)} in rate, ` +
    `${verified.ratio.cpuPerRequest.toFixed(2)} in CPU); ${verified.seconds.toFixed(1)} s in all.`
  )
}

export function webhookLine(
  webhooks: WebhookResult,
  rows: Row[],
  rate: number,
  sendingCpuUsPerEvent: number,
): string {
  const rowOf = (target: string) =>
    rows.find((r) => r.scenario === 'createPlant, newPlant webhook' && r.target === target)
  const cost = rowOf('subscribed, receiver here')
  const stored = rowOf('subscribed, sent by another')
  const { idle, loaded, halfLoad } = webhooks
  const ms = (l: DeliveryLatency) => `median ${l.medianMs.toFixed(1)} ms, p90 ${l.p90Ms.toFixed(1)} ms`
  return (
    `newPlant webhook: createPlant subscribed, CPU per request (its event's delivery included) ×${cost?.cpuRatio?.toFixed(2)} ` +
    `of the same server without a subscription (${cost?.cpuUsPerRequest?.toFixed(0)} µs), at ${rate} req/s offered; ` +
    `on an instance that stores events for another to send, ×${stored?.cpuRatio?.toFixed(2)} (${stored?.cpuUsPerRequest?.toFixed(0)} µs), ` +
    `and the sending instance ${sendingCpuUsPerEvent.toFixed(0)} µs CPU per event. ` +
    `Delivery to a receiver on this machine, from the create's ` +
    `answer to the event's arrival: ${ms(idle)} with no other load (${idle.probes} probes); ` +
    `${ms(halfLoad)} beside createPlant at a steady ${halfLoad.loadRps.toFixed(0)} req/s (${halfLoad.probes} probes); ` +
    `${ms(loaded)} beside saturating createPlant load at ${loaded.loadRps.toFixed(0)} req/s (${loaded.probes} probes), ` +
    `a queue's delay; ${webhooks.eventsReceived} events received in all.`
  )
}

/** What did not work in the run (a request that failed, a plant lost, an event never sent), if anything. */
export function failureOf({
  rows,
  durability,
  webhooks,
  verified,
}: {
  rows: Row[]
  durability?: DurabilityResult
  webhooks?: WebhookResult
  verified?: VerifyResult
}): string | undefined {
  const broken = rows.filter((r) => r.errors > 0 || r.non2xx > 0)
  if (broken.length > 0) {
    const which = broken.map(
      (r) => `${r.scenario}/${r.target} ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`,
    )
    return `requests failed: ${which.join('; ')}`
  }
  if (durability && durability.missing > 0)
    return `durability: acknowledged plants lost after kill -9, e.g. ${durability.missingSample.join(', ')}`
  if (durability?.integrity !== undefined && durability.integrity !== 'ok')
    return `durability: PRAGMA integrity_check after kill -9 says ${durability.integrity}`
  const lost = webhooks ? webhooks.idle.missing + webhooks.loaded.missing + webhooks.halfLoad.missing : 0
  if (lost > 0) return `webhooks: ${lost} probe creates' events never arrived`
  if (verified && verified.failures > 0)
    return `verify: ${verified.failures} answers departed from the document`
  if (durability && durability.acknowledged === 0)
    return 'durability: no plant was acknowledged before the kill'
  return undefined
}

// The file system of the store files: fsync costs differ wildly between a disk and tmpfs.
export function fsType(path: string): string {
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[1] !== undefined && path.startsWith(f[1]))
    .sort((a, b) => (b[1]?.length ?? 0) - (a[1]?.length ?? 0))
  const best = mounts[0]
  return best ? `${best[2]} (${best[0]} on ${best[1]})` : 'unknown'
}
