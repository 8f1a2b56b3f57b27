// The document's promises are the unit of coverage: every promise found in the document has an entry
// in the verifier's registry (a case, or why no request can show it) and no entry names a promise the
// document no longer makes; a sentence added to the document is a promise without a case until one is
// given; and a small run against the kit's server exercises every promise a request can show, or says
// why not, in every report.
import { document as shipped } from '@plant-store/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { server } from '../../../scripts/lib/commands.js'
import { type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadDocument } from '../document.js'
import {
  layersLeftOut,
  loadPromises,
  NO_CASE,
  NOT_SENT,
  type PromiseCoverage,
  promiseCoverage,
  registryGaps,
} from '../promises/coverage.js'
import { documentPromises } from '../promises/document-promises.js'
import { HTTP_RULES } from '../promises/http-rules.js'
import { PROMISE_REGISTRY } from '../promises/registry.js'
import { coverageOf } from '../report/coverage.js'
import type { JsonReport } from '../report/json.js'
import { REPORTERS } from '../report/reports.js'
import type { JudgedFacts } from '../report/results.js'
import { verify } from '../run/verify.js'

describe('the registry of the document’s promises', () => {
  // The kit profile's promises are the interface's and its own: every entry names one of them.
  it('names every promise of the document, and no promise the document no longer makes', async () => {
    const { unregistered, stale } = registryGaps(await loadPromises(undefined, 'kit'))
    expect(unregistered, 'promises without a case or a reason in promises/registry.ts').toEqual([])
    expect(stale, 'registry entries whose promise is gone from the document').toEqual([])
    const inInterface = new Set((await loadPromises()).map((p) => p.id))
    expect(inInterface.has('Plant.name.maxLength')).toBe(true)
    expect(inInterface.has('kit.health.get-healthz-and-get-readyz')).toBe(false)
    expect(inInterface.has('header.Allow')).toBe(false)
  })

  it('finds a sentence added to the document as a promise without a case, and a removed one as stale', () => {
    const copy = structuredClone(shipped) as unknown as { info: { description: string } }
    copy.info.description +=
      '\n**Deliveries (addition).** A store keeps every plant for seven years after it is deleted.\n'
    const added = registryGaps(documentPromises(copy, 'kit'))
    expect(added.unregistered).toEqual(['deliveries.a-store-keeps-every-plant'])
    copy.info.description = copy.info.description.replace(/\*\*Query strings \(addition\)\.\*\*[^*]+/, '')
    const removed = registryGaps(documentPromises(copy, 'kit'))
    expect(removed.stale).toEqual([String(/^query-strings\..+/)])
  })

  it('lists each rule of HTTP the document relies on with its RFC, section and words', async () => {
    const promises = await loadPromises()
    for (const rule of HTTP_RULES)
      expect(promises.find((p) => p.id === rule.id)?.source).toEqual({
        where: `${rule.rfc}, section ${rule.section}`,
        words: rule.words,
      })
    // And the schema's keywords, each where the document writes it.
    expect(promises.find((p) => p.id === 'Plant.name.maxLength')?.source).toEqual({
      where: '#/components/schemas/Plant/properties/name/maxLength',
      words: 'maxLength: 256',
    })
  })

  it('counts the requests that exercised a promise and those its checks failed, or says why none did', async () => {
    const head = {
      layer: 'security' as const,
      operationId: 'listPlants',
      kinds: ['HEAD'],
      parameters: [],
      checks: ['status_code_conformance', 'example_conformance'],
      failed: ['status_code_conformance'],
    }
    const refused = { ...head, kinds: ['other method'], failed: ['example_conformance'] }
    const coverage = promiseCoverage(await loadPromises(), [head, refused])
    const of = (id: string) => coverage.find((p) => p.id === id)
    expect(of('rfc9110.head-as-get')).toMatchObject({
      requests: 1,
      failed: 1,
      checks: ['status_code_conformance'],
    })
    // A check the registry does not give the promise neither judges it nor fails it.
    expect(of('methods.a-method-that-a-documented')).toMatchObject({ requests: 1, failed: 0 })
    expect(of('query-strings.a-query-string-is-read')).toMatchObject({ requests: 0, reason: NOT_SENT })
    expect(of('newPlant.delivery.at-least-once-a-receiver')?.reason).toMatch(/--webhook-listen/)
    expect(of('interface.a-sample-interface-built-around')).toMatchObject({ untestable: true, requests: 0 })
  })

  it('counts a promise about what a request was by the status the document gives it, not the one answered', async () => {
    const promises = await loadPromises()
    const replace = (status: number, expected?: number[]): JudgedFacts => ({
      layer: 'generated',
      operationId: 'replacePlant',
      status,
      ...(expected ? { expected } : {}),
      kinds: ['valid'],
      parameters: ['id', 'name'],
      checks: ['status_code_conformance'],
      failed: expected && !expected.includes(status) ? ['status_code_conformance'] : [],
    })
    const mustExist = (judged: JudgedFacts[]) =>
      promiseCoverage(promises, judged).find((p) => p.id === 'replacePlant.the-plant-must-exist-create')
    // A replace of a plant the caller does not have, answered 200 (created): the promise's, and failed.
    expect(mustExist([replace(200, [404])])).toMatchObject({ requests: 1, failed: 1 })
    // A replace of one it has, answered 404: not the promise's.
    expect(mustExist([replace(404, [200])])).toMatchObject({ requests: 0 })
    // Where the layer keeps no state, the status answered says.
    expect(mustExist([replace(404)])).toMatchObject({ requests: 1, failed: 0 })
  })

  it('says a promise only a layer the run left out sends was not exercised for that, not for a quota', async () => {
    const promises = await loadPromises()
    const concurrent = {
      layer: 'concurrency' as const,
      operationId: 'createPlant',
      kinds: [],
      parameters: [],
      checks: ['concurrent_consistency'],
      failed: [],
    }
    const reason = (judged: JudgedFacts[]) =>
      promiseCoverage(promises, judged).find((p) => p.id === 'methods.such-a-request-without-a')?.reason
    expect(reason([concurrent])).toBe(layersLeftOut(['security']))
    expect(reason([concurrent])).toMatch(/security layer/)
    // The security layer ran and sent no such request: the quota for failed authentications is why.
    expect(reason([concurrent, { ...concurrent, layer: 'security', operationId: 'listPlants' }])).toMatch(
      /quota for failed authentications/,
    )
  })

  it('gives a promise that is not testable from outside its reason, and never counts it missing', () => {
    const untestable = PROMISE_REGISTRY.filter((e) => e.untestable !== undefined)
    expect(untestable.length).toBeGreaterThan(0)
    for (const entry of untestable) {
      expect(entry.untestable?.length).toBeGreaterThan(20)
      expect(entry.exercisedBy).toBeUndefined()
    }
  })
})

describe('a small run against the kit’s server', () => {
  let kit: Started | undefined
  let promises: PromiseCoverage[] = []
  let json: JsonReport | undefined
  let text = ''
  let markdown = ''
  let html = ''
  let junit = ''
  /** The kit profile's own promises, from a run of its examples and security cases with --profile kit. */
  let kitOwn: PromiseCoverage[] = []

  beforeAll(async () => {
    kit = await startProcess({
      ...server({
        env: {
          AUTH_TOKENS: 'alice:token-a,bob:token-b',
          RATE_LIMIT_MAX: '100000',
          AUTH_FAILURE_LIMIT: '100000',
        },
      }),
      timeoutMs: 30_000,
    })
    const results = await verify({
      baseUrl: kit.url,
      tokens: ['token-a', 'token-b'],
      requests: 200,
      sequences: 20,
      seed: 20261128,
    })
    const { operations } = await loadDocument()
    const coverage = coverageOf(results, operations, await loadPromises())
    promises = coverage.promises ?? []
    const run = { results, coverage, title: 'Promises', baseUrl: kit.url, durationMs: 1, met: true }
    json = JSON.parse(REPORTERS.json.render(run)) as JsonReport
    text = REPORTERS.text.render(run)
    markdown = REPORTERS.markdown.render(run)
    html = REPORTERS.html.render(run)
    junit = REPORTERS.junit.render(run)
    const kitRun = await verify({
      baseUrl: kit.url,
      tokens: ['token-a', 'token-b'],
      profile: 'kit',
      only: ['examples', 'security'],
      seed: 20261128,
    })
    const interfaceIds = new Set(promises.map((p) => p.id))
    const kitCoverage = coverageOf(
      kitRun,
      (await loadDocument(undefined, 'kit')).operations,
      await loadPromises(undefined, 'kit'),
    )
    kitOwn = (kitCoverage.promises ?? []).filter((p) => !interfaceIds.has(p.id))
  }, 180_000)
  afterAll(async () => {
    await kit?.stop()
  })

  it('exercises every promise a request can show, or says why not', () => {
    expect(promises.length).toBeGreaterThan(50)
    const unexplained = promises.filter(
      (p) => !p.untestable && p.requests === 0 && (!p.reason || p.reason === NOT_SENT),
    )
    expect(unexplained.map((p) => p.id)).toEqual([])
    expect(promises.filter((p) => p.reason === NO_CASE)).toEqual([])
    // Exercised, each judged by a check the registry gives it.
    for (const p of promises.filter((q) => q.requests > 0)) expect(p.checks.length, p.id).toBeGreaterThan(0)
  })

  it('with --profile kit, exercises every promise of the kit’s profile a request can show, or says why not', () => {
    expect(kitOwn.map((p) => p.id)).toContain('kit.health.get-healthz-and-get-readyz')
    expect(kitOwn.filter((p) => !p.untestable && p.requests === 0 && p.reason === NOT_SENT)).toEqual([])
    expect(kitOwn.find((p) => p.id === 'header.RateLimit-Policy')?.checks).toEqual([
      'kit_profile_conformance',
    ])
  })

  it('exercises the three places the document settles: 401 or 405, HEAD, and + in a query', () => {
    const exercised = (id: string) => promises.find((p) => p.id === id)?.requests ?? 0
    for (const id of [
      'methods.such-a-request-without-a',
      'methods.no-path-takes-head-a',
      'query-strings.a-query-string-is-read',
      'rfc9110.head-as-get',
    ])
      expect(exercised(id), id).toBeGreaterThan(0)
  })

  it('says per promise, in every report, how many requests exercised it and which checks judged it, or why not', () => {
    const head = json?.promises.find((p) => p.id === 'methods.no-path-takes-head-a')
    expect(head?.source.where).toBe('#/info/description')
    expect(head?.requests).toBeGreaterThan(0)
    expect(head?.checks).toContain('status_code_conformance')
    const webhook = json?.promises.find((p) => p.id.startsWith('newPlant.'))
    expect(webhook?.requests).toBe(0)
    expect(webhook?.reason).toMatch(/--webhook-listen/)
    expect(json?.coverage).not.toHaveProperty('promises')
    expect(text).toMatch(/^Promises exercised: \d+ of \d+ \(and \d+ no request can show\); not exercised:$/m)
    // A line per reason: the webhook's promises said once, each listed in the other reports.
    expect(text).toMatch(
      /^- webhooks\.\S+, newPlant\.\S+, newPlant\.\S+ and \d+ more — needs the newPlant receiver/m,
    )
    expect(markdown).toMatch(
      /^\| methods\.no-path-takes-head-a \| #\/info\/description: No path takes `HEAD`.* \| [1-9]\d* \| [^|]*status_code_conformance/m,
    )
    expect(html).toContain('<section id="promises">')
    expect(html).toContain('methods.no-path-takes-head-a')
    expect(junit).toMatch(
      /<testcase classname="verify.promises" name="methods.no-path-takes-head-a"><\/testcase>/,
    )
    expect(junit).toMatch(
      /<testcase classname="verify.promises" name="newPlant\.[^"]+"><skipped message="needs the newPlant receiver/,
    )
  })
})
