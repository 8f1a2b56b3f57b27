// What the verifier's reports say, run or replay: `--replay` writes the JSON, JUnit, Markdown and HTML
// reports a run writes (a difference from the recording a failure of recording_conformance), and a
// report says once what no run can have a server answer on demand, not once per operation and status.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verify } from '@plant-store/verify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadDocument } from '../document.js'
import { startProxy } from '../proxy/proxy.js'
import { coverageOf } from '../report/coverage.js'
import { notExercisedLines } from '../report/coverage-summary.js'
import type { JsonReport } from '../report/json.js'
import { REPORTERS } from '../report/reports.js'
import { cli } from './command.js'

const started: Started[] = []
let work = ''

function store() {
  return startProcess({
    name: 'independent store',
    command: process.execPath,
    args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob' },
    listening: /listening on (http:\/\/\S+)/,
  }).then((s) => {
    started.push(s)
    return s
  })
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-store-verify-reports-'))
})
afterAll(async () => {
  await Promise.allSettled(started.map((s) => s.stop()))
  if (work) await rm(work, { recursive: true, force: true })
})

describe('--replay', () => {
  let har = ''

  // A recording of a create, a page, a read and a delete through the proxy in front of one store.
  beforeAll(async () => {
    const recorded = await store()
    har = join(work, 'traffic.har')
    const front = await startProxy({ upstream: recorded.url, record: { file: har }, onDeparture: () => {} })
    try {
      const call = (method: string, path: string, body?: string) =>
        fetch(`${front.url}${path}`, {
          method,
          headers: {
            authorization: 'Bearer token-alice',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body }),
        }).then((r) => r.text())
      await call('POST', '/plants', '{"id":9007199254740993,"name":"Basil","tag":"herb"}')
      await call('GET', '/plants?limit=10')
      await call('GET', '/plants/9007199254740993')
      await call('DELETE', '/plants/9007199254740993')
      await call('GET', '/plants/9007199254740993')
    } finally {
      await front.close()
    }
  }, 60_000)

  const replay = async (file: string) => {
    const target = await store()
    const out = (name: string) => join(work, `${name}-${started.length}`)
    const files = { json: out('r.json'), junit: out('r.xml'), report: out('r.md'), html: out('r.html') }
    const result = await runToExit({
      name: 'plant-store-verify --replay',
      command: process.execPath,
      args: [
        ...cli,
        ...['--replay', file],
        ...['--base-url', target.url, '--token', 'token-alice'],
        ...['--json', files.json, '--junit', files.junit, '--report', files.report, '--html', files.html],
      ],
      env: { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined, GITHUB_ACTIONS: undefined },
      timeoutMs: 60_000,
    })
    const read = async (name: keyof typeof files) => readFile(files[name], 'utf8')
    return { ...result, json: JSON.parse(await read('json')) as JsonReport, read }
  }

  it('writes the JSON, JUnit, Markdown and HTML reports a run writes', async () => {
    const { exit, output, json, read } = await replay(har)
    expect(exit, output).toBe(0)
    expect(json).toMatchObject({ tool: 'plant-store-verify', passed: true, requests: 5, failures: [] })
    expect(json.recording).toBe(har)
    expect(json.seed).toBeUndefined()
    expect(json.rows).toContainEqual(
      expect.objectContaining({ operationId: 'createPlant', check: 'recording_conformance', passed: 1 }),
    )
    expect(json.rows).toContainEqual(
      expect.objectContaining({ operationId: 'getPlant', check: 'response_schema_conformance', passed: 2 }),
    )
    expect(json.coverage.operations.find((o) => o.operationId === 'getPlant')?.statuses).toContainEqual({
      status: 404,
      exercised: true,
    })
    expect(await read('junit')).toMatch(
      /<testsuites name="plant-store-verify" tests="\d+" failures="0"[\s\S]*classname="verify\.deletePlant" name="recording_conformance"/,
    )
    const markdown = await read('report')
    expect(markdown).toMatch(/^# Replay of .*traffic\.har against http:\/\/127\.0\.0\.1:\d+\n/)
    expect(markdown).toContain('| listPlants | recording_conformance | 1 | 0 |')
    const html = await read('html')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('class="summary passed"')
    expect(html).toContain('<dt>recording</dt>')
  }, 120_000)

  it('reports a difference from the recording as a failure of recording_conformance, in every report', async () => {
    const text = await readFile(har, 'utf8')
    // The recorded read of the deleted plant said 404; say it answered 200 with the plant.
    const changed = JSON.parse(text) as { log: { entries: { response: { status: number } }[] } }
    const last = changed.log.entries.at(-1)
    if (!last) throw new Error('the recording has no exchange')
    last.response.status = 200
    const file = join(work, 'changed.har')
    await writeFile(file, JSON.stringify(changed))
    const { exit, json, read } = await replay(file)
    expect(exit).toBe(1)
    expect(json.passed).toBe(false)
    expect(json.failures).toContainEqual(
      expect.objectContaining({
        layer: 'replay',
        operationId: 'getPlant',
        check: 'recording_conformance',
        title: 'exchange 5',
        problems: [expect.stringMatching(/^status 404, recorded 200/)],
        replay: expect.stringMatching(/^plant-store-verify --replay .*changed\.har --base-url /),
      }),
    )
    expect(await read('junit')).toMatch(/failures="1"[\s\S]*name="recording_conformance"><failure/)
    expect(await read('report')).toContain('✗ recording_conformance — getPlant (replay: exchange 5)')
    expect(await read('html')).toContain('class="summary failed"')
  }, 120_000)
})

describe('what no run can have a server answer on demand', () => {
  it('is said once in a report, not once per operation and status', async () => {
    const target = await store()
    const results = await verify({
      baseUrl: target.url,
      tokens: ['token-alice', 'token-bob'],
      only: ['examples'],
    })
    expect(results.failures).toEqual([])
    const { operations } = await loadDocument(undefined, 'interface')
    const coverage = coverageOf(results, operations)
    const onDemand = /on demand/
    const said = (text: string) => text.match(/on demand/g)?.length ?? 0
    // Every operation's 429, 500 and 503 are among them, and said in one line.
    const lines = notExercisedLines(coverage).filter((line) => onDemand.test(line))
    expect(lines).toHaveLength(1)
    for (const id of ['listPlants', 'createPlant', 'getPlant', 'replacePlant', 'deletePlant'])
      expect(lines[0]).toContain(`${id} 429, 500, 503`)
    expect(results.notes.join('\n')).not.toMatch(onDemand)
    const run = { results, coverage, title: 'r', baseUrl: target.url, durationMs: 1, met: true }
    expect(said(REPORTERS.markdown.render(run))).toBe(1)
    expect(said(REPORTERS.html.render(run))).toBe(1)
    // Each status still says why, for tools.
    const list = coverage.operations.find((o) => o.operationId === 'listPlants')
    expect(list?.statuses.find((s) => s.status === 503)?.reason).toMatch(onDemand)
  }, 120_000)
})
