// The reports: one run rendered by every format's reporter, and the formats a command's options and
// environment ask for, chosen in one place and written where each goes.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadPromises } from '../promises/coverage.js'
import { coverageOf } from '../report/coverage.js'
import type { ReportedRun } from '../report/reporter.js'
import { REPORTERS, reportsAsked, writeReports } from '../report/reports.js'
import { Results } from '../report/results.js'
import { checksNamed } from './command.js'

const linkConformance = [{ name: 'link_conformance', description: 'Link is as documented' }]

function failedRun(): ReportedRun {
  const results = new Results([{ operationId: 'listPlants', statuses: [200, 401] }], linkConformance)
  results.record({
    layer: 'generated',
    operationId: 'listPlants',
    checks: ['link_conformance'],
    findings: [{ check: 'link_conformance', message: 'no plant follows, but Link says </plants?cursor=x>' }],
    status: 200,
    title: 'request 3',
    request: 'GET /plants?limit=1',
    answer: '200 application/json []',
    document: '200, no Link',
    replay: 'plant-store-verify --case 3',
  })
  results.seed = 5
  const coverage = coverageOf(results)
  return {
    results,
    coverage,
    title: 'Verification of <store>',
    baseUrl: 'http://x',
    durationMs: 1200,
    met: true,
  }
}

/** A run of the security layer alone, in which a second principal read the first's plant. */
async function crossedRun(): Promise<ReportedRun> {
  const results = new Results(
    [
      { operationId: 'listPlants', statuses: [200] },
      { operationId: 'getPlant', statuses: [200, 404] },
    ],
    checksNamed('link_conformance', 'principal_isolation', 'status_code_conformance', 'store_conformance'),
  )
  const answer = { title: 't', request: 'r', answer: 'a', document: 'd', replay: 'p' }
  results.record({
    ...answer,
    layer: 'security',
    operationId: 'getPlant',
    status: 200,
    kinds: ['other principal'],
    parameters: ['id'],
    checks: ['principal_isolation', 'status_code_conformance'],
    findings: [{ check: 'principal_isolation', message: 'the first principal’s plant, to the second' }],
  })
  results.record({
    ...answer,
    layer: 'security',
    operationId: 'listPlants',
    status: 200,
    kinds: ['other principal'],
    checks: ['store_conformance'],
    findings: [],
  })
  const coverage = coverageOf(results, [], await loadPromises())
  return { results, coverage, title: 'crossed', baseUrl: 'http://x', durationMs: 1, met: true }
}

const work = await mkdtemp(join(tmpdir(), 'plant-store-reporters-'))
afterAll(() => rm(work, { recursive: true, force: true }))

describe('the reporters', () => {
  it('render the same run in every format: its verdict, its failure and what was not exercised', () => {
    const run = failedRun()
    const text = REPORTERS.text.render(run)
    expect(text).toContain('✗ link_conformance — listPlants (generated: request 3)')
    expect(text).toMatch(/1 answer\(s\) departed from the document: 0 requests in 1\.2 s.*\(seed 5\)\.\n$/)
    expect(REPORTERS.markdown.render(run)).toMatch(/^# Verification of <store>\n\n\*\*1 answer\(s\) departed/)
    const junit = REPORTERS.junit.render(run)
    expect(junit).toMatch(/<testsuites name="plant-store-verify" tests="2" failures="1" skipped="1">/)
    expect(junit).toContain('<testsuite name="Verification of &lt;store&gt;"')
    expect(junit).toContain('name="listPlants 401"><skipped')
    const json = JSON.parse(REPORTERS.json.render(run)) as { passed: boolean; failures: unknown[] }
    expect(json).toMatchObject({
      passed: false,
      failures: [expect.objectContaining({ check: 'link_conformance' })],
    })
    expect(REPORTERS.html.render(run)).toContain('<title>Verification of &lt;store&gt;</title>')
    expect(REPORTERS.github.render(run)).toBe(
      '::error title=link_conformance — listPlants::no plant follows, but Link says </plants?cursor=x>\n',
    )
  })

  it('list in the HTML the promises failed, then those not exercised, then the rest; the judged checks first', async () => {
    const run = await crossedRun()
    const html = REPORTERS.html.render(run)
    const byId = new Map((run.coverage.promises ?? []).map((p) => [p.id, p]))
    const rank = (id: string) => {
      const p = byId.get(id)
      return !p ? -1 : p.failed ? 0 : p.untestable ? 3 : p.requests ? 2 : 1
    }
    const promises = html.slice(html.indexOf('<section id="promises">'))
    const order = [...promises.matchAll(/<tr><th scope="row" class="mono">([^<]+)<\/th>/g)].map((m) =>
      rank(m[1] as string),
    )
    expect(order).toHaveLength(byId.size)
    expect(order[0]).toBe(0)
    expect(new Set(order)).toEqual(new Set([0, 1, 2, 3]))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    // The documented order puts failed promises anywhere: the page does not.
    expect([...byId.values()].map((p) => rank(p.id))).not.toEqual(order)
    const checks = html.slice(html.indexOf('<table class="matrix">'), html.indexOf('<section id="coverage">'))
    const rows = [...checks.matchAll(/<th scope="row" class="check"><span class="mono">(\w+)/g)].map(
      (m) => m[1],
    )
    // link_conformance comes before store_conformance among the checks, and judged nothing here.
    expect(rows.slice(0, 3).sort()).toEqual([
      'principal_isolation',
      'status_code_conformance',
      'store_conformance',
    ])
    expect(rows[3]).toBe('link_conformance')
  })

  it('count a team’s own check apart from the document’s in the verdict', () => {
    const teamFailure = {
      layer: 'generated' as const,
      operationId: 'listPlants',
      checks: ['gateway_header'],
      findings: [{ check: 'gateway_header', message: 'no X-Gateway-Id' }],
      status: 200,
      title: 'request 4',
      request: 'GET /plants',
      answer: '200 application/json []',
      document: '200',
      replay: 'plant-store-verify --case 4',
    }
    const run = failedRun()
    run.results.record(teamFailure)
    expect(run.results.verdict()).toBe(
      '1 answer(s) departed from the document, and 1 answer(s) failed your own checks',
    )
    const ownOnly = new Results([{ operationId: 'listPlants', statuses: [200] }], [])
    ownOnly.record(teamFailure)
    expect(ownOnly.verdict()).toBe('1 answer(s) failed your own checks')
  })

  it('say a coverage under its minimum in the text, the annotations and the JSON', () => {
    const run = { ...failedRun(), minCoverage: 90, met: false }
    expect(REPORTERS.text.render(run)).toMatch(
      /plant-store-verify: coverage 50\.0% is below the minimum of 90%/,
    )
    expect(REPORTERS.github.render(run)).toContain('::error title=coverage below the minimum::')
    expect(JSON.parse(REPORTERS.json.render(run)).coverage).toMatchObject({ minimum: 90, met: false })
  })
})

describe('the reports a command asks for', () => {
  it('are its text, the annotations in GitHub Actions only, and each file its options name', () => {
    expect(reportsAsked({}, { env: {} })).toEqual([{ format: 'text' }])
    expect(reportsAsked({ junit: 'a.xml', html: 'a.html' }, { env: { GITHUB_ACTIONS: 'true' } })).toEqual([
      { format: 'text' },
      { format: 'github' },
      { format: 'junit', file: 'a.xml' },
      { format: 'html', file: 'a.html' },
    ])
    expect(reportsAsked({ report: 'a.md', json: 'a.json' }, { text: false, env: {} })).toEqual([
      { format: 'markdown', file: 'a.md' },
      { format: 'json', file: 'a.json' },
    ])
  })

  it('are written each where it goes: a file in a folder made for it, or the printed text', async () => {
    const printed: string[] = []
    const file = join(work, 'new', 'folder', 'verify.md')
    const outputs = reportsAsked({ report: file }, { env: { GITHUB_ACTIONS: 'true' } })
    writeReports(outputs, failedRun(), (text) => printed.push(text))
    expect(await readFile(file, 'utf8')).toMatch(/^# Verification of <store>/)
    expect(printed).toHaveLength(2)
    expect(printed[0]).toMatch(/^operation/)
    expect(printed[1]).toMatch(/^\n::error /)
  })
})
