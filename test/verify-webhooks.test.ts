// The verifier judges webhooks too: the kit's real server, told to send both principals' newPlant
// events to the verifier's receiver, passes webhook_conformance with events judged; one that signs with
// another secret, or sends no events at all, fails it.

import { type Results, verify } from '@plant-store/verify'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { loadDocument } from '../contracts/lib/document.js'
import { tokenScopes, WebhookReceiver } from '../contracts/verify/webhook-receiver.js'
import * as commands from '../scripts/lib/commands.js'
import { freePort, type Started, startProcess } from '../scripts/lib/processes.js'
import { signer } from '../src/server/webhooks/signing.js'

const SECRET = `whsec_${Buffer.from('the verifier test secret, 32 b..').toString('base64')}`
const OTHER_SECRET = `whsec_${Buffer.from('another secret entirely, 32 b...').toString('base64')}`
const tokens = ['hooks-token-a', 'hooks-token-b'] as const
const SMALL = { requests: 300, sequences: 30, seed: 20261125 }

const started: Started[] = []
afterAll(async () => {
  await Promise.allSettled(started.map((p) => p.stop()))
})

async function server(env: Record<string, string>): Promise<Started> {
  const target = await startProcess(
    commands.server({
      env: {
        AUTH_TOKENS: `a:${tokens[0]},b:${tokens[1]}`,
        NODE_ENV: 'test',
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_RETRY_BASE_MS: '50',
        WEBHOOK_RETRY_MAX_MS: '200',
        ...commands.generousLimits,
        ...env,
      },
    }),
  )
  started.push(target)
  return target
}

const endpoints = (port: number) => `a=http://127.0.0.1:${port}/a,b=http://127.0.0.1:${port}/b`

const sign = signer([SECRET])
/** A delivery's headers, signed now with SECRET as the server signs its own. */
const delivery = (id: string, body: string) => ({ 'content-type': 'application/json', ...sign(id, body) })

const webhookRow = (results: Results) =>
  results.rows().find((row) => row.operationId === 'newPlant' && row.check === 'webhook_conformance')

const summary = (results: Results) =>
  results
    .distinctFailures()
    .map((f) => results.failureText(f))
    .join('\n\n')

describe('the verifier, judging the newPlant webhook', () => {
  it('passes the real server sending both principals’ events to its receiver, each event judged', async () => {
    const port = await freePort()
    const target = await server({ WEBHOOK_ENDPOINTS: endpoints(port), WEBHOOK_SECRET: SECRET })
    let receiverUrl = ''
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      webhook: { port, secret: SECRET, waitMs: 60_000 },
      onWebhookReceiver: (url) => {
        receiverUrl = url
      },
    })
    expect(results.failures.length, summary(results)).toBe(0)
    expect(receiverUrl).toBe(`http://127.0.0.1:${port}/`)
    const row = webhookRow(results)
    console.log(results.notes.find((note) => note.includes('webhook receiver')))
    expect(row?.passed, summary(results)).toBeGreaterThan(0)
    expect(row?.failed).toBe(0)
    await target.stop()
  }, 240_000)

  it('fails webhook_conformance for a server that signs with another secret', async () => {
    const port = await freePort()
    const target = await server({ WEBHOOK_ENDPOINTS: endpoints(port), WEBHOOK_SECRET: OTHER_SECRET })
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples', 'security'],
      webhook: { port, secret: SECRET, waitMs: 60_000 },
    })
    const failed = results.failures.filter((f) => f.check === 'webhook_conformance')
    expect(failed.length, summary(results)).toBeGreaterThan(0)
    expect(failed.every((f) => f.problems.some((p) => /signature does not verify/.test(p)))).toBe(true)
    // Only the events departed: every answer of the server still agreed with the document.
    expect(results.failures.filter((f) => f.check !== 'webhook_conformance')).toEqual([])
    await target.stop()
  }, 240_000)

  it('fails webhook_conformance for a signed, valid event that no create of the run announced, naming its id', async () => {
    const port = await freePort()
    const target = await server({ WEBHOOK_ENDPOINTS: endpoints(port), WEBHOOK_SECRET: SECRET })
    // Beyond 2^53: a double would make it ...804, a plant the run might have created.
    const stray = '9223372036854775806'
    let sent: Promise<number> | undefined
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples'],
      webhook: { port, secret: SECRET, waitMs: 60_000 },
      onWebhookReceiver: (url) => {
        const body = `{"id":${stray},"name":"Stray"}`
        sent = fetch(url, { method: 'POST', headers: delivery('msg_stray', body), body }).then(
          (response) => response.status,
        )
      },
    })
    expect(await sent).toBe(200)
    const failed = results.failures.filter((f) => f.check === 'webhook_conformance')
    expect(
      failed.map((f) => f.problems),
      summary(results),
    ).toEqual([[`event: an event for plant ${stray}, which no create of the run answered 200`]])
    expect(webhookRow(results)?.passed).toBeGreaterThan(0)
    await target.stop()
  }, 240_000)

  it('fails webhook_conformance, one failure per create, for a server that sends no events', async () => {
    const port = await freePort()
    const target = await server({})
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples'],
      // Nothing will come: the wait is the bound itself.
      webhook: { port, secret: SECRET, waitMs: 1_000 },
    })
    const failed = results.failures.filter((f) => f.check === 'webhook_conformance')
    expect(failed.length, summary(results)).toBeGreaterThan(0)
    expect(failed.every((f) => f.problems.some((p) => /no event within the wait/.test(p)))).toBe(true)
    expect(webhookRow(results)?.passed ?? 0).toBe(0)
    await target.stop()
  }, 240_000)

  it('judges an event’s timestamp by when it arrived, not by when a long run ends', async () => {
    const receiver = await WebhookReceiver.start(
      { port: 0, secret: SECRET },
      await loadDocument(),
      tokenScopes([]),
    )
    try {
      const body = '{"id":9007199254740993,"name":"Oak"}'
      const answer = await fetch(`${receiver.url}hooks`, {
        method: 'POST',
        headers: delivery('msg_early', body),
        body,
      })
      expect(answer.status).toBe(200)
      // Judged ten minutes later, past the five minutes' tolerance: the event was in time when it came.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 })
      const problems = receiver.judge().flatMap((finding) => finding.problems)
      expect(problems).toEqual([
        'an event for plant 9007199254740993, which no create of the run answered 200',
      ])
    } finally {
      vi.useRealTimers()
      await receiver.close()
    }
  })
})
