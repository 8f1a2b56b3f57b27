// Generated requests: valid ones and ones with exactly one defect, drawn from the document's schemas,
// parameters, security and content types, each judged by the status the document gives it in the
// caller's state, the answer's schema and headers, the page against the caller's plants, and a
// create read back digit for digit. What a request changed is undone before the next.
import { BODY_LIMIT, givenPlants, pickPlant } from '@plant-store/core'
import fc from 'fast-check'
import { coveragePlant, coverageProbes } from '../../cases/coverage.js'
import type { Probe } from '../../cases/probe.js'
import { probeArbitrary } from '../../cases/random.js'
import type { Plant as ProbePlant } from '../../judge/plant.js'
import type { State } from '../../judge/state.js'
import type { Context } from '../context.js'
import { housekeeper } from '../housekeeper.js'
import { namedIds, Principal } from '../principal.js'
import { sendProbe } from '../probe-step.js'
import { largestPage } from './largest-page.js'

/** The probes of a run: the same for the same document, seed and id base, so one can be replayed by its number. */
function probesOf(ctx: Context): Probe[] {
  return fc.sample(probeArbitrary(ctx.loaded.operations, BODY_LIMIT, ctx.idBase), {
    numRuns: ctx.options.requests,
    seed: ctx.options.seed,
  })
}

export async function runGenerated(ctx: Context): Promise<void> {
  const { options, results } = ctx
  // The state the caller is kept in: the document's x-given-plants at the run's own ids, beside the
  // plants the principal already had.
  const state: State = new Map()
  for (const p of ctx.existing[0]) state.set(p.id, pickPlant(p))
  const existing = new Set(ctx.existing[0].map((p) => p.id))
  if (!options.readOnly) {
    for (const p of givenPlants(ctx.loaded.document)) {
      const id = ctx.idBase + BigInt(p.id)
      if (!existing.has(id)) state.set(id, pickPlant(p, id) satisfies ProbePlant)
    }
    // And the coverage phase's own plant, whose tag a filter asks for in another Unicode form.
    const own = coveragePlant(ctx.loaded.operations, ctx.idBase)
    if (!existing.has(own.id)) state.set(own.id, pickPlant(own) satisfies ProbePlant)
  }
  const principal = new Principal(ctx.subject.endpoint(0), state, existing)
  const replayOf = (i: number) =>
    i < 0
      ? ctx.replay(`--only generated --seed=${options.seed} --requests 1`)
      : ctx.replay(`--only generated --seed=${options.seed} --requests ${options.requests} --case ${i + 1}`)
  const keeping = housekeeper(ctx, principal, 'generated')
  if (!options.readOnly) {
    if (!(await keeping('setting up the caller’s plants', replayOf(-1), () => principal.reset()))) return
  } else principal.token = ctx.subject.tokens[0]
  // The deterministic coverage phase first (every keyword's boundary and one violation of each, for
  // every parameter and body field), then the random requests.
  const probes = [...coverageProbes(ctx.loaded.operations, BODY_LIMIT, ctx.idBase), ...probesOf(ctx)]
  const only = options.case === undefined ? undefined : Number(options.case)
  let skipped = 0
  let refusedBefore = 0
  let stopped = false
  try {
    for (const [i, probe] of probes.entries()) {
      if (only !== undefined && i + 1 !== only) continue
      if (Date.now() > ctx.deadline) {
        stopped = true
        break
      }
      if (options.anyToken && probe.defect === 'auth: unknown token') {
        skipped++
        continue
      }
      // A refused-token case once per operation in a run: again it tells nothing new, and it spends the
      // server's quota for failed authentications.
      if (probe.entry.secured && !ctx.refusals.first(probe.entry.operationId, probe)) {
        refusedBefore++
        continue
      }
      const changes = probe.method !== 'GET' && probe.method !== 'HEAD'
      // Never a plant the run did not create, whether the path or the body names it (a store may
      // wrongly follow a replace body's id); in --read-only, only what a correct server refuses.
      if (
        (changes && namedIds(probe).some((id) => existing.has(id))) ||
        (options.readOnly && changes && !probe.defect)
      ) {
        skipped++
        continue
      }
      ctx.progress(`generated ${i + 1}/${probes.length}`)
      const title = `request ${i + 1}${probe.covers ? ` (coverage: ${probe.covers})` : ''}, ${probe.defect ?? 'valid'}${probe.features.length ? ` (${probe.features.join(', ')})` : ''}`
      const step = { layer: 'generated' as const, number: i + 1, title, replay: replayOf(i) }
      if (!(await sendProbe(ctx, principal, keeping, state, probe, step))) return
    }
  } finally {
    if (!options.readOnly && !options.keep)
      await keeping('deleting the run’s plants', replayOf(-1), async () => {
        await principal.clear()
        return undefined
      })
  }
  // The answers at the document's largest, once the caller's own plants are gone.
  if (only === undefined && !stopped) await largestPage(ctx)
  if (skipped)
    results.notes.push(
      `generated requests: ${skipped} skipped, as they would change a plant the run did not create${options.readOnly ? ' or change plants at all (--read-only)' : ''}${options.anyToken ? ' or send a token no principal holds (--any-token)' : ''}`,
    )
  if (refusedBefore)
    results.notes.push(
      `generated requests: ${refusedBefore} not sent, each a refused-token case (no token, a malformed Authorization header, a token no principal holds, a principal's token in the query string) its operation had been sent already${ctx.refusals.leftCount ? ' or that was left out to keep to the server’s quota for failed authentications' : ''}`,
    )
  if (stopped) results.notes.push('generated requests: stopped at the time limit')
}
