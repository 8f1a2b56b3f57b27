// plant-store-verify --consumer FILE: a consumer's requests, drawn within the bounds its contract
// recorded, replayed against a running store. The kit's packages-test app's contract is the consumer;
// the independent store answers it as the document says, and a copy that leaves the name out of a plant
// read by its id fails on consumer_reads, naming the property the app reads. Its reports are a run's,
// and a team's hooks and checks apply to its requests as to any layer's. A library that pages through
// Link 50 plants at a time gets its second page, and its coverage counts the cursor and only what it
// sends, against a store behind a gate that wants the key its hook assigns.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ConsumerContract, parseContract } from '@plant-store/core'
import { defineCheck, verify } from '@plant-store/verify'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { consumerProbes } from '../cases/consumer-probes.js'
import { consumerReads } from '../checks/consumer-reads.js'
import type { HttpExchange } from '../checks/exchange.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import { loadDocument } from '../document.js'
import { answerOf } from '../http.js'
import { judgeExchange } from '../judge/judge.js'
import { EXACT } from '../judge/plant.js'
import { coverageOf } from '../report/coverage.js'
import { cli } from './command.js'

const file = join(repoRoot, 'contracts/consumers/plant-store-consumer-app.json')
const contract = parseContract(readFileSync(file, 'utf8'), file)
const { operations } = await loadDocument(undefined, 'interface')
const work = mkdtempSync(join(tmpdir(), 'verify-consumer-'))
const started: Started[] = []
const gates: Server[] = []
afterAll(async () => {
  for (const gate of gates) gate.closeAllConnections()
  await Promise.allSettled([
    ...started.map((s) => s.stop()),
    ...gates.map((gate) => new Promise((resolve) => gate.close(resolve))),
  ])
  rmSync(work, { recursive: true, force: true })
})

const create = contract.paths['/plants']?.post
const body = create?.requestBody?.content['application/json']?.schema as {
  properties: Record<string, { minLength?: number; maxLength?: number; minimum?: bigint; maximum?: bigint }>
}

describe("the consumer's requests", () => {
  const plan = consumerProbes(contract, operations, 10, 7)

  it('reach the lowest and the highest of what it sent, and stay within them', () => {
    const creates = plan.probes.filter(({ probe }) => probe.entry.operationId === 'createPlant')
    expect(creates).toHaveLength(12)
    const names = creates.map(({ probe }) => [...(probe.bodyValue as { name: string }).name].length)
    const { minLength = 0, maxLength = 0 } = body.properties.name ?? {}
    expect(names[0]).toBe(minLength)
    expect(names[1]).toBe(maxLength)
    for (const length of names) expect(length).toBeGreaterThanOrEqual(minLength)
    for (const length of names) expect(length).toBeLessThanOrEqual(maxLength)
    const ids = plan.probes
      .filter(({ probe }) => probe.entry.operationId === 'getPlant')
      .map(({ probe }) => probe.id as bigint)
    const id = contract.paths['/plants/{id}']?.get?.parameters?.[0]?.schema as {
      minimum: number
      maximum: bigint
    }
    expect(ids.slice(0, 2)).toEqual([BigInt(id.minimum), id.maximum])
    for (const drawn of ids) expect(drawn >= BigInt(id.minimum) && drawn <= id.maximum).toBe(true)
  })

  it('never make up a cursor, which the server alone makes', () => {
    const lists = plan.probes.filter(({ probe }) => probe.entry.operationId === 'listPlants')
    expect(lists.length).toBeGreaterThan(0)
    for (const { probe } of lists) expect(probe.query.cursor).toBeUndefined()
  })

  it('leave out an operation the document does not have, saying so', () => {
    const moved = structuredClone(contract) as ConsumerContract
    const list = moved.paths['/plants']?.get
    if (!list) throw new Error('the contract lists no plants')
    moved.paths['/gardens'] = { get: { ...list, operationId: 'listGardens' } }
    expect(consumerProbes(moved, operations, 1, 7).missing).toEqual([
      'listGardens (GET /gardens), which the consumer calls: the document has no such operation',
    ])
  })
})

describe('consumer_reads', () => {
  const getPlant = contract.paths['/plants/{id}']?.get
  const listPlants = contract.paths['/plants']?.get
  if (!getPlant || !listPlants) throw new Error('the contract reads no plants')
  const exchangeOf = (
    operation: typeof getPlant | undefined,
    status: number,
    body: string,
  ): HttpExchange => ({
    kind: 'http',
    operation: undefined,
    request: { method: 'GET', path: '/plants' },
    answer: answerOf(status, { 'content-type': 'application/json' }, body),
    judging: EXACT,
    ...(operation ? { consumer: { name: 'app', operation } } : {}),
  })
  const reads = (operation: typeof getPlant | undefined, status: number, body: string) => {
    const exchange = exchangeOf(operation, status, body)
    return consumerReads.appliesTo(exchange) ? consumerReads.run(exchange) : 'not judged'
  }

  it('finds a property the consumer reads missing, or of another type, in an answer or each item of a page', () => {
    expect(reads(getPlant, 200, '{"id":1,"name":"Basil"}')).toEqual([])
    expect(reads(getPlant, 200, '{"id":1}')).toEqual(['the answer lacks name, which app reads'])
    expect(reads(getPlant, 200, '{"id":"1","name":"Basil"}')).toEqual([
      'id is a string, and app reads integer there',
    ])
    expect(reads(listPlants, 200, '[{"id":1,"name":"Basil"},{"id":2}]')).toEqual([
      'the answer lacks [1].name, which app reads',
    ])
    // The one judge names the check that found it.
    expect(judgeExchange(exchangeOf(getPlant, 200, '{"id":1}'), BUILT_IN_CHECKS).findings).toContainEqual({
      check: 'consumer_reads',
      message: 'the answer lacks name, which app reads',
    })
  })

  it('leaves alone a property the document lets be absent, a status the consumer does not handle, and any other exchange', () => {
    expect(reads(getPlant, 200, '{"id":2,"name":"Fern"}')).toEqual([])
    expect(reads(getPlant, 500, '{"nothing":true}')).toBe('not judged')
    expect(reads(undefined, 200, '{"id":1}')).toBe('not judged')
  })
})

function store(bug = '') {
  return startProcess({
    name: `independent store${bug ? ` (${bug})` : ''}`,
    command: process.execPath,
    args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob', BUG: bug },
    listening: /listening on (http:\/\/\S+)/,
  }).then((s) => {
    started.push(s)
    return s
  })
}

describe('against a running store', () => {
  it('passes a store that answers as the document says, getting every status the consumer handles', async () => {
    const { url } = await store()
    // A team's hook adds its key to every request, and its check holds every exchange to it.
    const judged: string[] = []
    const results = await verify({
      baseUrl: url,
      tokens: ['token-alice', 'token-bob'],
      seed: 7,
      consumer: { file, contract, perOperation: 10 },
      config: {
        hooks: {
          beforeRequest: (request) => {
            request.headers['x-team-key'] = 'k'
          },
        },
        checks: [
          defineCheck({
            name: 'team_key',
            description: 'every request carries the team’s key',
            run: ({ request }) => {
              judged.push(request.method)
              return request.headers['x-team-key'] === 'k' ? [] : ['sent without the team’s key']
            },
          }),
        ],
      },
    })
    expect(results.failures.map((f) => `${f.check}: ${f.problems[0]}`)).toEqual([])
    for (const operationId of ['createPlant', 'getPlant', 'listPlants']) {
      const row = results.rows().find((r) => r.operationId === operationId && r.check === 'team_key')
      expect(row?.failed, operationId).toBe(0)
      expect(row?.passed, operationId).toBeGreaterThan(0)
    }
    // The set-up and undo requests too: the contract has no delete, the housekeeping deletes.
    expect(judged).toContain('DELETE')
    for (const [operationId, handled] of [
      ['createPlant', [200, 409]],
      ['getPlant', [200, 404]],
      ['listPlants', [200]],
    ] as const)
      expect(results.statusesSeen(operationId).sort()).toEqual(handled)
    expect(results.rows().some((row) => row.check === 'consumer_reads' && row.passed > 0)).toBe(true)
  }, 120_000)

  it('fails one that leaves out a property the consumer reads, naming it, with the reports of any run', async () => {
    const { url } = await store('read-without-name')
    const json = join(work, 'consumer.json')
    const junit = join(work, 'consumer.xml')
    const run = await runToExit({
      name: 'plant-store-verify --consumer',
      command: process.execPath,
      args: [
        ...cli,
        ...['--base-url', url, '--token', 'token-alice', '--token', 'token-bob', '--seed', '7'],
        ...['--consumer', file, '--json', json, '--junit', junit],
      ],
      env: { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined, GITHUB_ACTIONS: undefined },
      timeoutMs: 120_000,
    })
    expect(run.exit, run.output).toBe(1)
    expect(run.output).toMatch(
      /^✗ consumer_reads — getPlant \(consumer: plant-store-consumer-app's request \d+\)/m,
    )
    expect(run.output).toContain('- the answer lacks name, which plant-store-consumer-app reads')
    expect(run.output).toMatch(
      /replay: {3}plant-store-verify --base-url \S+ --consumer \S+ --seed=7 --case \d+/,
    )
    const report = JSON.parse(readFileSync(json, 'utf8')) as { failures: { check: string; layer: string }[] }
    expect(report.failures.some((f) => f.check === 'consumer_reads' && f.layer === 'consumer')).toBe(true)
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase [^>]*name="[^"]*consumer_reads[^"]*"[^>]*>\s*<failure/,
    )
  }, 120_000)

  it('refuses --consumer with --only, and a file that is not a contract', async () => {
    const command = [...cli, '--base-url', 'http://127.0.0.1:9']
    const tokens = ['--token', 'a', '--token', 'b']
    const env = { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined }
    const only = await runToExit({
      name: 'verify --only',
      command: process.execPath,
      args: [...command, ...tokens, '--consumer', file, '--only', 'examples'],
      env,
      timeoutMs: 60_000,
    })
    expect([only.exit, only.output]).toEqual([
      2,
      expect.stringContaining('--consumer replays the consumer’s requests alone'),
    ])
    const notes = join(work, 'notes.json')
    const bad = await runToExit({
      name: 'verify --consumer notes.json',
      command: process.execPath,
      args: [...command, ...tokens, '--consumer', join(repoRoot, 'package.json')],
      env,
      timeoutMs: 60_000,
    })
    expect(bad.exit).toBe(2)
    expect(bad.output).toMatch(/package\.json is not a consumer contract: its "format" is undefined/)
    const missing = await runToExit({
      name: 'verify --consumer missing',
      command: process.execPath,
      args: [...command, ...tokens, '--consumer', notes],
      env,
      timeoutMs: 60_000,
    })
    expect([missing.exit, missing.output]).toEqual([2, expect.stringContaining(`cannot read ${notes}`)])
  }, 120_000)
})

/**
 * The store behind a gate that answers 403 to a request without the API key, as a team's gateway
 * does; every other request goes on to the store as it came.
 */
async function gated(upstream: string, key: string): Promise<string> {
  const gate = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.headers['x-api-key'] !== key) {
      res.writeHead(403, { 'content-type': 'application/json' })
      res.end('{"error":403,"message":"no API key"}')
      return
    }
    const headers = Object.entries(req.headers).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
    )
    const answer = await fetch(new URL(req.url ?? '/', upstream), {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    })
    const passed = [...answer.headers].filter(
      ([name]) => !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
    )
    res.writeHead(answer.status, Object.fromEntries(passed))
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve))
  gates.push(gate)
  return `http://127.0.0.1:${(gate.address() as AddressInfo).port}`
}

describe('a library consumer that pages through Link, 50 plants a page', () => {
  // Its contract: the app's listing, but always limit=50, and the cursor of each Link it followed.
  const list = structuredClone(contract.paths['/plants']?.get)
  const limit = list?.parameters?.find((p) => p.name === 'limit')
  if (!list || !limit || !list.parameters?.some((p) => p.name === 'cursor'))
    throw new Error('the app’s contract does not page through Link')
  limit.schema = { ...limit.schema, minimum: 50, maximum: 50 }
  const library: ConsumerContract = {
    ...contract,
    consumer: 'paging-library',
    paths: { '/plants': { get: list } },
  }

  it('reads every second page through Link and counts it, with the key its hook assigns', async () => {
    const { url: upstream } = await store()
    const baseUrl = await gated(upstream, 'key-42')
    const sent: string[] = []
    const progress: string[] = []
    const results = await verify({
      baseUrl,
      tokens: ['token-alice', 'token-bob'],
      seed: 7,
      consumer: { file: 'paging-library.json', contract: library, perOperation: 1 },
      config: {
        hooks: {
          // New headers assigned, and the request returned: both are the request the run sends.
          beforeRequest: (request) => {
            sent.push(`${request.method} ${request.url}`)
            request.headers = { ...request.headers, 'x-api-key': 'key-42' }
            return request
          },
        },
      },
      onProgress: (line) => progress.push(line),
    })
    expect(results.stopped).toEqual([])
    expect(results.failures.map((f) => `${f.check}: ${f.problems[0]}`)).toEqual([])
    // Its lowest, highest and one drawn request, each a first page of 50 and a second through Link.
    const firstPages = sent.filter((r) => /^GET \S+\/plants\?limit=50$/.test(r))
    const secondPages = sent.filter((r) => /^GET \S+\/plants\?limit=50&cursor=[^&]+$/.test(r))
    expect(firstPages).toHaveLength(3)
    expect(secondPages).toHaveLength(firstPages.length)
    // The store had no plants: the run made 51 of its own, and deleted them.
    expect(sent.filter((r) => r.startsWith('POST '))).toHaveLength(51)
    const left = await fetch(`${upstream}/plants`, { headers: { authorization: 'Bearer token-alice' } })
    expect(await left.json()).toEqual([])
    // The coverage counts the cursor its pages carried, and not the tag it never sends.
    const coverage = coverageOf(results, operations)
    expect(coverage.operations.map((o) => [o.operationId, o.parameters])).toEqual([
      [
        'listPlants',
        [
          { name: 'limit', in: 'query', exercised: true },
          { name: 'cursor', in: 'query', exercised: true },
        ],
      ],
    ])
    expect(coverage.percent).toBe(100)
    // The progress line counts the requests the consumer's run sent, the plants set up included.
    const ownStart = sent.findIndex((r) => r.startsWith('POST '))
    expect(progress).toContain(
      'consumer paging-library: 51 requests sent, creating 51 plants, so that its pages of 50 reach a second',
    )
    expect(progress.at(-1)).toBe(
      `consumer paging-library: ${sent.length - ownStart} requests sent, deleting the run’s plants`,
    )
  }, 120_000)

  it('says with --read-only that its pages past the first were not read, creating none', async () => {
    const { url } = await store()
    const sent: string[] = []
    const results = await verify({
      baseUrl: url,
      tokens: ['token-alice', 'token-bob'],
      seed: 7,
      readOnly: true,
      consumer: { file: 'paging-library.json', contract: library, perOperation: 1 },
      config: { hooks: { beforeRequest: (request) => void sent.push(request.method) } },
    })
    expect(results.failures.map((f) => `${f.check}: ${f.problems[0]}`)).toEqual([])
    expect(new Set(sent)).toEqual(new Set(['GET']))
    expect(results.notes).toContain(
      'consumer paging-library: its pages past the first were not read, as the caller has no more plants than a page of its holds and --read-only creates none',
    )
  }, 60_000)
})
