// The newPlant webhook on the real server: one signed event per create answered 200, retried until a
// 2xx, never after a redirect, kept through a crash, and sent once by two instances on one database.

import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { verifyNewPlant, WebhookVerificationError } from '@plant-store/verify/webhooks'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { ALICE, BOB, build } from '../../../test/helpers/build.js'
import { postgresCluster, postgresMissing } from '../../../test/helpers/postgres.js'
import { type ServerProcess, startServer } from '../../../test/helpers/server-process.js'
import { loadConfig, SANDBOX_WEBHOOK_SECRET, type WebhookConfig } from '../config.js'
import { retryDelay } from '../plugins/app/webhooks.js'
import { OutboxFullError, PendingBound } from '../repository/outbox.js'
import { openPostgresRepository } from '../repository/postgres-repository.js'
import { openSqliteRepository } from '../repository/sqlite-repository.js'
import { signer } from '../webhooks/signing.js'

const SECRET = `whsec_${Buffer.from('a test secret of 32 bytes, not 1').toString('base64')}`
const NEXT_SECRET = `whsec_${Buffer.from('the next secret, also 32 bytes..').toString('base64')}`
// Above 2^53: a double would round it to ...992.
const BIG_ID = '9007199254740993'

const run = promisify(execFile)

interface Received {
  headers: IncomingHttpHeaders
  body: string
}
type Answer = number | 'stall' | ((response: ServerResponse) => void)

/** A receiver on 127.0.0.1, port 0: records every request and answers the n-th as `answer(n)` says. */
async function receiver(answer: (n: number) => Answer = () => 200) {
  const received: Received[] = []
  const stalled: ServerResponse[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      const what = answer(received.length)
      if (what === 'stall') stalled.push(response)
      else if (typeof what === 'function') what(response)
      else response.writeHead(what).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = async () => {
    for (const response of stalled) response.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  onTestFinished(close)
  return { url: `http://127.0.0.1:${port}/hooks/plants`, received, close }
}

/** Waits, within a bound, until `done()` holds; fails with `what` otherwise. */
async function until(what: string, done: () => boolean | Promise<boolean>, rounds = 600) {
  for (let i = 0; i < rounds; i++) {
    if (await done()) return
    await sleep(25)
  }
  throw new Error(`gave up waiting: ${what}`)
}

const hooksEnv = (url: string, env: Record<string, string> = {}) => ({
  WEBHOOK_ENDPOINTS: `alice=${url}`,
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_MS: '40',
  ...env,
})

const json = (payload: string, headers: Record<string, string> = ALICE) => ({
  headers: { ...headers, 'content-type': 'application/json' },
  payload,
})

const idOf = (r: Received) => String(r.headers['webhook-id'])

describe('the newPlant webhook', () => {
  it('sends one signed event per create answered 200, its int64 id digit for digit, and none otherwise', async () => {
    const hook = await receiver()
    const app = await build(hooksEnv(hook.url, { WEBHOOK_SECRET: `${SECRET},${NEXT_SECRET}` }))
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      ...json(`{"id":${BIG_ID},"name":"Oak","tag":"tree"}`),
    })
    expect(created.statusCode).toBe(200)
    await until('the first event', () => hook.received.length >= 1)

    // Refused creates, a replace, a delete, and bob's create (bob has no endpoint): no event.
    const refused = [
      await app.inject({ method: 'POST', url: '/plants', ...json(`{"id":${BIG_ID},"name":"Again"}`) }),
      await app.inject({ method: 'POST', url: '/plants', ...json('{"id":"7","name":"Mint"}') }),
      await app.inject({ method: 'POST', url: '/plants', ...json('{"id":8}') }),
    ]
    expect(refused.map((r) => r.statusCode)).toEqual([409, 400, 400])
    const replaced = await app.inject({ method: 'PUT', url: `/plants/${BIG_ID}`, ...json('{"name":"Elm"}') })
    expect(replaced.statusCode).toBe(200)
    expect(
      (await app.inject({ method: 'DELETE', url: `/plants/${BIG_ID}`, headers: ALICE })).statusCode,
    ).toBe(204)
    const bobs = await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Fern"}', BOB) })
    expect(bobs.statusCode).toBe(200)
    // A last create of alice's: once its event is in, any event of the requests before it would be too.
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":2,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    await until('the last event', () => hook.received.length >= 2)
    await until('the outbox emptied', async () => (await app.outbox.stats()).pending === 0)

    expect(hook.received.map((r) => r.body)).toEqual([
      `{"id":${BIG_ID},"name":"Oak","tag":"tree"}`,
      '{"id":2,"name":"Basil"}',
    ])
    const [first, second] = hook.received as [Received, Received]
    expect(idOf(first)).not.toBe(idOf(second))
    for (const secret of [SECRET, NEXT_SECRET]) {
      // The library's own check, over the body exactly as received: each secret's signature verifies.
      expect(() =>
        new Webhook(secret).verify(first.body, first.headers as Record<string, string>, { jsonParse: false }),
      ).not.toThrow()
    }
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(first.headers['content-type']).toBe('application/json')
    // Another key does not verify it, and neither does a body changed by one digit.
    const stranger = `whsec_${Buffer.alloc(32, 1).toString('base64')}`
    expect(() => new Webhook(stranger).verify(first.body, first.headers as Record<string, string>)).toThrow()
    expect(() =>
      new Webhook(SECRET).verify(first.body.replace('993', '992'), first.headers as Record<string, string>),
    ).toThrow()
  })

  it('retries after a 500 with the same webhook-id, and stops at the 200', async () => {
    const hook = await receiver((n) => (n === 1 ? 500 : 200))
    const app = await build(hooksEnv(hook.url))
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    await until('the retry', () => hook.received.length >= 2)
    await until('the outbox emptied', async () => (await app.outbox.stats()).pending === 0)
    expect(hook.received).toHaveLength(2)
    expect(idOf(hook.received[1] as Received)).toBe(idOf(hook.received[0] as Received))
    expect(idOf(hook.received[0] as Received)).toMatch(/^msg_[A-Za-z0-9_-]+$/)
  })

  it('retries a receiver that does not answer within the configured time-out', async () => {
    const hook = await receiver((n) => (n === 1 ? 'stall' : 200))
    const app = await build(hooksEnv(hook.url, { WEBHOOK_TIMEOUT_MS: '200' }))
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    await until('the retry after the time-out', () => hook.received.length >= 2)
    await until('the outbox emptied', async () => (await app.outbox.stats()).pending === 0)
    expect(new Set(hook.received.map(idOf)).size).toBe(1)
  })

  it('does not follow a redirect: the attempt fails, and after the last one the event is kept as failed', async () => {
    const elsewhere = await receiver()
    const hook = await receiver(() => (response) => {
      response.writeHead(307, { location: elsewhere.url }).end()
    })
    const app = await build(hooksEnv(hook.url, { WEBHOOK_MAX_ATTEMPTS: '3' }))
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    await until('the event failed for good', async () => (await app.outbox.stats()).failed === 1)
    expect(hook.received).toHaveLength(3)
    expect(elsewhere.received).toHaveLength(0)
    expect(await app.outbox.stats()).toMatchObject({ pending: 0, failed: 1 })
  })

  it('retries a refused connection', async () => {
    const hook = await receiver()
    const url = hook.url
    await hook.close()
    const app = await build(hooksEnv(url, { WEBHOOK_MAX_ATTEMPTS: '2' }))
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    await until('the event failed for good', async () => (await app.outbox.stats()).failed === 1)
  })

  it('with WEBHOOK_DELIVERY=false stores each event for another instance on the same database to send, once', async () => {
    const hook = await receiver()
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-webhooks-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const env = hooksEnv(hook.url, { DATABASE_URL: `sqlite:${join(dir, 'plants.db')}` })
    const storing = await build({ ...env, WEBHOOK_DELIVERY: 'false' })
    const created = await storing.inject({
      method: 'POST',
      url: '/plants',
      ...json(`{"id":${BIG_ID},"name":"Oak"}`),
    })
    expect(created.statusCode).toBe(200)
    await sleep(300)
    expect(hook.received).toHaveLength(0)
    // Its worker starts with the app; inject() would start it on the first request.
    await (await build(env)).ready()
    await until('the event, sent by the other instance', () => hook.received.length >= 1)
    await sleep(300)
    expect(hook.received.map((r) => r.body)).toEqual([`{"id":${BIG_ID},"name":"Oak"}`])
  })

  it('refuses a create with 503, storing nothing, while the outbox is full', async () => {
    const hook = await receiver(() => 'stall')
    const app = await build(hooksEnv(hook.url, { WEBHOOK_MAX_PENDING: '1', WEBHOOK_TIMEOUT_MS: '60000' }))
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":1,"name":"Basil"}') })).statusCode,
    ).toBe(200)
    const full = await app.inject({ method: 'POST', url: '/plants', ...json('{"id":2,"name":"Fern"}') })
    expect(full.statusCode).toBe(503)
    expect(full.headers['retry-after']).toMatch(/^[0-9]+$/)
    expect((await app.inject({ method: 'GET', url: '/plants/2', headers: ALICE })).statusCode).toBe(404)
    // A principal without an endpoint stores no event and is not held back.
    expect(
      (await app.inject({ method: 'POST', url: '/plants', ...json('{"id":2,"name":"Fern"}', BOB) }))
        .statusCode,
    ).toBe(200)
  })
})

describe('the sandbox’s newPlant webhook', () => {
  const sandboxEnv = (url: string) => ({
    SANDBOX: 'true',
    // A token: the sandbox's principals are its tokens.
    WEBHOOK_ENDPOINTS: `configured-token=${url}`,
    WEBHOOK_POLL_MS: '20',
  })
  const as = (token: string, named?: string) => ({
    authorization: `Bearer ${token}`,
    ...(named === undefined ? {} : { 'sandbox-webhook-url': named }),
  })

  it('sends to WEBHOOK_ENDPOINTS and to the URL a caller names for its token, never for a seeded plant', async () => {
    const configured = await receiver()
    const named = await receiver()
    const app = await build(sandboxEnv(configured.url))
    // The configured token's first request seeds its store: no event for the seeds.
    expect(
      (await app.inject({ method: 'GET', url: '/plants', headers: as('configured-token') })).statusCode,
    ).toBe(200)
    const create = (token: string, body: string, url?: string) =>
      app.inject({ method: 'POST', url: '/plants', ...json(body, as(token, url)) })
    expect((await create('configured-token', `{"id":${BIG_ID},"name":"Oak"}`)).statusCode).toBe(200)
    // A caller names its URL on any request; it holds for the token's later creates.
    expect(
      (await app.inject({ method: 'GET', url: '/plants/1', headers: as('caller-token', named.url) }))
        .statusCode,
    ).toBe(200)
    expect((await create('caller-token', '{"id":11,"name":"Sage","tag":"herb"}')).statusCode).toBe(200)
    expect((await create('caller-token', '{"id":11,"name":"Again"}')).statusCode).toBe(409)
    // A token's very first request, a create naming the URL: its seeds announced to no one, its plant is.
    expect((await create('fresh-token', '{"id":12,"name":"Dill"}', named.url)).statusCode).toBe(200)
    // A token that named nothing: nothing stored, nothing sent.
    expect((await create('silent-token', '{"id":13,"name":"Mint"}')).statusCode).toBe(200)
    const refused = await create('other-token', '{"id":14,"name":"Rue"}', 'ftp://example.test/hooks')
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({
      error: 400,
      message: expect.stringMatching(/Sandbox-Webhook-Url/),
    })

    await until('the events', () => configured.received.length >= 1 && named.received.length >= 2)
    await until('the outbox emptied', async () => (await app.outbox.stats()).pending === 0)
    expect(configured.received.map((r) => r.body)).toEqual([`{"id":${BIG_ID},"name":"Oak"}`])
    expect(named.received.map((r) => r.body).sort()).toEqual([
      '{"id":11,"name":"Sage","tag":"herb"}',
      '{"id":12,"name":"Dill"}',
    ])
    // Signed with the published sandbox secret, as the docs say, when WEBHOOK_SECRET is not set.
    for (const r of [...configured.received, ...named.received])
      expect(verifyNewPlant(r.body, r.headers, SANDBOX_WEBHOOK_SECRET).name).toMatch(/^(Oak|Sage|Dill)$/)
    expect(
      verifyNewPlant(
        configured.received[0]?.body ?? '',
        configured.received[0]?.headers ?? {},
        SANDBOX_WEBHOOK_SECRET,
      ).id,
    ).toBe(BigInt(BIG_ID))
  })

  it('signs with WEBHOOK_SECRET when it is set, and a caller’s URL replaces the configured one for its token', async () => {
    const configured = await receiver()
    const named = await receiver()
    const app = await build({ ...sandboxEnv(configured.url), WEBHOOK_SECRET: SECRET })
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      ...json('{"id":21,"name":"Yew"}', as('configured-token', named.url)),
    })
    expect(created.statusCode).toBe(200)
    await until('the event', () => named.received.length >= 1)
    await until('the outbox emptied', async () => (await app.outbox.stats()).pending === 0)
    expect(configured.received).toHaveLength(0)
    const [event] = named.received as [Received]
    expect(verifyNewPlant(event.body, event.headers, SECRET)).toEqual({ id: 21n, name: 'Yew' })
    expect(() => verifyNewPlant(event.body, event.headers, SANDBOX_WEBHOOK_SECRET)).toThrow(
      WebhookVerificationError,
    )
  })
})

describe('the newPlant webhook across processes', () => {
  const started: ServerProcess[] = []
  const dirs: string[] = []
  afterAll(async () => {
    await Promise.all(started.map((server) => server.kill9()))
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const start = async (env: Record<string, string>) => {
    const server = await startServer(env)
    started.push(server)
    return server
  }
  const create = (server: ServerProcess, id: number | string, name = `plant ${id}`) =>
    fetch(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer token-a', 'content-type': 'application/json' },
      body: `{"id":${id},"name":"${name}"}`,
      signal: AbortSignal.timeout(15_000),
    })

  it('delivers after a restart an event whose server was killed (-9) before delivering it', async () => {
    const hook = await receiver((n) => (n === 1 ? 'stall' : 200))
    const dir = mkdtempSync(join(tmpdir(), 'plant-store-webhooks-'))
    dirs.push(dir)
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'plants.db')}`,
      AUTH_TOKENS: 'alice:token-a',
      ...hooksEnv(hook.url, { WEBHOOK_TIMEOUT_MS: '500' }),
    }
    const first = await start(env)
    expect((await create(first, BIG_ID, 'Oak')).status).toBe(200)
    // The attempt is under way and unanswered: nothing is delivered when the process dies.
    await until('the first attempt', () => hook.received.length >= 1)
    await first.kill9()
    await start(env)
    await until('the delivery after the restart', () => hook.received.length >= 2)
    expect(hook.received[1]?.body).toBe(`{"id":${BIG_ID},"name":"Oak"}`)
    expect(idOf(hook.received[1] as Received)).toBe(idOf(hook.received[0] as Received))
  }, 60_000)

  it.skipIf(postgresMissing !== undefined)(
    'sends each event once from two instances on one PostgreSQL database',
    async () => {
      const hook = await receiver()
      const cluster = await postgresCluster()
      const env = {
        DATABASE_URL: await cluster.createDatabase(),
        AUTH_TOKENS: 'alice:token-a',
        ...hooksEnv(hook.url, { WEBHOOK_POLL_MS: '10' }),
      }
      const [a, b] = await Promise.all([start(env), start(env)])
      const servers = [a, b] as const
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => create(servers[i % 2] as ServerProcess, i + 1)),
      )
      expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200))
      await until('every event', () => new Set(hook.received.map(idOf)).size >= 40)
      // A last event through each instance: any second sending of the first 40 would have come by then.
      expect((await create(a, 41)).status).toBe(200)
      expect((await create(b, 42)).status).toBe(200)
      await until('the last events', () => new Set(hook.received.map(idOf)).size >= 42)
      const ids = hook.received.map(idOf)
      expect(ids.length).toBe(42)
      expect(new Set(ids).size).toBe(42)
      expect(new Set(hook.received.map((r) => JSON.parse(r.body).id)).size).toBe(42)
    },
    60_000,
  )
})

describe('the receiver side', () => {
  it('sends the document’s examples signed (npm run webhook:send), and verifyNewPlant reads each, int64 exact', async () => {
    const hook = await receiver()
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/send-webhook.ts',
      '--url',
      hook.url,
      '--secret',
      SECRET,
    ])
    expect(stdout).toMatch(/^basil: 200 /m)
    expect(hook.received.map((r) => verifyNewPlant(r.body, r.headers, SECRET))).toEqual([
      { id: 1n, name: 'Basil', tag: 'herb' },
      { id: 2n, name: 'Fern' },
      { id: 1000000000000000000n, name: 'Rosemary', tag: 'herb' },
    ])
    const one = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/send-webhook.ts',
      `--url=${hook.url}`,
      `--secret=${SECRET}`,
      '--example=untagged',
    ])
    expect(one.stdout.trim().split('\n')).toHaveLength(1)
    expect(hook.received).toHaveLength(4)
  }, 30_000)

  it('verifyNewPlant refuses a bad signature, a stale timestamp and a body the document refuses', () => {
    const sign = signer([SECRET])
    const body = `{"id":${BIG_ID},"name":"Oak"}`
    const good = sign('msg_1', body)
    expect(verifyNewPlant(body, new Headers({ ...good }), [NEXT_SECRET, SECRET])).toEqual({
      id: BigInt(BIG_ID),
      name: 'Oak',
    })
    expect(() => verifyNewPlant(body, good, NEXT_SECRET)).toThrow(WebhookVerificationError)
    expect(() => verifyNewPlant(body.replace('Oak', 'Elm'), good, SECRET)).toThrow(WebhookVerificationError)
    const stale = sign('msg_1', body, new Date(Date.now() - 10 * 60_000))
    expect(() => verifyNewPlant(body, stale, SECRET)).toThrow(/too old/)
    const nameless = `{"id":${BIG_ID}}`
    expect(() => verifyNewPlant(nameless, sign('msg_2', nameless), SECRET)).toThrow(/not a plant/)
  })

  it('counts pending events only when the last count plus those added since reaches the bound, or is a second old', () => {
    const bound = new PendingBound(3)
    expect(bound.needsCount(0)).toBe(true)
    bound.counted(1, 0)
    bound.added()
    expect(bound.needsCount(500)).toBe(false)
    bound.added()
    // 1 counted + 2 added = 3: the next create must count, since deliveries may have made room.
    expect(bound.needsCount(500)).toBe(true)
    expect(() => bound.counted(3, 500)).toThrow(OutboxFullError)
    bound.counted(0, 600)
    expect(bound.needsCount(1_500)).toBe(false)
    // Other instances add events this one does not see: a count a second old is taken again.
    expect(bound.needsCount(1_601)).toBe(true)
  })

  const outboxStores = {
    SQLite: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plant-store-outbox-'))
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      const file = join(dir, 'plants.db')
      return async () => openSqliteRepository(file, { outbox: { wants: () => true, maxPending: 100 } })
    },
    PostgreSQL: async () => {
      const url = await (await postgresCluster()).createDatabase()
      return () =>
        openPostgresRepository({
          url,
          poolSize: 2,
          connectTimeoutMs: 10_000,
          statementTimeoutMs: 10_000,
          outbox: { wants: () => true, maxPending: 100 },
        })
    },
  }
  it.each(Object.keys(outboxStores) as (keyof typeof outboxStores)[])(
    'deletes delivered events, forgets events failed for good before the cut, and a deleted event stays deleted after a reopen (%s)',
    async (kind) => {
      if (kind === 'PostgreSQL' && postgresMissing !== undefined) {
        console.warn(`skipped on PostgreSQL: ${postgresMissing}`)
        return
      }
      const open = await outboxStores[kind]()
      const store = await open()
      for (const id of [1, 2, 3]) expect(await store.create('alice', { id, name: `plant ${id}` })).toBe(true)
      const [first, second, third] = await store.outbox.claim(Date.now(), Date.now() + 60_000, 10)
      if (!first || !second || !third) throw new Error('three events were stored')
      await store.outbox.attemptFailed(first.id, 1, undefined, 'the receiver answered 500')
      await store.outbox.attemptFailed(second.id, 1, undefined, 'the receiver answered 500')
      expect(await store.outbox.stats()).toMatchObject({ pending: 1, failed: 2 })
      expect(await store.outbox.purgeFailed(Date.now() - 60_000)).toBe(0)
      expect(await store.outbox.purgeFailed(Date.now() + 1)).toBe(2)
      // Settled with nothing claimed, and closed at once.
      expect(await store.outbox.claim(Date.now(), Date.now(), 0, [third.id])).toEqual([])
      await store.close()
      const reopened = await open()
      onTestFinished(() => reopened.close())
      expect(await reopened.outbox.stats()).toEqual({ pending: 0, failed: 0, oldestPendingAt: undefined })
    },
  )

  it('waits 2.5 to 5 seconds before the first retry by default, doubling up to the cap', () => {
    const config = loadConfig({
      WEBHOOK_ENDPOINTS: 'dev=https://hooks.example/',
      WEBHOOK_SECRET: SECRET,
    }).webhooks as WebhookConfig
    expect([retryDelay(1, config, () => 0), retryDelay(1, config, () => 1)]).toEqual([2_500, 5_000])
    expect(retryDelay(2, config, () => 1)).toBe(10_000)
    expect(retryDelay(40, config, () => 1)).toBe(3_600_000)
  })
})
