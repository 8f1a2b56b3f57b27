// `plant-store-verify`'s reports for people and tools (JSON, one HTML page), its coverage and
// --min-coverage, its GitHub Actions annotations and its progress in a log that is not a terminal.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDocument } from '../document.js'
import { escapeData, escapeProperty, githubAnnotations, ProgressLog } from '../report/ci.js'
import { coverageOf, parametersOf } from '../report/coverage.js'
import { meets } from '../report/coverage-summary.js'
import type { JsonReport } from '../report/json.js'
import { REPORTERS } from '../report/reports.js'
import { Results } from '../report/results.js'
import { checksNamed, commandTests } from './command.js'

const { store, run, work } = commandTests()

describe('reports, coverage and CI output', () => {
  const tokens = { VERIFY_TOKENS: 'token-alice,token-bob' }
  const quick = ['--requests', '60', '--sequences', '6', '--seed', '11']
  let buggy: { exit: unknown; output: string; stderr: string }
  let jsonFile = ''
  let htmlFile = ''

  // One run against a server with a bug, with every report and as a GitHub Actions step.
  beforeAll(async () => {
    const server = await store('tag-filter-ignored')
    jsonFile = join(work(), 'verify.json')
    htmlFile = join(work(), 'verify.html')
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
    // The percentage counts the promises judged, of those a request can show.
    const showable = report.promises.filter((p) => !p.untestable)
    expect(coverage).toMatchObject({ counts: 'promises judged', total: showable.length })
    expect(coverage.exercised).toBe(showable.filter((p) => p.requests > 0 && p.checks.length > 0).length)
    expect(coverage.statuses.exercised).toBeGreaterThan(0)
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
      checksNamed('store_conformance'),
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
    const html = REPORTERS.html.render({
      results,
      coverage: coverageOf(results),
      title: 'Verification of http://x/<y>',
      baseUrl: 'http://x/<y>',
      durationMs: 1,
      met: true,
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
      checksNamed('status_code_conformance'),
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

  it('measures the promises judged, so that the examples alone fall well below a full run', async () => {
    const server = await store()
    const env = { VERIFY_BASE_URL: server.url, ...tokens }
    const coverageOfRun = async (name: string, args: string[]) => {
      const file = join(work(), `${name}.json`)
      const { exit, output } = await run([...quick, ...args, '--json', file], env)
      expect(exit, output).toBe(0)
      const report = JSON.parse(await readFile(file, 'utf8')) as JsonReport
      const showable = report.promises.filter((p) => !p.untestable)
      const judged = showable.filter((p) => p.requests > 0 && p.checks.length > 0)
      expect(report.coverage).toMatchObject({
        counts: 'promises judged',
        exercised: judged.length,
        total: showable.length,
      })
      expect(output).toContain(`${judged.length} of ${showable.length} promises judged`)
      return report.coverage.percent
    }
    const full = await coverageOfRun('full', [])
    const examples = await coverageOfRun('examples', ['--only', 'examples'])
    expect(full).toBeGreaterThan(60)
    expect(full - examples).toBeGreaterThan(25)
  }, 120_000)

  it('files a failure under the promise its case was built to test, not every promise its request touched', async () => {
    const server = await store('other-principal-readable')
    const junitFile = join(work(), 'crossed.junit.xml')
    const json = join(work(), 'crossed.json')
    const crossed = await run(['--only', 'security', '--junit', junitFile, '--json', json], {
      VERIFY_BASE_URL: server.url,
      ...tokens,
    })
    expect(crossed.exit, crossed.output).toBe(1)
    const { promises } = JSON.parse(await readFile(json, 'utf8')) as JsonReport
    const of = (id: string) => promises.find((p) => p.id === id)
    // The second principal's reads of the first's plant name a plant id, but were sent to test isolation.
    expect(of('principals.a-principal-sees-and-changes')?.failed).toBeGreaterThan(0)
    expect(of('PlantId.format')).toMatchObject({ failed: 0 })
    expect(of('PlantId.format')?.requests).toBeGreaterThan(0)
    const junit = await readFile(junitFile, 'utf8')
    const testcase = (name: string) =>
      new RegExp(
        `<testcase classname="verify\\.promises" name="${name.replace(/\./g, '\\.')}">(<failure)?`,
      ).exec(junit)
    expect(testcase('principals.a-principal-sees-and-changes')?.[1]).toBe('<failure')
    expect(testcase('PlantId.format')).not.toBeNull()
    expect(testcase('PlantId.format')?.[1]).toBeUndefined()
  }, 120_000)

  it('counts the statuses answered and the parameters judged requests carried', async () => {
    const { operations } = await loadDocument(undefined, 'kit')
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
      checksNamed('status_code_conformance', 'store_conformance'),
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
