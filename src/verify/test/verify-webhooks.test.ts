// The verifier judges webhooks too: the kit's real server, told to send both principals' newPlant
// events to the verifier's receiver, passes webhook_conformance with events judged, and with the
// receiver failing a few first attempts on purpose (a 500, a redirect, an answer held back) to judge
// that each is sent again; one that signs with another secret, sends no events at all, never retries
// a failed attempt, or follows a redirect fails it.

import { type Results, verify } from '@plant-store/verify'
import { afterAll, describe, expect, it, vi } from 'vitest'
import * as commands from '../../../scripts/lib/commands.js'
import { freePort, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { signer } from '../../server/webhooks/signing.js'
import { loadDocument } from '../document.js'
import type { Answer } from '../http.js'
import { tokenScopes, WebhookReceiver } from '../webhooks/receiver.js'

const SECRET = `whsec_${Buffer.from('the verifier test secret, 32 b..').toString('base64')}`
const OTHER_SECRET = `whsec_${Buffer.from('another secret entirely, 32 b...').toString('base64')}`
const tokens = ['hooks-token-a', 'hooks-token-b'] as const
const SMALL = { requests: 300, sequences: 30, seed: 20261125 }
/**
 * The servers' delivery timeout here, short for speed (the document's is 10 s), and the receiver's
 * hold just past it, as its default is past the document's: the server's timeout ends the held attempt.
 */
const SERVER_TIMEOUT_MS = 500
const HOLD_MS = 1_000

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
        WEBHOOK_TIMEOUT_MS: String(SERVER_TIMEOUT_MS),
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
  [...results.notes, ...results.distinctFailures().map((f) => results.failureText(f))].join('\n\n')

/** The receiver's note on the attempts it failed on purpose, as counts. */
function failedOnPurpose(results: Results) {
  const note = results.notes.find((n) => n.includes('failed the first attempt of'))
  const match =
    /answered 500: (\d+); redirected: (\d+); held without an answer: (\d+)\); (\d+) of them came again/.exec(
      note ?? '',
    )
  if (!match) throw new Error(`no note on the attempts failed on purpose:\n${summary(results)}`)
  const [error, redirect, hold, retried] = match.slice(1).map(Number) as [number, number, number, number]
  return { error, redirect, hold, retried }
}

const webhookFailures = (results: Results) =>
  results.failures.filter((f) => f.check === 'webhook_conformance')

describe('the verifier, judging the newPlant webhook', () => {
  it('passes the real server sending both principals’ events to its receiver, each event judged, each attempt failed on purpose retried', async () => {
    const port = await freePort()
    const target = await server({ WEBHOOK_ENDPOINTS: endpoints(port), WEBHOOK_SECRET: SECRET })
    let receiverUrl = ''
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      webhook: { port, secret: SECRET, waitMs: 20_000, holdMs: HOLD_MS },
      onWebhookReceiver: (url) => {
        receiverUrl = url
      },
    })
    expect(results.failures.length, summary(results)).toBe(0)
    expect(receiverUrl).toBe(`http://127.0.0.1:${port}/`)
    const row = webhookRow(results)
    console.log(results.notes.filter((note) => note.includes('webhook receiver')).join('\n'))
    expect(row?.passed, summary(results)).toBeGreaterThan(0)
    expect(row?.failed).toBe(0)
    // Each treatment given at least once, and every event it failed sent again.
    const counts = failedOnPurpose(results)
    expect(counts.error).toBeGreaterThanOrEqual(1)
    expect(counts.redirect).toBe(1)
    expect(counts.hold).toBe(1)
    expect(counts.retried).toBe(counts.error + counts.redirect + counts.hold)
    await target.stop()
  }, 60_000)

  it('fails webhook_conformance for a server that never retries, naming each event failed on purpose, with a replay that carries the webhook options', async () => {
    const port = await freePort()
    const target = await server({
      WEBHOOK_ENDPOINTS: endpoints(port),
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_MAX_ATTEMPTS: '1',
    })
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples'],
      webhook: { port, secret: SECRET, waitMs: 2_000, holdMs: HOLD_MS },
    })
    const problems = webhookFailures(results).flatMap((f) => f.problems)
    const event = String.raw`event msg_[\w-]+ \(plant \d+ of principal [12]\)`
    for (const what of [
      'was held without an answer on purpose',
      'was answered 500 on purpose',
      String.raw`was redirected \(307\) on purpose`,
    ])
      expect(
        problems.some((p) =>
          new RegExp(`^${event}: its first attempt ${what}.*, and it never came again within the wait`).test(
            p,
          ),
        ),
        `${what}\n${summary(results)}`,
      ).toBe(true)
    expect(failedOnPurpose(results).retried).toBe(0)
    // Only the retries departed: every answer of the server still agreed with the document.
    expect(results.failures.filter((f) => f.check !== 'webhook_conformance')).toEqual([])
    const replay = webhookFailures(results)[0]?.replay
    expect(replay).toMatch(/^plant-store-verify --base-url http:\/\/127\.0\.0\.1:\d+ /)
    expect(replay).toContain(`--webhook-listen ${port} --webhook-secret "$VERIFY_WEBHOOK_SECRET"`)
    expect(replay).toContain('--webhook-wait 2')
    expect(replay).toContain('--webhook-hold 1')
    expect(replay).not.toContain(SECRET)
    await target.stop()
  }, 60_000)

  it('fails webhook_conformance for a server that signs with another secret', async () => {
    const port = await freePort()
    const target = await server({ WEBHOOK_ENDPOINTS: endpoints(port), WEBHOOK_SECRET: OTHER_SECRET })
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples', 'security'],
      webhook: { port, secret: SECRET, waitMs: 20_000, holdMs: HOLD_MS },
    })
    const failed = webhookFailures(results)
    expect(failed.length, summary(results)).toBeGreaterThan(0)
    expect(failed.every((f) => f.problems.some((p) => /signature does not verify/.test(p)))).toBe(true)
    // Only the events departed: every answer of the server still agreed with the document.
    expect(results.failures.filter((f) => f.check !== 'webhook_conformance')).toEqual([])
    await target.stop()
  }, 60_000)

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
      // Every attempt answered 200: the stray event, the first to come, is not held.
      webhook: { port, secret: SECRET, waitMs: 20_000, failAttempts: false },
      onWebhookReceiver: (url) => {
        const body = `{"id":${stray},"name":"Stray"}`
        sent = fetch(url, { method: 'POST', headers: delivery('msg_stray', body), body }).then(
          (response) => response.status,
        )
      },
    })
    expect(await sent).toBe(200)
    const failed = webhookFailures(results)
    expect(
      failed.map((f) => f.problems),
      summary(results),
    ).toEqual([[`an event for plant ${stray}, which no create of the run answered 200`]])
    expect(failed[0]?.replay).toContain(
      `--webhook-listen ${port} --webhook-secret "$VERIFY_WEBHOOK_SECRET" --webhook-wait 20 --webhook-no-fail-attempts`,
    )
    expect(results.notes).toContain(
      'the webhook receiver answered every attempt 200 (failing attempts on purpose was turned off): no retry was judged',
    )
    expect(webhookRow(results)?.passed).toBeGreaterThan(0)
    await target.stop()
  }, 60_000)

  it('fails webhook_conformance, one failure per create, for a server that sends no events', async () => {
    const port = await freePort()
    const target = await server({})
    const startedAt = Date.now()
    const results = await verify({
      baseUrl: target.url,
      tokens,
      ...SMALL,
      only: ['examples'],
      // Nothing will come: the wait is the bound itself, with no failed attempt to stretch it.
      webhook: { port, secret: SECRET, waitMs: 1_000 },
    })
    expect(Date.now() - startedAt).toBeLessThan(15_000)
    const failed = webhookFailures(results)
    expect(failed.length, summary(results)).toBeGreaterThan(0)
    expect(failed.every((f) => f.problems.some((p) => /no event within the wait/.test(p)))).toBe(true)
    expect(webhookRow(results)?.passed ?? 0).toBe(0)
    await target.stop()
  }, 60_000)

  describe('a sender of its own, retrying every failed attempt', () => {
    const created: Answer = {
      status: 200,
      headers: {},
      mediaType: undefined,
      text: '',
      json: undefined,
      isJson: false,
    }

    /**
     * Three creates of principal 1 announced to a receiver, then their events sent one after the other
     * as a sender would: signed afresh for each attempt, sent again 50 ms after any failed one
     * (no 2xx, a timeout, a refused connection), following redirects or not, and under the event's
     * webhook-id or, renaming, a new one for each attempt.
     */
    async function run(redirect: 'follow' | 'manual', rename = false) {
      const receiver = await WebhookReceiver.start(
        { port: 0, secret: SECRET, waitMs: 1_000, holdMs: HOLD_MS },
        await loadDocument(undefined, 'kit'),
        tokenScopes(tokens),
      )
      try {
        const ids = ['9007199254740993', '9007199254740995', '9007199254740997']
        for (const id of ids) {
          const body = `{"id":${id},"name":"Fern"}`
          receiver.observe(
            { method: 'POST', path: '/plants', body, auth: { kind: 'principal' } },
            `Bearer ${tokens[0]}`,
            created,
          )
          for (let attempt = 1; attempt <= 5; attempt++) {
            const status = await fetch(`${receiver.url}hooks`, {
              method: 'POST',
              headers: delivery(rename ? `msg_${id}-${attempt}` : `msg_${id}`, body),
              body,
              redirect,
              signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
            }).then(
              (answer) => answer.status,
              () => 0,
            )
            if (status >= 200 && status < 300) break
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }
        await receiver.settle()
        return { problems: receiver.judge().flatMap((f) => f.problems), counts: receiver.failedOnPurpose }
      } finally {
        await receiver.close()
      }
    }

    it('passes when it does not follow redirects', async () => {
      const { problems, counts } = await run('manual')
      expect(problems).toEqual([])
      expect(counts).toEqual({ hold: 1, error: 1, redirect: 1, retried: 3 })
    }, 30_000)

    it('fails when it follows a redirect, which then never reaches the original URL again', async () => {
      const { problems, counts } = await run('follow')
      expect(counts).toEqual({ hold: 1, error: 1, redirect: 1, retried: 2 })
      expect(problems).toEqual([
        'event msg_9007199254740997 (plant 9007199254740997 of principal 1): its first attempt was redirected (307) on purpose, and it never came again within the wait: a failed attempt is retried to the original URL (redirects are not followed)',
        "event msg_9007199254740997 (plant 9007199254740997 of principal 1): the sender followed the receiver's redirect (307 to /verify-redirect-target/msg_9007199254740997); a redirect is a failed attempt, not followed, and the event is sent again to the original URL",
      ])
    }, 30_000)

    it('fails when it retries under a new webhook-id, saying so', async () => {
      const { problems, counts } = await run('manual', true)
      // Each renamed attempt is a new event to the receiver, and may be failed on purpose in its turn.
      expect(counts).toMatchObject({ hold: 1, retried: 0 })
      const held = 'event msg_9007199254740993-1 (plant 9007199254740993 of principal 1)'
      expect(problems).toContain(
        `${held}: its first attempt was held without an answer on purpose (up to 1 s), and it never came again within the wait: a failed attempt is retried; event msg_9007199254740993-2 came after it with the same body: every attempt of an event carries its webhook-id`,
      )
      expect(problems).toContain('2 events for plant 9007199254740993, but 1 create(s) of it answered 200')
    }, 30_000)
  })

  it('judges an event’s timestamp by when it arrived, not by when a long run ends', async () => {
    const receiver = await WebhookReceiver.start(
      { port: 0, secret: SECRET, failAttempts: false },
      await loadDocument(undefined, 'kit'),
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
