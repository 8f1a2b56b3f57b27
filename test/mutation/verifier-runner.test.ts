// The mutation runner's own logic, without Stryker: a store whose fake mutant changes an answer is
// reported killed by the layer that saw it, one that changes nothing survives, the dry run records
// which layer reached which mutant, a mutant of the rate limit's refusal is killed by the `limits`
// test's run against the second store (whose dry run fails if it judged no spent quota), and the
// judge must not load the store's core.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Mutant } from '@stryker-mutator/api/core'
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORE_ENV } from '../../mutation/store-protocol.js'
import { judgeProblem, VerifierTestRunner, verifierJudge } from '../../mutation/verifier-runner.js'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'

const store = fileURLToPath(new URL('./fake-mutant-store.ts', import.meta.url))
const log = { debug: () => {} }
let sandbox = ''
let runner: VerifierTestRunner
beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), 'plant-store-mutation-'))
  runner = new VerifierTestRunner(log, { verifier: { store, sandbox, requests: 20, sequences: 2 } } as never)
  await runner.init()
}, 30_000)
afterAll(async () => {
  await runner?.dispose()
  if (sandbox) await rm(sandbox, { recursive: true, force: true })
})

const mutant = (id: string): Mutant =>
  ({ id, fileName: 'fake.ts', mutatorName: 'fake', replacement: '', location: {} }) as unknown as Mutant
const run = (id: string, testFilter: string[]) =>
  runner.mutantRun({
    activeMutant: mutant(id),
    testFilter,
    timeout: 30_000,
    disableBail: false,
    sandboxFileName: 'fake.ts',
    mutantActivation: 'runtime',
    reloadEnvironment: false,
  })

describe('the verifier runner', () => {
  it('passes every layer on the unmutated store, recording which layer reached which mutant', async () => {
    const result = await runner.dryRun({ timeout: 60_000, disableBail: false, coverageAnalysis: 'perTest' })
    if (result.status !== DryRunStatus.Complete) throw new Error(JSON.stringify(result))
    expect(result.tests.map((t) => [t.id, t.status])).toEqual(
      ['examples', 'generated', 'stateful', 'security', 'concurrency', 'limits', 'stalled'].map((id) => [
        id,
        TestStatus.Success,
      ]),
    )
    expect(result.mutantCoverage?.perTest.examples?.['1']).toBeGreaterThan(0)
    expect(result.mutantCoverage?.perTest.limits?.['3']).toBeGreaterThan(0)
    expect(Object.keys(result.mutantCoverage?.static ?? {})).toEqual([])
  }, 60_000)

  it('reports a mutant killed when the verifier run against the mutated store fails', async () => {
    const result = await run('1', ['examples'])
    expect(result.status).toBe(MutantRunStatus.Killed)
    if (result.status !== MutantRunStatus.Killed) return
    expect(result.killedBy).toEqual(['examples'])
    expect(result.failureMessage).toMatch(/status_code_conformance/)
  }, 30_000)

  it('reports a mutant that changes no answer survived', async () => {
    const result = await run('2', ['examples'])
    expect(result).toMatchObject({ status: MutantRunStatus.Survived, nrOfTests: 1 })
  }, 30_000)

  it('reports a mutant of a 429 killed by the limits test alone, whose store the run’s quotas are spent on', async () => {
    const result = await run('3', ['security', 'limits'])
    expect(result.status).toBe(MutantRunStatus.Killed)
    if (result.status !== MutantRunStatus.Killed) return
    expect(result.killedBy).toEqual(['limits'])
    expect(result.failureMessage).toMatch(/retry-after/i)
  }, 30_000)

  it('fails the dry run of a limits test that judged no spent quota, and no mutant’s run for it', async () => {
    // The main store's quotas are past what the case spends: it judges nothing there.
    const app = await buildApp({ config: loadConfig(STORE_ENV), logger: false })
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const judge = verifierJudge({ requests: 1, sequences: 0, seed: 1 })
      expect(await judge(url, 'limits', true)).toMatch(/judged no spent quota/)
      expect(await judge(url, 'limits', false)).toBeUndefined()
    } finally {
      await app.close()
    }
  }, 30_000)

  it('refuses a judge that loads the store’s core or one inside the sandbox', () => {
    expect(
      judgeProblem('file:///kit/src/core/dist/index.js', 'file:///sandbox/src/core/index.ts', '/sandbox'),
    ).toBe(undefined)
    expect(
      judgeProblem('file:///kit/src/core/dist/index.js', 'file:///kit/src/core/dist/index.js', '/sandbox'),
    ).toMatch(/load one/)
    expect(judgeProblem('file:///sandbox/src/core/index.ts', 'file:///x', '/sandbox')).toMatch(
      /in the sandbox/,
    )
  })
})
