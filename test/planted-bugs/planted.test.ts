// Every promise a default run exercises has teeth: a bug planted in one of the kit's fixture stores
// that breaks it, and the verifier, run on one seed with only the bug's layers, files a failure under
// that promise. A promise added to the document without a planted bug fails here, as one without a
// case fails promises.test.ts; and the stores as written pass the same runs.
import { document as shipped } from '@plant-store/core'
import { type DocumentPromise, documentPromises, entryFor, loadPromises } from '@plant-store/verify'
import { describe, expect, it } from 'vitest'
import { JUDGED_NOT_FILED, WITHOUT_A_BUG } from './gaps.js'
import { PLANTED_BUGS, type PlantedBug } from './registry.js'
import { foundText, runPlanted, SEEDS, startStore, verifyStore } from './run.js'

const [SEED = 1] = SEEDS

/** Of these promises, those a default run exercises: with a case, and no reason a run may well miss it. */
function defaultRunPromises(promises: readonly DocumentPromise[]): string[] {
  return promises
    .filter(({ id }) => {
      const entry = entryFor(id)?.entry
      return entry?.exercisedBy !== undefined && entry.unlessSaid === undefined
    })
    .map((p) => p.id)
}

/** Those with no planted bug, and not listed as still without one. */
const withoutABug = (required: readonly string[]) =>
  required.filter((id) => !PLANTED_BUGS.some((b) => b.promise === id) && !(id in WITHOUT_A_BUG))

const name = (bug: PlantedBug) => `${bug.store} ${bug.bug}${bug.variant ? ` (${bug.variant})` : ''}`

describe('the planted bugs', () => {
  it('give every promise a default run exercises a bug, and name only promises a run can exercise', async () => {
    const required = defaultRunPromises(await loadPromises())
    expect(required.length).toBeGreaterThan(60)
    const planted = new Set(PLANTED_BUGS.map((b) => b.promise))
    expect(
      withoutABug(required),
      'promises a default run exercises with no planted bug in test/planted-bugs/',
    ).toEqual([])
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

  it('finds a sentence added to the document, which a run exercises, as a promise without a bug', () => {
    const copy = structuredClone(shipped) as unknown as { info: { description: string } }
    const plus = 'So `?tag=sweet+basil` asks for the tag `sweet basil`.'
    expect(copy.info.description).toContain(plus)
    copy.info.description = copy.info.description.replace(plus, `${plus} A tag is matched exactly.`)
    expect(withoutABug(defaultRunPromises(documentPromises(copy)))).toEqual([
      'query-strings.a-tag-is-matched-exactly',
    ])
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
      if (why !== undefined) {
        console.warn(
          `warning: ${name(bug)} is caught by a check of ${bug.promise}, not filed under it: ${why}`,
        )
        expect(
          run.verdict,
          `${name(bug)} is filed under ${bug.promise} now: take it off JUDGED_NOT_FILED`,
        ).not.toBe('filed')
      }
      expect(
        run.verdict,
        `${name(bug)}: no failure filed under ${bug.promise}; found ${foundText(run.results)}`,
      ).toBe(why === undefined ? 'filed' : 'judged')
    },
    60_000,
  )
})

// Each set of layers the bugs run with, once against each store as written: no false alarm.
const cleanRuns = [
  ...new Map(
    PLANTED_BUGS.map((b) => {
      const key = [
        `the ${b.store} store`,
        b.variant && `VARIANT=${b.variant}`,
        b.profile && `--profile ${b.profile}`,
        b.only ? `--only ${b.only.join(',')}` : 'every layer',
      ]
        .filter(Boolean)
        .join(' ')
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
