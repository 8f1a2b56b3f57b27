// Every promise a default run exercises has teeth: a bug planted in one of the kit's fixture stores
// that breaks it, and the verifier, run on one seed with only the bug's layers, files a failure under
// that promise. A promise added to the document without a planted bug fails here, as one without a
// case fails promises.test.ts; and the stores as written pass the same runs.
import { entryFor, loadPromises } from '@plant-store/verify'
import { describe, expect, it } from 'vitest'
import { PLANTED_BUGS, type PlantedBug } from './registry.js'
import { foundText, runPlanted, SEEDS, startStore, verifyStore } from './run.js'

const [SEED = 1] = SEEDS

/**
 * Promises a default run exercises that have no planted bug yet, each with why: the list only shrinks
 * (a listed promise that gets a bug, or is gone from the document, fails the test below).
 */
const WITHOUT_A_BUG: Readonly<Record<string, string>> = {
  'rfc9110.405-allow':
    'a 405 without Allow is a warning of the security layer (the document recommends Allow), not a failure',
  'limits.a-page-holds-at-most':
    'the coverage phase sends limit=100 to a store holding far fewer plants: a page over 100 cannot show',
}

/**
 * Bugs the verifier catches by a check of their promise, but whose failure is not filed under the
 * promise: the registry counts a request under it by the status the store answered (a 404 for a
 * replace of a missing plant, a 204), so an answer with another status is counted elsewhere. The test
 * asserts the check is among the failures instead, says so, and fails once the failure is filed.
 */
const JUDGED_NOT_FILED: Readonly<Record<string, string>> = {
  'put-upserts':
    'a replace of a missing plant answered 200 is not counted under the promise (it counts 404s)',
  'delete-answers-200': 'a delete answered 200 is not counted under the rule of 204 (it counts 204s)',
}

/** The promises a default run exercises: those with a case whose registry entry does not say a run may well miss it. */
async function defaultRunPromises(): Promise<string[]> {
  return (await loadPromises())
    .filter(({ id }) => {
      const entry = entryFor(id)?.entry
      return entry?.exercisedBy !== undefined && entry.unlessSaid === undefined
    })
    .map((p) => p.id)
}

const name = (bug: PlantedBug) => `${bug.store} ${bug.bug}${bug.variant ? ` (${bug.variant})` : ''}`

describe('the planted bugs', () => {
  it('give every promise a default run exercises a bug, and name only promises a run can exercise', async () => {
    const required = await defaultRunPromises()
    expect(required.length).toBeGreaterThan(60)
    const planted = new Set(PLANTED_BUGS.map((b) => b.promise))
    const without = required.filter((id) => !planted.has(id) && !(id in WITHOUT_A_BUG))
    expect(without, 'promises a default run exercises with no planted bug in test/planted-bugs/').toEqual([])
    for (const [id, why] of Object.entries(WITHOUT_A_BUG))
      console.warn(`warning: promise ${id} has no planted bug yet: ${why}`)
    // The list of those still without one only shrinks.
    const listed = Object.keys(WITHOUT_A_BUG)
    expect(
      listed.filter((id) => !required.includes(id)),
      'listed without a bug, but gone from the promises a default run exercises',
    ).toEqual([])
    expect(
      listed.filter((id) => planted.has(id)),
      'listed without a bug, but one is planted: take it off the list',
    ).toEqual([])
    // Each bug names a promise of the document (of the kit's profile where it says so) that a request
    // can exercise, in a store and with a switch of its own.
    for (const profile of ['interface', 'kit'] as const) {
      const ids = new Set((await loadPromises(undefined, profile)).map((p) => p.id))
      for (const bug of PLANTED_BUGS.filter((b) => (b.profile ?? 'interface') === profile)) {
        expect(ids.has(bug.promise), `${name(bug)} names no promise: ${bug.promise}`).toBe(true)
        expect(entryFor(bug.promise)?.entry.exercisedBy, `${bug.promise} has no case`).toBeDefined()
      }
    }
    const keys = PLANTED_BUGS.map((b) => `${b.promise} ${name(b)}`)
    expect(keys.length, 'a bug listed twice for one promise').toBe(new Set(keys).size)
    for (const bug of Object.keys(JUDGED_NOT_FILED))
      expect(
        PLANTED_BUGS.some((b) => b.bug === bug),
        `${bug} is not a planted bug`,
      ).toBe(true)
  })
})

describe.concurrent(`each planted bug, caught on seed ${SEED}`, () => {
  it.each(PLANTED_BUGS.map((bug) => [`${name(bug)} → ${bug.promise}`, bug] as const))(
    '%s',
    async (_, bug) => {
      const run = await runPlanted(bug, SEED)
      expect(run.results.failed, `${name(bug)}: the run found nothing`).toBe(true)
      // Whatever it met, the run ends with its table and each failure's replay command.
      expect(run.results.table()).toMatch(/operation\s+check\s+passed\s+failed/)
      for (const failure of run.results.distinctFailures())
        expect(failure.replay).toMatch(/plant-store-verify/)
      const why = JUDGED_NOT_FILED[bug.bug]
      if (why === undefined) {
        expect(
          run.caught,
          `${name(bug)}: no failure filed under ${bug.promise}; found ${foundText(run.results)}`,
        ).toBe(true)
        return
      }
      console.warn(`warning: ${name(bug)} is caught by a check of ${bug.promise}, not filed under it: ${why}`)
      expect(run.caught, `${name(bug)} is now filed under ${bug.promise}: take it off JUDGED_NOT_FILED`).toBe(
        false,
      )
      const checks: readonly string[] = entryFor(bug.promise)?.entry.checks ?? []
      expect(
        run.results.failures.some((f) => checks.includes(f.check)),
        `${name(bug)}: none of ${checks.join(', ')} failed; found ${foundText(run.results)}`,
      ).toBe(true)
    },
    60_000,
  )
})

// Each set of layers the bugs run with, once against each store as written: no false alarm.
const cleanRuns = [
  ...new Map(
    PLANTED_BUGS.map((b) => {
      const key = `${b.store} ${b.variant ?? ''} ${b.profile ?? ''} ${b.only?.join(',') ?? 'every layer'}`
      return [key, { key, store: b.store, variant: b.variant, profile: b.profile, only: b.only }] as const
    }),
  ).values(),
]
describe.concurrent(`the stores as written, on seed ${SEED}`, () => {
  it.each(cleanRuns.map((run) => [run.key, run] as const))(
    'pass %s',
    async (_, run) => {
      const store = await startStore(run.store, run.variant ? { VARIANT: run.variant } : {})
      try {
        const results = await verifyStore(store.url, SEED, run.only, run.profile)
        expect(foundText(results)).toBe('nothing')
      } finally {
        await store.stop()
      }
    },
    60_000,
  )
})
