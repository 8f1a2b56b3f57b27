// can-i-deploy's rules through the API: yes, no and unknown, each unknown naming its missing fact, each
// no its failure; and check-document, the what-if that stores nothing.
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { freshDatabase, postgresCluster, postgresMissing } from '../../../test/helpers/postgres.js'
import {
  APP,
  appContract,
  build,
  client,
  documentJson,
  PRINTER,
  printerContract,
  type Store,
  sqliteUrl,
  withoutTag,
} from './helpers.js'

const stores: Store[] = postgresMissing ? ['sqlite'] : ['sqlite', 'postgres']

describe.each(stores)('on %s', (store) => {
  // The file's cluster starts once, before the tests, within a start's own time.
  beforeAll(async () => {
    if (store === 'postgres') await postgresCluster()
  }, 60_000)
  let app: FastifyInstance
  let c: ReturnType<typeof client>
  beforeEach(async () => {
    app = await build(store === 'sqlite' ? sqliteUrl() : await freshDatabase())
    c = client(app)
    await c.environment('production', true)
    await c.contract(APP, 'a1', appContract)
    await c.contract(PRINTER, 'p1', printerContract)
  })
  afterEach(() => app.close())

  const ask = async (application: string, version: string, to = 'production') =>
    (await c.canIDeploy(application, version, to)).json()

  describe('can-i-deploy for a consumer', () => {
    it('is unknown while no store version is deployed there, and says so', async () => {
      expect(await ask(APP, 'a1')).toEqual({
        answer: 'unknown',
        reasons: ['no store version is deployed in production'],
        rows: [],
      })
    })

    it('is unknown while the deployed store has no verification for its document, with the row judged', async () => {
      await c.document('s1', documentJson())
      await c.deploy('plant-store', 's1', 'production')
      const answer = await ask(APP, 'a1')
      expect(answer.answer).toBe('unknown')
      expect(answer.reasons).toEqual(['plant-store s1 has no verification for its document'])
      expect(answer.rows).toEqual([
        {
          consumer: APP,
          consumerVersion: 'a1',
          store: 'plant-store',
          storeVersion: 's1',
          compatible: true,
          verified: false,
          findings: [],
        },
      ])
    })

    it('is yes once that store passed its verification, and no when it failed it', async () => {
      await c.document('s1', documentJson())
      await c.deploy('plant-store', 's1', 'production')
      await c.verify('s1', true)
      expect((await ask(APP, 'a1')).answer).toBe('yes')
      await c.verify('s1', false)
      const answer = await ask(APP, 'a1')
      expect(answer.answer).toBe('no')
      expect(answer.reasons).toEqual(['plant-store s1 failed its verification against its document'])
    })

    it('is no when the deployed document no longer serves what the consumer uses, naming it', async () => {
      await c.document('s2', documentJson(withoutTag))
      await c.deploy('plant-store', 's2', 'production')
      await c.verify('s2', true)
      const answer = await ask(APP, 'a1')
      expect(answer.answer).toBe('no')
      expect(answer.rows[0].compatible).toBe(false)
      expect(answer.rows[0].verified).toBe(true)
      expect(answer.reasons[0]).toMatch(
        /^plant-store s2's document breaks plant-store-consumer-app a1: listPlants \(GET \/plants\) response 200: \[\]\.tag/,
      )
      // The printer reads no tag: the same store serves it.
      expect((await ask(PRINTER, 'p1')).answer).toBe('yes')
    })

    it('answers 404 for an application, version or environment it has never seen', async () => {
      expect((await c.canIDeploy('nobody', 'a1', 'production')).statusCode).toBe(404)
      expect((await c.canIDeploy(APP, 'zzz', 'production')).json().message).toBe(
        `${APP} has no version zzz: publish it first`,
      )
      expect((await c.canIDeploy(APP, 'a1', 'staging')).statusCode).toBe(404)
      expect((await c.send('GET', '/can-i-deploy?application=x')).json()).toEqual({
        error: 400,
        message: 'the query parameter version is required, once',
      })
    })
  })

  describe('can-i-deploy for the store', () => {
    it('is unknown without a verification, yes when no consumer runs there', async () => {
      await c.document('s1', documentJson())
      const unknown = await ask('plant-store', 's1')
      expect(unknown).toEqual({
        answer: 'unknown',
        reasons: ['plant-store s1 has no verification for its document'],
        rows: [],
      })
      await c.verify('s1')
      const yes = await ask('plant-store', 's1')
      expect(yes.answer).toBe('yes')
      expect(yes.reasons).toEqual([
        'no consumer is deployed or released in production: nothing plant-store s1 could break',
      ])
    })

    it('is no when its document breaks a consumer deployed or released there, with a row for each', async () => {
      await c.document('s2', documentJson(withoutTag))
      await c.verify('s2')
      await c.deploy(PRINTER, 'p1', 'production')
      expect((await ask('plant-store', 's2')).answer).toBe('yes')
      await c.release(APP, 'a1', 'production')
      const answer = await ask('plant-store', 's2')
      expect(answer.answer).toBe('no')
      expect(
        answer.rows.map((r: { consumer: string; compatible: boolean }) => [r.consumer, r.compatible]),
      ).toEqual([
        [APP, false],
        [PRINTER, true],
      ])
    })
  })

  describe('check-document', () => {
    it('judges a draft against running and main-branch consumers, stores nothing, and names what asks more of the store', async () => {
      await c.document('s1', documentJson())
      await c.verify('s1')
      await c.deploy('plant-store', 's1', 'production')
      const before = (await c.send('GET', '/applications')).json()
      const draft = documentJson((doc) => {
        withoutTag(doc)
        // A new refusal: the store deployed was not verified against it.
        doc.paths['/plants/{id}'].get.responses['418'] = doc.paths['/plants/{id}'].get.responses['404']
      })
      const result = (await c.send('POST', '/check-document', draft)).json()
      expect(result.answer).toBe('no')
      expect(
        result.consumers.map((x: { consumer: string; compatible: boolean; where: string[] }) => [
          x.consumer,
          x.compatible,
          x.where,
        ]),
      ).toEqual([
        [APP, false, ['main']],
        [PRINTER, true, ['main']],
      ])
      expect(result.verificationNeeded).toEqual([
        expect.objectContaining({
          environment: 'production',
          store: 'plant-store',
          version: 's1',
          changes: expect.arrayContaining([expect.objectContaining({ rule: 'response-status-added' })]),
        }),
      ])
      expect((await c.send('GET', '/applications')).json()).toEqual(before)
      expect((await c.send('POST', '/check-document', '{"openapi":"3.0.0"}')).statusCode).toBe(400)
    })
  })
})
