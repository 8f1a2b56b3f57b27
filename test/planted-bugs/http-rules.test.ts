// Every bug of HTTP_RULE_BUGS is caught: the store started with it fails the promise the bug names, in
// a run of its layers alone on one seed, and each store as written passes those same runs.
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot, type Started, startProcess } from '../../scripts/lib/processes.js'
import { LAYERS, type Layer, type Results, verify } from '../../src/verify/index.js'
import { loadPromises, promiseCoverage } from '../../src/verify/promises/coverage.js'
import { entryFor } from '../../src/verify/promises/registry.js'
import { JUDGED_NOT_FILED } from './gaps.js'
import { HTTP_RULE_BUGS } from './http-rules.js'
import type { PlantedBug } from './planted-bug.js'

const started: Started[] = []
afterAll(async () => {
  await Promise.allSettled(started.map((p) => p.stop()))
})

/** The bug's store, with its switch on; with an empty `bug`, the store as written. */
async function store(bug: PlantedBug): Promise<Started> {
  const env = { ...(bug.bug ? { BUG: bug.bug } : {}), ...(bug.variant ? { VARIANT: bug.variant } : {}) }
  const started_ = await startProcess({
    name: `${bug.store} store (${bug.bug || 'as written'})`,
    command: process.execPath,
    args: [`${repoRoot}test/fixtures/${bug.store}-store/server.mjs`],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob', ...env },
    listening: /listening on (http:\/\/\S+)/,
  })
  started.push(started_)
  return started_
}

const isLayer = (name: string): name is Layer => (LAYERS as readonly string[]).includes(name)

/** A small run of the bug's layers: its fixed cases and a few generated requests. */
async function run(url: string, bug: PlantedBug): Promise<Results> {
  return verify({
    baseUrl: url,
    tokens: ['token-alice', 'token-bob'],
    seed: 1,
    requests: 40,
    sequences: 4,
    ...(bug.only ? { only: bug.only.filter(isLayer) } : {}),
    ...(bug.profile ? { profile: bug.profile } : {}),
  })
}

/** How the run judged the bug's promise: the requests that exercised it, and those its checks failed. */
async function judged(results: Results, promise: string) {
  const coverage = promiseCoverage(await loadPromises(), results.judged)
  const found = coverage.find((p) => p.id === promise)
  if (!found) throw new Error(`no promise ${promise} in the document or the HTTP rules`)
  return found
}

const failures = (results: Results) =>
  results
    .distinctFailures()
    .map((f) => results.failureText(f))
    .join('\n\n')

describe('the bugs planted for the rules of HTTP', () => {
  it.each(HTTP_RULE_BUGS.map((bug) => [bug.bug, bug.promise, bug] as const))(
    '%s breaks %s, and the run says so',
    async (_name, promise, bug) => {
      const buggy = await store(bug)
      const results = await run(buggy.url, bug)
      await buggy.stop()
      const coverage = await judged(results, promise)
      // A bug of JUDGED_NOT_FILED is caught by a check of its promise whose failure is filed elsewhere.
      const checks: readonly string[] = entryFor(promise)?.entry.checks ?? []
      const caught =
        coverage.failed > 0 ||
        (bug.bug in JUDGED_NOT_FILED && results.failures.some((f) => checks.includes(f.check)))
      expect(caught, `${promise}: ${JSON.stringify(coverage)}\n${failures(results)}`).toBe(true)
    },
    60_000,
  )

  // The same runs against each store with no bug: every store and layer combination the bugs use passes.
  const runOf = (bug: PlantedBug) => JSON.stringify([bug.store, bug.variant, bug.only, bug.profile])
  const runs = [...new Map(HTTP_RULE_BUGS.map((bug) => [runOf(bug), bug])).values()]
  it.each(runs.map((bug) => [bug.store, bug.only?.join(', ') ?? 'every layer', bug] as const))(
    'the %s store as written passes the run of %s',
    async (_store, _layers, bug) => {
      const clean = await store({ ...bug, bug: '' })
      const results = await run(clean.url, bug)
      await clean.stop()
      expect(results.failures.length, failures(results)).toBe(0)
      for (const promise of new Set(
        HTTP_RULE_BUGS.filter((b) => runOf(b) === runOf(bug)).map((b) => b.promise),
      )) {
        const coverage = await judged(results, promise)
        expect(coverage.requests, `${promise} was not exercised`).toBeGreaterThan(0)
        expect(coverage.failed, promise).toBe(0)
      }
    },
    60_000,
  )
})
