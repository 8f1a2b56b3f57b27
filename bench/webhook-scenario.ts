// The newPlant webhook's scenario: createPlant with a subscription against one without (delivery in
// the same process, and stored for another instance to send), the sending instance's CPU per event,
// and the delay from a create's answer to its event at a receiver on this machine.
import { join } from 'node:path'
import * as commands from '../scripts/lib/commands.js'
import { repoRoot as root, type Started, type StartOptions } from '../scripts/lib/processes.js'
import { cpuTimeMs } from './metrics.js'
import type { Row } from './report.js'
import { createPlant } from './requests.js'
import { type LoadSettings, runScenario } from './scenarios.js'
import { measureDelivery, type WebhookResult } from './webhooks.js'

/** createPlant's offered rate for the webhook's CPU comparison, req/s. */
export const WEBHOOK_CPU_RATE = 1_000

export interface WebhookScenarioOptions {
  settings: LoadSettings & { quick: boolean }
  dir: string
  writer: string
  writerPrincipal: string
  startServer: (databaseUrl: string, store: string, env: Record<string, string>) => Promise<Started>
  startOther: (options: StartOptions) => Promise<Started>
}

export interface WebhookScenario {
  rows: Row[]
  delivery: WebhookResult
  sendingCpuUsPerEvent: number
}

/** Events a bench receiver took at one path so far. */
async function receivedAt(receiver: string, path: string): Promise<number> {
  const seen = (await (await fetch(receiver)).json()) as { byPath: Record<string, number> }
  return seen.byPath[path] ?? 0
}

export async function runWebhookScenario({
  settings,
  dir,
  writer,
  writerPrincipal,
  startServer,
  startOther,
}: WebhookScenarioOptions): Promise<WebhookScenario> {
  console.error('  webhooks: createPlant with a newPlant subscription against one without, then the delay')
  const receiver = await startOther({
    name: 'webhook receiver',
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'bench', 'webhook-receiver.ts')],
    listening: commands.serverListening,
  })
  // All fresh, so that no store has grown more than another's.
  const secret = `whsec_${Buffer.from('the benchmark secret, 32 bytes..').toString('base64')}`
  const hooks = (path: string, more: Record<string, string> = {}) => ({
    WEBHOOK_ENDPOINTS: `${writerPrincipal}=${receiver.url}${path}`,
    WEBHOOK_SECRET: secret,
    // Saturating load may create faster than events go out: measured as delay, not refused with 503.
    WEBHOOK_MAX_PENDING: '100000000',
    ...more,
  })
  const plain = await startServer(`sqlite:${join(dir, 'hooks-off.db')}`, 'webhooks off', {})
  const hooked = await startServer(`sqlite:${join(dir, 'hooks-on.db')}`, 'webhooks on', hooks('/hooks'))
  // The create's own cost apart from its delivery's: an instance that stores events and one on the
  // same file that sends them, polling often so that they do not wait.
  const split = `sqlite:${join(dir, 'hooks-split.db')}`
  const storing = await startServer(split, 'webhooks stored', hooks('/split', { WEBHOOK_DELIVERY: 'false' }))
  const sending = await startServer(split, 'webhooks sent', {
    ...hooks('/split', { WEBHOOK_POLL_MS: '20' }),
  })
  // Its CPU while idle (polls, timers) first, taken out of what it uses while sending.
  const idleFrom = [performance.now(), cpuTimeMs(sending.pid) ?? Number.NaN] as const
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  const sendingFrom = [performance.now(), cpuTimeMs(sending.pid) ?? Number.NaN] as const
  const idleCpuPerMs = (sendingFrom[1] - idleFrom[1]) / (sendingFrom[0] - idleFrom[0])
  const splitBefore = await receivedAt(receiver.url, '/split')
  const rows = await runScenario(
    {
      name: 'createPlant, newPlant webhook',
      targets: [
        { name: 'no subscription', process: plain, requests: () => createPlant(writer) },
        { name: 'subscribed, receiver here', process: hooked, requests: () => createPlant(writer) },
        {
          name: 'subscribed, sent by another',
          process: storing,
          requests: () => createPlant(writer),
        },
      ],
    },
    // At a fixed rate the worker keeps up with, so that each round's CPU holds its creates'
    // deliveries too: at saturation they would fall behind, into the next round.
    { ...settings, rate: settings.rate ?? WEBHOOK_CPU_RATE },
  )
  // The sender's CPU over the whole scenario, less its idle use over that time, per event it sent.
  const sentEvents = (await receivedAt(receiver.url, '/split')) - splitBefore
  const sendingCpuMs =
    (cpuTimeMs(sending.pid) ?? Number.NaN) -
    sendingFrom[1] -
    idleCpuPerMs * (performance.now() - sendingFrom[0])
  const sendingCpuUsPerEvent = (sendingCpuMs * 1000) / sentEvents
  await sending.stop()
  await storing.stop()
  const delivery = await measureDelivery({
    url: hooked.url,
    pid: hooked.pid,
    receiver: receiver.url,
    token: writer,
    load: createPlant(writer),
    connections: settings.connections,
    duration: settings.quick ? 0.5 : settings.duration * 3,
    probes: settings.quick ? 5 : 100,
  })
  for (const process of [plain, hooked, receiver]) await process.stop()
  return { rows, delivery, sendingCpuUsPerEvent }
}
