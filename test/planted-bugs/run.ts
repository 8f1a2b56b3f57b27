// Runs one planted bug: its fixture store started with its BUG (and VARIANT), the verifier run on one
// seed with only the bug's layers, and whether a failure was filed under the bug's promise (the
// promises' coverage counts, per promise, the requests one of its checks failed).
import {
  entryFor,
  type Layer,
  loadPromises,
  type PromiseCoverage,
  promiseCoverage,
  type Results,
  verify,
} from '@plant-store/verify'
import { repoRoot, type Started, startProcess } from '../../scripts/lib/processes.js'
import { JUDGED_NOT_FILED } from './gaps.js'
import type { PlantedBug } from './planted-bug.js'

/** Enough requests for every case a planted bug needs, few enough that all of them run in a minute. */
export const RUN_SIZE = { requests: 200, sequences: 20 }
/** The seed the kit's suite runs every bug on; `npm run planted` runs two more. */
export const SEEDS = [1, 2, 20261125] as const
const TOKENS = ['token-alice', 'token-bob'] as const

/** A fixture store, started with a BUG (or none, as written) and a VARIANT. */
export function startStore(
  store: PlantedBug['store'],
  env: { BUG?: string; VARIANT?: string } = {},
): Promise<Started> {
  return startProcess({
    name: `${store} store${env.BUG ? ` (BUG=${env.BUG})` : ''}`,
    command: process.execPath,
    args: [`${repoRoot}test/fixtures/${store}-store/server.mjs`],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob', ...env },
    cleanEnv: true,
    listening: /^listening on (http:\/\/127\.0\.0\.1:\d+)$/,
    timeoutMs: 15_000,
  })
}

export interface PlantedRun {
  results: Results
  /** The bug's promise as this run's coverage has it (undefined when the document has no such promise). */
  promise: PromiseCoverage | undefined
  /**
   * `filed`: a failure was filed under the bug's promise; `judged`: for a bug of JUDGED_NOT_FILED, one
   * of the promise's checks failed, though its failure is not filed under it; `missed`: neither.
   */
  verdict: 'filed' | 'judged' | 'missed'
}

/** The verifier's run, with only these layers, against a store already started. */
export async function verifyStore(
  url: string,
  seed: number,
  only: readonly string[] | undefined,
  profile: 'kit' | undefined,
): Promise<Results> {
  return verify({
    baseUrl: url,
    tokens: TOKENS,
    seed,
    ...RUN_SIZE,
    ...(only ? { only: only as Layer[] } : {}),
    ...(profile ? { profile } : {}),
  })
}

/** Starts the bug's store, runs the verifier against it on `seed` and stops the store. */
export async function runPlanted(bug: PlantedBug, seed: number): Promise<PlantedRun> {
  const store = await startStore(bug.store, {
    BUG: bug.bug,
    ...(bug.variant ? { VARIANT: bug.variant } : {}),
  })
  try {
    const results = await verifyStore(store.url, seed, bug.only, bug.profile)
    const promises = await loadPromises(undefined, bug.profile ?? 'interface')
    const promise = promiseCoverage(promises, results.judged).find((p) => p.id === bug.promise)
    const checks: readonly string[] = entryFor(bug.promise)?.entry.checks ?? []
    const judged = bug.bug in JUDGED_NOT_FILED && results.failures.some((f) => checks.includes(f.check))
    const verdict = (promise?.failed ?? 0) > 0 ? 'filed' : judged ? 'judged' : 'missed'
    return { results, promise, verdict }
  } finally {
    await store.stop()
  }
}

/** What a run found, in a few lines: the checks that failed, by layer, for a bug that was missed. */
export function foundText(results: Results): string {
  const found = [...new Set(results.failures.map((f) => `${f.check} (${f.layer})`))]
  const stopped = results.stopped.map((s) => `${s.layer} could not go on: ${s.reason}`)
  return [...found, ...stopped].join(', ') || 'nothing'
}
