// What the verifier's reports say: a report says once what no run can have a server answer on
// demand, not once per operation and status.
import { join } from 'node:path'
import { verify } from '@plant-store/verify'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadDocument } from '../document.js'
import { coverageOf } from '../report/coverage.js'
import { notExercisedLines } from '../report/coverage-summary.js'
import { htmlReport } from '../report/html.js'

const started: Started[] = []

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

afterAll(async () => {
  await Promise.allSettled(started.map((s) => s.stop()))
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
    expect(said(results.markdown('r', coverage))).toBe(1)
    const html = htmlReport(results, { baseUrl: target.url, durationMs: 1, coverage })
    expect(said(html)).toBe(1)
    // Each status still says why, for tools.
    const list = coverage.operations.find((o) => o.operationId === 'listPlants')
    expect(list?.statuses.find((s) => s.status === 503)?.reason).toMatch(onDemand)
  }, 120_000)
})
