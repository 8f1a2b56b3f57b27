// The broker's API through app.inject: what it keeps, and every refusal, on SQLite and on PostgreSQL.
import { once } from 'node:events'
import { createServer } from 'node:http'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, postgresCluster, postgresMissing } from '../../../test/helpers/postgres.js'
import { brokerDocument } from '../openapi.js'
import {
  APP,
  appContract,
  build,
  client,
  documentJson,
  PRINTER,
  printerContract,
  READ,
  type Store,
  sqliteUrl,
} from './helpers.js'

const stores: Store[] = postgresMissing ? ['sqlite'] : ['sqlite', 'postgres']

it('describes itself in a valid OpenAPI 3.1 document, each of its routes there', async () => {
  await SwaggerParser.validate(structuredClone(brokerDocument) as never)
  const app = await build(sqliteUrl())
  try {
    const routes = app.printRoutes({ commonPrefix: false })
    for (const path of Object.keys(brokerDocument.paths))
      expect(routes, path).toContain(
        path
          .replace(/\{(\w+)\}/g, ':$1')
          .split('/')
          .pop(),
      )
  } finally {
    await app.close()
  }
})

describe.each(stores)('the broker on %s', (store) => {
  // The file's cluster starts once, before the tests, within a start's own time.
  beforeAll(async () => {
    if (store === 'postgres') await postgresCluster()
  }, 60_000)
  let app: FastifyInstance
  const open = async () => {
    app = await build(store === 'sqlite' ? sqliteUrl() : await freshDatabase())
    return client(app)
  }
  afterEach(() => app?.close())

  it('keeps a contract once: 201, then 200 for the same content, and 409 naming the difference', async () => {
    const c = await open()
    const first = await c.contract(APP, 'a1', appContract)
    expect(first.statusCode).toBe(201)
    expect(first.json()).toMatchObject({ application: APP, version: 'a1', branch: 'main', created: true })
    expect((await c.contract(APP, 'a1', appContract)).statusCode).toBe(200)
    // The same content under another version is stored once.
    const second = await c.contract(APP, 'a2', appContract)
    expect(second.json().contract).toBe(first.json().contract)

    const other = JSON.parse(appContract)
    other.paths['/plants'].get.responses['200'].content[
      'application/json'
    ].schema.items.properties.tag.maxLength = 10
    const changed = await c.contract(APP, 'a1', JSON.stringify(other))
    expect(changed.statusCode).toBe(409)
    expect(changed.json().error).toBe(409)
    expect(changed.json().message).toContain(
      '/paths/~1plants/get/responses/200/content/application~1json/schema/items/properties/tag/maxLength',
    )
    const branch = await c.contract(APP, 'a1', appContract, 'feature')
    expect(branch.json()).toEqual({
      error: 409,
      message: `${APP} a1 was published from the branch main, not feature: a version never changes; publish a new one`,
    })
  })

  it('answers two publishes of one version with other contents at once: one wins, the other 409', async () => {
    const c = await open()
    const other = JSON.parse(appContract)
    other.paths['/plants'].get.responses['200'].content[
      'application/json'
    ].schema.items.properties.tag.maxLength = 10
    const answers = await Promise.all([
      c.contract(APP, 'race', appContract),
      c.contract(APP, 'race', JSON.stringify(other)),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409])
    const winner = answers.find((a) => a.statusCode === 201)?.json().contract
    expect((await c.send('GET', `/applications/${APP}/versions/race`)).json().contract).toBe(winner)
  })

  it('refuses what is not a contract or a document with 400 in the Error shape', async () => {
    const c = await open()
    const notContract = await c.contract(APP, 'x', JSON.stringify({ format: 'pact' }))
    expect(notContract.json()).toEqual({
      error: 400,
      message:
        'the body is not a consumer contract: its "format" is "pact", not "plant-store-consumer-contract/1"',
    })
    expect((await c.contract(APP, 'x', '{oops')).json()).toMatchObject({ error: 400 })
    const swagger2 = await c.document('s1', JSON.stringify({ swagger: '2.0', paths: {} }))
    expect(swagger2.json()).toEqual({
      error: 400,
      message: 'the body is not an OpenAPI 3.1 document: its "openapi" is undefined, not 3.1.x',
    })
    // A contract whose consumer is another application's.
    expect((await c.contract(PRINTER, 'p1', appContract)).statusCode).toBe(400)
    // The store publishes documents, a consumer contracts.
    expect((await c.document('s1', documentJson())).statusCode).toBe(201)
    expect(
      (await c.send('PUT', '/applications/plant-store/versions/s2/contract?branch=main', printerContract))
        .statusCode,
    ).toBe(400)
    const bad = await c.send(
      'POST',
      '/applications/plant-store/versions/s1/verifications',
      JSON.stringify({ tool: 'x' }),
    )
    expect(bad.json()).toEqual({
      error: 400,
      message: 'the body is not a report of plant-store-verify --json: its "tool" is "x"',
    })
    expect((await c.send('PUT', `/applications/${APP}/versions/v/contract`, appContract)).json()).toEqual({
      error: 400,
      message: 'the query parameter branch is required, once',
    })
    // Names are bounded: in the path, and in the query.
    expect((await c.contract(APP, 'v'.repeat(201), appContract)).json()).toEqual({
      error: 414,
      message: 'a name in the path is longer than 200 characters',
    })
    expect((await c.contract(APP, 'v', appContract, 'b'.repeat(201))).json()).toEqual({
      error: 400,
      message: 'the query parameter branch is longer than 200 characters',
    })
  })

  it('answers 404 for an unknown application, version or environment', async () => {
    const c = await open()
    expect((await c.send('GET', '/applications/nobody')).json()).toEqual({
      error: 404,
      message: 'there is no application named nobody: it has published nothing',
    })
    await c.contract(APP, 'a1', appContract)
    expect((await c.send('GET', `/applications/${APP}/versions/zzz`)).json()).toEqual({
      error: 404,
      message: `${APP} has no version zzz: publish it first`,
    })
    expect((await c.deploy(APP, 'a1', 'moon')).json()).toEqual({
      error: 404,
      message: 'there is no environment named moon: create it first (PUT /environments/moon)',
    })
    expect((await c.verify('nope')).statusCode).toBe(404)
  })

  it('answers 401 to a write without the write token, 403 to one with the read token, and reads with either', async () => {
    const c = await open()
    const none = await c.send(
      'PUT',
      `/applications/${APP}/versions/a1/contract?branch=main`,
      appContract,
      {} as never,
    )
    expect(none.statusCode).toBe(401)
    expect(none.json()).toEqual({
      error: 401,
      message: 'a write needs the write token: Authorization: Bearer <token>',
    })
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/)
    const wrong = await c.send('PUT', `/applications/${APP}/versions/a1/contract?branch=main`, appContract, {
      authorization: 'Bearer guess',
    })
    expect(wrong.statusCode).toBe(401)
    expect(
      (await c.send('PUT', `/applications/${APP}/versions/a1/contract?branch=main`, appContract, READ))
        .statusCode,
    ).toBe(403)
    expect((await c.send('GET', '/applications', undefined, {} as never)).statusCode).toBe(401)
    expect((await c.send('GET', '/applications', undefined, READ)).json()).toEqual([])
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200)
    expect((await app.inject({ url: '/openapi.json' })).json().openapi).toBe('3.1.0')
  })

  it('bounds bodies: 413 in the Error shape', async () => {
    const c = await open()
    const big = JSON.stringify({ padding: 'x'.repeat(5 * 1024 * 1024) })
    const res = await c.contract(APP, 'big', big)
    expect(res.json()).toEqual({ error: 413, message: 'the body is larger than 4194304 bytes' })
  })

  it('keeps one live deployment per application and environment, and several releases', async () => {
    const c = await open()
    await c.environment('production', true)
    await c.contract(APP, 'a1', appContract)
    await c.contract(APP, 'a2', appContract)
    expect((await c.deploy(APP, 'a1', 'production')).json()).toMatchObject({ replaced: false })
    expect((await c.deploy(APP, 'a2', 'production')).json()).toMatchObject({ replaced: true })
    const a1 = (await c.send('GET', `/applications/${APP}/versions/a1`)).json()
    expect(a1.deployments).toEqual([
      { environment: 'production', deployedAt: expect.any(String), live: false },
    ])
    expect((await c.release(APP, 'a1', 'production')).statusCode).toBe(201)
    expect((await c.release(APP, 'a2', 'production')).statusCode).toBe(201)
    expect((await c.release(APP, 'a2', 'production')).statusCode).toBe(200)
    const ended = await c.send(
      'POST',
      '/releases/support-ended',
      JSON.stringify({ application: APP, version: 'a1', environment: 'production' }),
    )
    expect(ended.statusCode).toBe(200)
    const again = await c.send(
      'POST',
      '/releases/support-ended',
      JSON.stringify({ application: APP, version: 'a1', environment: 'production' }),
    )
    expect(again.json()).toEqual({ error: 404, message: `${APP} a1 has no live release in production` })
    const a2 = (await c.send('GET', `/applications/${APP}/versions/a2`)).json()
    expect(a2.deployments[0].live).toBe(true)
    expect(a2.releases[0].live).toBe(true)
  })

  it('records a verification of a store version against the document it serves', async () => {
    const c = await open()
    const published = (await c.document('s1', documentJson())).json()
    const res = await c.verify('s1', false)
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ passed: false, document: published.document })
    const detail = (await c.send('GET', '/applications/plant-store/versions/s1')).json()
    expect(detail.verifications).toEqual([
      expect.objectContaining({
        passed: false,
        seed: '42',
        baseUrl: 'http://127.0.0.1:3000',
        document: published.document,
      }),
    ])
    const whole = await c.send('GET', `/applications/plant-store/versions/s1/verifications/${res.json().id}`)
    expect(whole.json()).toMatchObject({ passed: false, coverage: { met: true }, promises: [] })
    expect((await c.send('GET', '/applications/plant-store/versions/s1/verifications/999')).statusCode).toBe(
      404,
    )
    const content = await c.send('GET', `/contents/${published.document}`)
    expect(content.json().info.title).toBe('Plant Store')
  })

  it('cleans up: keeps the latest of main, what is deployed or released, and what is young', async () => {
    let now = new Date('2026-01-01T00:00:00Z')
    app = await build(store === 'sqlite' ? sqliteUrl() : await freshDatabase(), {}, () => now)
    const c = client(app)
    await c.environment('production', true)
    for (const v of ['m1', 'm2', 'm3']) await c.contract(APP, v, appContract)
    await c.contract(APP, 'f1', appContract, 'feature')
    await c.contract(PRINTER, 'p1', printerContract, 'feature')
    await c.deploy(APP, 'm1', 'production')
    await c.release(PRINTER, 'p1', 'production')
    now = new Date('2026-06-01T00:00:00Z')
    await c.contract(APP, 'young', appContract, 'feature')
    const removed = (await c.send('POST', '/clean-up?keepDays=30')).json()
    expect(removed).toMatchObject({ versions: 2 })
    const left = (await c.send('GET', `/applications/${APP}`))
      .json()
      .versions.map((v: { version: string }) => v.version)
    // m2 and f1 went: m1 is deployed, m3 the latest of main, young is young.
    expect(left.sort()).toEqual(['m1', 'm3', 'young'])
    expect((await c.send('GET', `/applications/${PRINTER}/versions/p1`)).statusCode).toBe(200)
    expect((await c.send('POST', '/clean-up?keepDays=-1')).statusCode).toBe(400)
  })
})

it('tells the notify URL of each version published, once', async () => {
  const told: unknown[] = []
  const receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      told.push(JSON.parse(body))
      response.end()
    })
  }).listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  const { port } = receiver.address() as { port: number }
  const app = await build(sqliteUrl(), { notifyUrl: `http://127.0.0.1:${port}/hook` })
  try {
    const c = client(app)
    const published = (await c.document('s1', documentJson())).json()
    await c.document('s1', documentJson())
    await c.contract(PRINTER, 'p1', printerContract, 'feature')
    for (let i = 0; i < 100 && told.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    // Time for a third, were the publish of the same content told again.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const byEvent = (a: unknown, b: unknown) =>
      String((b as { event: string }).event).localeCompare((a as { event: string }).event)
    expect(told.sort(byEvent)).toEqual([
      {
        event: 'document-published',
        application: 'plant-store',
        version: 's1',
        branch: 'main',
        content: published.document,
      },
      {
        event: 'contract-published',
        application: PRINTER,
        version: 'p1',
        branch: 'feature',
        content: expect.any(String),
      },
    ])
  } finally {
    await app.close()
    receiver.close()
  }
})

describe.skipIf(postgresMissing !== undefined)('two broker instances on one PostgreSQL database', () => {
  it("let one publish of a version win and answer the other 409, and see each other's writes", async () => {
    const url = await freshDatabase()
    const [one, two] = [await build(url), await build(url)]
    try {
      const other = JSON.parse(appContract)
      other.document.version = '9.9.9'
      const answers = await Promise.all([
        client(one).contract(APP, 'shared', appContract),
        client(two).contract(APP, 'shared', JSON.stringify(other)),
      ])
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409])
      expect(answers.find((a) => a.statusCode === 409)?.json().message).toContain('/document/version')
      await client(one).environment('production', true)
      await client(two).deploy(APP, 'shared', 'production')
      const seen = (await client(one).send('GET', `/applications/${APP}/versions/shared`)).json()
      expect(seen.deployments).toEqual([expect.objectContaining({ environment: 'production', live: true })])
    } finally {
      await Promise.all([one.close(), two.close()])
    }
  })
})
