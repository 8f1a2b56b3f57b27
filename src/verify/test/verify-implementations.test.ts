// The verifier judges a store by the interface, not by how the kit's server writes its answers: a
// plant store built the way teams build one (Express 5 with its default HTTP layer, no health probes,
// no rate-limit or security headers) passes it in each of the ways the document leaves open, on
// several seeds, and each bug planted in a copy of it is caught by the check that names its promise.
import { type Results, verify } from '@plant-store/verify'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot, type Started, startProcess } from '../../../scripts/lib/processes.js'

const started: Started[] = []
afterAll(async () => {
  await Promise.allSettled(started.map((p) => p.stop()))
})

async function expressStore(env: { VARIANT?: string; BUG?: string }): Promise<Started> {
  const store = await startProcess({
    name: `Express store (${env.VARIANT ?? ''} ${env.BUG ?? ''})`,
    command: process.execPath,
    args: [`${repoRoot}test/fixtures/express-store/server.mjs`],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob', ...env },
    listening: /listening on (http:\/\/\S+)/,
  })
  started.push(store)
  return store
}

const tokens = ['token-alice', 'token-bob'] as const
const SMALL = { requests: 300, sequences: 30 }
/**
 * A run that only has to meet a bug any layer's fixed cases or coverage phase meets: no search beyond
 * them (the bugs only a search finds are caught on three seeds below, at SMALL).
 */
const WIRING = { requests: 100, sequences: 10 }

const summary = (results: Results) =>
  results
    .distinctFailures()
    .map((f) => results.failureText(f))
    .join('\n\n')

describe('the verifier, against a store built on Express', () => {
  const variants = [
    '',
    'lookup-first',
    'opaque-cursor',
    'absolute-link',
    'path-relative-link',
    'json-charset',
    'stored-create',
    'lookup-first,opaque-cursor,absolute-link,json-charset,stored-create',
  ]
  // The store as it comes and every variant at once on both seeds; each single variant on one of them,
  // in turn: what a seed changes is the requests, which the variants share.
  const seeds = [1, 20261125] as const
  const onBothSeeds = (variant: string) => variant === '' || variant.includes(',')
  const runs = variants.flatMap((variant, i) =>
    (onBothSeeds(variant) ? seeds : [i % 2 === 0 ? seeds[0] : seeds[1]]).map(
      (seed) => [variant || 'as it comes', seed] as const,
    ),
  )
  it.each(runs)(
    'passes the variant %s (seed %i)',
    async (variant, seed) => {
      const store = await expressStore(variant === 'as it comes' ? {} : { VARIANT: variant })
      const results = await verify({ baseUrl: store.url, tokens, seed, ...SMALL })
      expect(results.failures.length, summary(results)).toBe(0)
      expect(results.stopped).toEqual([])
      if (variant.includes('stored-create'))
        expect(results.warnings.join('\n')).toMatch(
          /undocumented property `createdAt` in `getPlant`'s answer/,
        )
      await store.stop()
    },
    120_000,
  )

  // Each planted bug and the check whose promise it breaks: that check must be among the failures.
  const bugs: [string, string, string?][] = [
    ['delete-answers-200', 'status_code_conformance'],
    ['number-name-accepted', 'status_code_conformance'],
    ['non-ascii-name-refused', 'positive_data_acceptance'],
    ['html-not-found', 'content_type_conformance'],
    ['list-wrapped', 'response_schema_conformance'],
    ['error-code-always-400', 'error_code_conformance'],
    ['no-www-authenticate', 'www_authenticate_on_401'],
    ['link-drops-tag', 'link_conformance'],
    ['link-on-full-last-page', 'link_conformance'],
    ['tag-kept-on-put', 'store_conformance'],
    ['rounded-ids', 'create_read_back'],
    ['other-principal-readable', 'principal_isolation'],
    ['create-wrong-id', 'store_conformance', 'stored-create'],
    ['example-tag-dropped', 'example_conformance'],
    // Every layer's set-up meets it: judged and reported, never a crash.
    ['create-answers-201', 'status_code_conformance'],
  ]
  it.each(bugs)(
    'catches the bug %s with %s, in a report',
    async (bug, check, variant) => {
      const store = await expressStore({ BUG: bug, ...(variant ? { VARIANT: variant } : {}) })
      const results = await verify({ baseUrl: store.url, tokens, seed: 7, ...WIRING })
      const found = new Set(results.failures.map((f) => f.check))
      expect(
        found.has(check as never),
        `${bug}: found ${[...found].join(', ') || 'nothing'}\n${summary(results)}`,
      ).toBe(true)
      // Whatever it met, the run ends with its table and each failure's replay command.
      expect(results.table()).toMatch(/operation\s+check\s+passed\s+failed/)
      for (const failure of results.distinctFailures()) expect(failure.replay).toMatch(/plant-store-verify/)
      await store.stop()
    },
    120_000,
  )

  // Bugs no single request shows by chance: a filter that keeps more than the value asked for (the
  // coverage phase asks for near misses of each held tag), a replace that follows a body's `id` (the
  // coverage phase sends one), and pages by position (the sequences write between page reads). And
  // what the first principal's answers hand it, sent back as the second: a cursor that serves its
  // owner's plants to whoever sends it, a replace that finds another principal's plant. And writes
  // done in two steps, which only requests sent together meet in between: a create that checks and
  // stores apart, a replace that writes the name and the tag apart, one that deletes and inserts.
  const everySeed: [string, string, 'generated' | 'stateful' | 'security' | 'concurrency'][] = [
    ['tag-filter-loose', 'store_conformance', 'generated'],
    ['put-follows-body-id', 'store_conformance', 'generated'],
    ['offset-cursor', 'link_conformance', 'stateful'],
    ['crossed-cursor', 'principal_isolation', 'security'],
    ['crossed-id', 'principal_isolation', 'security'],
    ['create-race', 'concurrent_consistency', 'concurrency'],
    ['torn-replace', 'concurrent_consistency', 'concurrency'],
    ['replace-as-delete-insert', 'concurrent_consistency', 'concurrency'],
  ]
  it.each(everySeed.flatMap((bug) => [1, 2, 20261125].map((seed) => [...bug, seed] as const)))(
    'catches the bug %s with %s in the %s layer (seed %i)',
    async (bug, check, layer, seed) => {
      const store = await expressStore({ BUG: bug })
      const results = await verify({ baseUrl: store.url, tokens, seed, only: [layer], ...SMALL })
      const found = new Set(results.failures.map((f) => f.check))
      expect(
        found.has(check as never),
        `${bug}: found ${[...found].join(', ') || 'nothing'}\n${summary(results)}`,
      ).toBe(true)
      // Reported as any failure of a layer's request is: what was sent, and how to send it again.
      if (layer === 'security')
        for (const failure of results.failures.filter((f) => f.check === check)) {
          expect(failure.request).toMatch(/^(GET|PUT|POST|DELETE) /)
          expect(failure.replay).toMatch(/plant-store-verify .*--only/)
        }
      await store.stop()
    },
    120_000,
  )
})
