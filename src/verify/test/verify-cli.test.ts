// `plant-store-verify` as a team runs it in CI: its exit status (0 agreed, 1 departed, 2 a usage error
// or no server), its options and environment, its reports, a replay command that reproduces the
// failure it is printed with, and a run against a server whose principals already own plants, which
// leaves those plants as they were and nothing of its own behind. Its reports for people and tools
// (JSON, one HTML page), its coverage and --min-coverage, its GitHub Actions annotations and its
// progress in a log that is not a terminal.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verify } from '@plant-store/verify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadDocument } from '../document.js'
import { escapeData, escapeProperty, githubAnnotations, ProgressLog } from '../report/ci.js'
import { coverageOf, parametersOf } from '../report/coverage.js'
import { meets } from '../report/coverage-summary.js'
import { htmlReport } from '../report/html.js'
import type { JsonReport } from '../report/json.js'
import { Results } from '../report/results.js'

const cli = ['--import', 'tsx', join(repoRoot, 'src/verify/cli.ts')]
const TOKENS = 'alice=token-alice,bob=token-bob'
const started: Started[] = []
let work = ''

function store(bug = '') {
  return startProcess({
    name: `independent store${bug ? ` (${bug})` : ''}`,
    command: process.execPath,
    args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
    env: { PORT: '0', TOKENS, BUG: bug },
    listening: /listening on (http:\/\/\S+)/,
  }).then((s) => {
    started.push(s)
    return s
  })
}

function run(args: string[], env: Record<string, string> = {}) {
  let stderr = ''
  return runToExit({
    name: 'plant-store-verify',
    command: process.execPath,
    args: [...cli, ...args],
    // Not in GitHub Actions unless a test says so, wherever the tests run.
    env: { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined, GITHUB_ACTIONS: undefined, ...env },
    timeoutMs: 240_000,
    onOutput: (chunk, stream) => {
      if (stream === 'stderr') stderr += chunk
    },
  }).then((result) => ({ ...result, stderr }))
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const small = ['--requests', '150', '--sequences', '15', '--seed', '7']

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-store-verify-'))
})
afterAll(async () => {
  await Promise.allSettled(started.map((s) => s.stop()))
  if (work) await rm(work, { recursive: true, force: true })
})

describe('plant-store-verify', () => {
  it('prints the interface a store keeps, or with --profile kit the whole document', async () => {
    const plain = await run(['--print-document'])
    expect(plain.exit).toBe(0)
    const view = JSON.parse(plain.output) as { paths: Record<string, unknown>; info: Record<string, unknown> }
    expect(Object.keys(view.paths).sort()).toEqual(['/plants', '/plants/{id}'])
    expect(view.info['x-kit-profile']).toBeUndefined()
    const whole = await run(['--print-document', '--profile', 'kit'])
    expect(Object.keys((JSON.parse(whole.output) as { paths: object }).paths)).toContain('/healthz')
  })

  it('lists every option and check in --help, and exits 0', async () => {
    const { exit, output } = await run(['--help'])
    expect(exit).toBe(0)
    const source = await readFile(join(repoRoot, 'src/verify/cli.ts'), 'utf8')
    const options = [...source.matchAll(/^ {6}'?([a-z-]+)'?: \{ type:/gm)].map((m) => m[1])
    expect(options.length).toBeGreaterThan(15)
    for (const option of options) expect(output).toContain(`--${option}`)
    for (const check of ['status_code_conformance', 'create_read_back', 'principal_isolation'])
      expect(output).toContain(check)
  })

  it('exits 2 with one line for a usage error and for a server that cannot be reached', async () => {
    const oneToken = await run(['--base-url', 'http://127.0.0.1:9', '--token', 'a'])
    expect(oneToken.exit).toBe(2)
    expect(oneToken.output.trim().split('\n')).toHaveLength(1)
    expect(oneToken.output).toMatch(/two tokens/)
    const unknown = await run([
      '--base-url',
      'http://127.0.0.1:9',
      '--token',
      'a',
      '--token',
      'b',
      '--only',
      'everything',
    ])
    expect(unknown.exit).toBe(2)
    expect(unknown.output).toMatch(/unknown layer everything/)
    const base = ['--base-url', 'http://127.0.0.1:9', '--token', 'a', '--token', 'b']
    const noSecret = await run([...base, '--webhook-listen', '0'])
    expect([noSecret.exit, noSecret.output]).toEqual([2, expect.stringMatching(/needs the secret/)])
    const noReceiver = await run([...base, '--webhook-secret', 'whsec_AAAA'])
    expect([noReceiver.exit, noReceiver.output]).toEqual([
      2,
      expect.stringMatching(/go with --webhook-listen/),
    ])
    const badPort = await run([...base, '--webhook-listen', '70000', '--webhook-secret', 'whsec_AAAA'])
    expect([badPort.exit, badPort.output]).toEqual([2, expect.stringMatching(/port from 0 to 65535/)])
    const port = await closedPort()
    const nothing = await run(['--base-url', `http://127.0.0.1:${port}`, '--token', 'a', '--token', 'b'])
    expect(nothing.exit).toBe(2)
    expect(nothing.output.trim().split('\n')).toHaveLength(1)
    expect(nothing.output).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)
    // Seven runs of the command, each a Node process of its own: a busy machine may take a while.
  }, 90_000)

  it('exits 0 against a correct server, taking VERIFY_BASE_URL and VERIFY_TOKENS, and writes its reports', async () => {
    const server = await store()
    const junit = join(work, 'verify.junit.xml')
    const report = join(work, 'verify.md')
    const { exit, output } = await run([...small, '--junit', junit, '--report', report], {
      VERIFY_BASE_URL: server.url,
      VERIFY_TOKENS: 'token-alice,token-bob',
    })
    expect(exit, output).toBe(0)
    expect(output).toMatch(/Every answer agreed with the document: \d+ requests/)
    expect(await readFile(junit, 'utf8')).toMatch(
      /<testsuites name="plant-store-verify" tests="\d+" failures="0"/,
    )
    expect(await readFile(report, 'utf8')).toContain('| listPlants | link_conformance |')
  })

  it('exits 1 against a server with a bug, and each printed replay command reproduces its failure', async () => {
    const server = await store('tag-filter-ignored')
    const { exit, output } = await run([...small], {
      VERIFY_BASE_URL: server.url,
      VERIFY_TOKENS: 'token-alice,token-bob',
    })
    expect(exit, output).toBe(1)
    expect(output).toMatch(/✗ store_conformance — listPlants/)
    const replays = [...output.matchAll(/^ {2}replay: {3}plant-store-verify (.+)$/gm)].map(
      (m) => m[1] as string,
    )
    expect(replays.length).toBeGreaterThan(0)
    // The first replay of each layer: run as the shell would, with the tokens from the environment.
    const byLayer = new Map(replays.map((r) => [/--only (\w+)/.exec(r)?.[1], r]))
    for (const replay of byLayer.values()) {
      const again = await runToExit({
        name: 'replay',
        command: 'sh',
        args: ['-c', `"${process.execPath}" ${cli.map((a) => `"${a}"`).join(' ')} ${replay}`],
        env: { VERIFY_TOKENS: 'token-alice,token-bob' },
        timeoutMs: 240_000,
      })
      expect(again.exit, `${replay}\n${again.output}`).toBe(1)
      expect(again.output).toContain('listPlants')
    }
    // A run and one replay per layer that failed (examples, generated, stateful), each a Node process.
  }, 120_000)
})

describe('a server whose principals already own plants', () => {
  const plant = (id: string, name: string) => ({
    method: 'POST',
    headers: { authorization: 'Bearer token-alice', 'content-type': 'application/json' },
    body: `{"id":${id},"name":"${name}"}`,
  })
  const list = async (url: string, token: string) =>
    (await fetch(`${url}/plants?limit=100`, { headers: { authorization: `Bearer ${token}` } })).text()

  it('keeps them as they were, read-only or not, and leaves nothing of its own', async () => {
    const server = await store()
    for (const [id, name] of [
      ['1', 'Basil'],
      ['2', 'Fern'],
      ['9007199254740993', 'Big'],
    ])
      expect((await fetch(`${server.url}/plants`, plant(id as string, name as string))).status).toBe(200)
    const before = [await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]

    const readOnly = await verify({
      baseUrl: server.url,
      tokens: ['token-alice', 'token-bob'],
      readOnly: true,
      requests: 200,
      seed: 3,
    })
    expect(readOnly.failures.map((f) => readOnly.failureText(f))).toEqual([])
    expect([await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]).toEqual(before)

    const full = await verify({
      baseUrl: server.url,
      tokens: ['token-alice', 'token-bob'],
      requests: 300,
      sequences: 30,
      seed: 4,
    })
    expect(full.failures.map((f) => full.failureText(f))).toEqual([])
    expect(full.notes.join('\n')).toMatch(/owned 3 and 0 plants before the run/)
    expect([await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]).toEqual(before)
  }, 240_000)
})

describe('reports, coverage and CI output', () => {
  const tokens = { VERIFY_TOKENS: 'token-alice,token-bob' }
  const quick = ['--requests', '60', '--sequences', '6', '--seed', '11']
  let buggy: { exit: unknown; output: string; stderr: string }
  let jsonFile = ''
  let htmlFile = ''

  // One run against a server with a bug, with every report and as a GitHub Actions step.
  beforeAll(async () => {
    const server = await store('tag-filter-ignored')
    jsonFile = join(work, 'verify.json')
    htmlFile = join(work, 'verify.html')
    buggy = await run([...quick, '--json', jsonFile, '--html', htmlFile], {
      VERIFY_BASE_URL: server.url,
      ...tokens,
      GITHUB_ACTIONS: 'true',
    })
  }, 120_000)

  it('writes the whole result as JSON: rows, failures, notes, coverage, seed, requests, duration', async () => {
    expect(buggy.exit, buggy.output).toBe(1)
    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as JsonReport
    expect(report).toMatchObject({ tool: 'plant-store-verify', passed: false, seed: 11 })
    expect(report.requests).toBeGreaterThan(60)
    expect(report.durationMs).toBeGreaterThan(0)
    expect(report.rows).toContainEqual(
      expect.objectContaining({ operationId: 'listPlants', check: 'store_conformance' }),
    )
    const failure = report.failures.find(
      (f) => f.operationId === 'listPlants' && f.check === 'store_conformance',
    )
    expect(failure).toMatchObject({
      problems: [expect.any(String)],
      request: expect.stringMatching(/^GET \/plants/),
      answer: expect.stringMatching(/^200 /),
      document: expect.any(String),
      replay: expect.stringMatching(/^plant-store-verify --base-url /),
      times: expect.any(Number),
    })
    expect(report.failedAnswers).toBeGreaterThanOrEqual(report.failures.length)
    expect(report).toMatchObject({ warnings: expect.any(Array), notes: expect.any(Array), stopped: [] })
    const { coverage } = report
    expect(coverage.total).toBe(coverage.statuses.total + coverage.parameters.total)
    expect(coverage.exercised).toBe(coverage.statuses.exercised + coverage.parameters.exercised)
    expect(coverage.percent).toBe(Math.floor((coverage.exercised * 1000) / coverage.total) / 10)
    const list = coverage.operations.find((o) => o.operationId === 'listPlants')
    expect(list?.statuses).toContainEqual({ status: 200, exercised: true })
    expect(list?.statuses).toContainEqual(
      expect.objectContaining({ status: 503, exercised: false, reason: expect.stringMatching(/on demand/) }),
    )
    expect(list?.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:cursor',
      'query:limit',
      'query:tag',
    ])
    expect(list?.checks).toContainEqual(
      expect.objectContaining({ check: 'store_conformance', state: 'failed' }),
    )
    expect(buggy.output).toContain(`Coverage ${coverage.percent.toFixed(1)}%`)
  })

  it('writes one self-contained HTML page, each failure expandable in a <details>', async () => {
    const html = await readFile(htmlFile, 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<style>')
    // Nothing from anywhere else: no script, stylesheet, font or image, no URL in any src or href.
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i)
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i)
    const details = [...html.matchAll(/<details class="failure">([\s\S]*?)<\/details>/g)].map(
      (m) => m[1] ?? '',
    )
    const failure = details.find((d) => d.includes('store_conformance') && d.includes('listPlants'))
    expect(failure).toBeDefined()
    for (const part of ['request', 'answer', 'document', 'replay'])
      expect(failure).toContain(`<dt>${part}</dt>`)
    // The run's text is escaped: the request's `<case token>` and the answer's quotes.
    expect(failure).toContain('&lt;case token&gt;')
    expect(failure).not.toContain('<case token>')
    expect(failure).toContain('&quot;name&quot;')
    expect(html).toMatch(/class="summary failed"/)
  })

  it('escapes whatever the run found in the HTML page', () => {
    const results = new Results(
      [{ operationId: 'listPlants', statuses: [200] }],
      new Set(['store_conformance']),
    )
    results.record({
      layer: 'generated',
      operationId: 'listPlants',
      checks: ['store_conformance'],
      findings: [{ check: 'store_conformance', message: '<script>alert(1)</script> & "more"' }],
      status: 200,
      title: '<b>title</b>',
      request: "GET /plants?tag='<img src=x>'",
      answer: '200 <svg onload=1>',
      document: '200',
      replay: 'plant-store-verify --case "<x>"',
    })
    results.warn('a <warning> & more')
    results.notes.push('a <note>')
    const html = htmlReport(results, {
      baseUrl: 'http://x/<y>',
      durationMs: 1,
      coverage: coverageOf(results),
    })
    expect(html).not.toMatch(/<script|<img|<svg|<b>|<x>|<y>|<warning>|<note>/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;')
    expect(html).toContain('&#39;&lt;img src=x&gt;&#39;')
  })

  it('annotates each distinct failure for GitHub Actions, with its check, operation and first problem', () => {
    const annotations = buggy.output.split('\n').filter((line) => line.startsWith('::'))
    expect(annotations.length).toBeGreaterThan(0)
    for (const line of annotations) expect(line).toMatch(/^::(?:error title=[^:]+|warning)::\S/)
    expect(annotations).toContainEqual(
      expect.stringMatching(/^::error title=store_conformance — listPlants::\S/),
    )

    const results = new Results(
      [{ operationId: 'getPlant', statuses: [200] }],
      new Set(['status_code_conformance']),
    )
    results.record({
      layer: 'examples',
      operationId: 'getPlant',
      checks: ['status_code_conformance'],
      findings: [
        { check: 'status_code_conformance', message: 'status 500, 100% wrong:\nsecond line\r\nthird' },
      ],
      status: 500,
      title: 't',
      request: 'GET /plants/1',
      answer: '500',
      document: '200',
      replay: 'r',
    })
    results.warn('an undocumented property, 50% of answers\nsecond line')
    expect(githubAnnotations(results)).toEqual([
      '::error title=status_code_conformance — getPlant::status 500, 100%25 wrong: second line',
      '::warning::an undocumented property, 50%25 of answers%0Asecond line',
    ])
    expect(escapeData('a%b\r\nc')).toBe('a%25b%0D%0Ac')
    expect(escapeProperty('a: b, c')).toBe('a%3A b%2C c')
  })

  it('prints a plain progress line, no escape codes, when stderr is not a terminal', () => {
    expect(buggy.stderr).toMatch(/^verify: .+ \(\d+ s\)$/m)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no escape code may reach a log
    expect(buggy.stderr).not.toMatch(/\x1b|\r/)
  })

  it('prints progress at most once an interval, and repeats the last line while nothing new comes', async () => {
    let now = 0
    const lines: string[] = []
    const log = new ProgressLog(
      (line) => lines.push(line),
      5000,
      () => now,
    )
    log.update('examples 1/40')
    now = 1000
    log.update('examples 9/40')
    expect(lines).toEqual(['verify: examples 1/40 (0 s)'])
    now = 5000
    log.update('\u001b[Kgenerated 50/2000')
    expect(lines).toEqual(['verify: examples 1/40 (0 s)', 'verify: generated 50/2000 (5 s)'])
    // A wait (a Retry-After) reports nothing new: the timer repeats the last line.
    const waiting = new ProgressLog((line) => lines.push(line), 40).start()
    waiting.update('generated 451/2000')
    await new Promise((resolve) => setTimeout(resolve, 150))
    waiting.stop()
    expect(lines.filter((l) => l.startsWith('verify: generated 451/2000')).length).toBeGreaterThanOrEqual(2)
  })

  it('fails a run under --min-coverage with one line, passes one at or above it, and refuses a bad value', async () => {
    const server = await store()
    const env = { VERIFY_BASE_URL: server.url, ...tokens }
    const examples = ['--only', 'examples']
    const under = await run([...examples, '--min-coverage', '100'], env)
    expect(under.exit, under.output).toBe(1)
    expect(under.output).toMatch(/Every answer agreed with the document/)
    expect(under.output).toMatch(
      /^plant-store-verify: coverage \d+\.\d% is below the minimum of 100% \(--min-coverage\)/m,
    )
    const over = await run([...examples, '--min-coverage', '1%'], env)
    expect(over.exit, over.output).toBe(0)
    expect(over.output).not.toMatch(/below the minimum/)
    const bad = await run([...examples, '--min-coverage', 'most'], env)
    expect([bad.exit, bad.output.trim()]).toEqual([
      2,
      'plant-store-verify: --min-coverage takes a percentage from 0 to 100, not most (see --help)',
    ])
  }, 120_000)

  it('counts the statuses answered and the parameters judged requests carried', async () => {
    const { operations } = await loadDocument()
    const list = operations.find((e) => e.operationId === 'listPlants')
    const create = operations.find((e) => e.operationId === 'createPlant')
    if (!list || !create) throw new Error('the document has no listPlants or createPlant')
    const request = { method: 'GET', auth: { kind: 'principal' } } as const
    expect(parametersOf(list, { ...request, path: '/plants?limit=2&tag=herb&other=1' })).toEqual([
      'limit',
      'tag',
    ])
    expect(
      parametersOf(create, { ...request, path: '/plants', body: '{"id":1,"name":"Fern","x":2}' }),
    ).toEqual(['id', 'name'])
    expect(parametersOf(create, { ...request, path: '/plants', body: '{"id":1,' })).toEqual([])

    const results = new Results(
      [
        { operationId: 'listPlants', statuses: [200, 401] },
        { operationId: 'createPlant', statuses: [200] },
      ],
      new Set(['status_code_conformance', 'store_conformance']),
    )
    const judged = {
      layer: 'generated' as const,
      checks: ['status_code_conformance' as const],
      findings: [],
      title: 't',
      request: 'r',
      answer: 'a',
      document: 'd',
      replay: 'p',
    }
    results.record({ ...judged, operationId: 'listPlants', status: 200, parameters: ['limit'] })
    results.carried('createPlant', ['name', 'tag'])
    results.notes.push('not exercised: listPlants · noToken (a reason)')
    const coverage = coverageOf(results, operations)
    // listPlants: 1 of 2 statuses, 1 of 3 parameters; createPlant: 0 of 1 status, 2 of 3 properties.
    expect(coverage).toMatchObject({
      statuses: { exercised: 1, total: 3 },
      parameters: { exercised: 3, total: 6 },
      exercised: 4,
      total: 9,
      percent: 44.4,
      checks: { passed: 1, failed: 0, notJudged: 3 },
    })
    expect(coverage.operations[0]?.statuses[1]).toMatchObject({ status: 401, exercised: false })
    expect(meets(coverage, 44.4)).toBe(true)
    expect(meets(coverage, 44.5)).toBe(false)
  })
})
