// Generated requests: valid ones and ones with exactly one defect, drawn from the document's schemas,
// parameters, security and content types, each judged by the status the document gives it in the
// caller's state, the answer's schema and headers, the page against the caller's plants, and a
// create read back digit for digit. What a request changed is undone before the next.
import { BODY_LIMIT, givenPlants } from '@plant-store/core'
import fc from 'fast-check'
import {
  judge,
  Principal,
  type Plant as ProbePlant,
  readBackProblems,
  roleOf,
  type State,
} from '../../lib/explore.js'
import { describeAnswer } from '../../lib/http.js'
import { describeProbe, type Probe, probeArbitrary } from '../../lib/probes.js'
import type { CheckName } from '../checks.js'
import type { Context } from '../verify.js'
import { checksFor } from './examples.js'

/** The document's operation a request goes to, by its method and path. */
function operationFor(ctx: Context, method: string, path: string): string | undefined {
  const bare = path.split('?')[0] ?? ''
  return ctx.loaded.operations.find(
    (e) =>
      e.method === method.toLowerCase() &&
      new RegExp(`^${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  )?.operationId
}

/** The probes of a run: the same for the same document, seed and id base, so one can be replayed by its number. */
export function probesOf(ctx: Context): Probe[] {
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
  for (const p of ctx.existing[0])
    state.set(p.id, { id: p.id, name: String(p.name), ...(typeof p.tag === 'string' ? { tag: p.tag } : {}) })
  const existing = new Set(ctx.existing[0].map((p) => p.id))
  if (!options.readOnly)
    for (const p of givenPlants(ctx.loaded.document)) {
      const id = ctx.idBase + BigInt(p.id)
      if (!existing.has(id))
        state.set(id, {
          id,
          name: p.name,
          ...(p.tag === undefined ? {} : { tag: p.tag }),
        } satisfies ProbePlant)
    }
  const principal = new Principal(ctx.subject.endpoint(0), state, existing)
  if (!options.readOnly) await principal.reset()
  else principal.token = ctx.subject.tokens[0]
  const probes = probesOf(ctx)
  const only = options.case === undefined ? undefined : Number(options.case)
  let skipped = 0
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
      const changes = probe.method !== 'GET' && probe.method !== 'HEAD'
      // Never a plant the run did not create; in --read-only, only what a correct server refuses.
      if (
        (changes && probe.id !== undefined && existing.has(probe.id)) ||
        (options.readOnly && changes && !probe.defect)
      ) {
        skipped++
        continue
      }
      if (i % 50 === 0) ctx.progress(`generated ${i + 1}/${probes.length}`)
      const { answer, readBack } = await principal.send(probe)
      const verdict = judge(probe, state, answer, true)
      if (readBack && verdict.problems.length === 0)
        verdict.problems.push(...readBackProblems(probe, readBack))
      const role = roleOf(probe.entry)
      const extra: CheckName[] = verdict.expected < 300 && role !== 'other' ? ['store_conformance'] : []
      if (role === 'create' && verdict.expected < 300) extra.push('create_read_back')
      results.record({
        layer: 'generated',
        operationId: probe.entry.operationId,
        checks: checksFor(probe.entry, verdict.expected, extra),
        problems: verdict.problems,
        status: answer.status,
        title: `request ${i + 1}, ${probe.defect ?? 'valid'}${probe.features.length ? ` (${probe.features.join(', ')})` : ''}`,
        request: describeProbe(probe),
        answer: describeAnswer(answer),
        document: String(verdict.expected),
        replay: ctx.replay(
          `--only generated --seed ${options.seed} --requests ${options.requests} --case ${i + 1}`,
        ),
      })
      if (options.readOnly) continue
      try {
        await principal.undo(probe, answer.status, verdict.problems.length === 0)
      } catch (error) {
        // Undoing a request is requests of its own, judged too: a wrong answer there is a failure, and
        // the principal is brought back to the state before the next request.
        const message = (error as Error).message
        const [, method = '', path = ''] = /: (\w+) (\S+) answered/.exec(message) ?? []
        results.record({
          layer: 'generated',
          operationId: operationFor(ctx, method, path) ?? probe.entry.operationId,
          checks: [],
          problems: [
            `status ${/answered (\d+)/.exec(message)?.[1]}, the document says otherwise: ${message}`,
          ],
          title: `undoing request ${i + 1}`,
          request: `${method} ${path}`,
          answer: message,
          document: 'the success status of that operation',
          replay: ctx.replay(
            `--only generated --seed ${options.seed} --requests ${options.requests} --case ${i + 1}`,
          ),
        })
        await principal.reset(probe.id)
      }
    }
  } finally {
    if (!options.readOnly && !options.keep) await principal.clear()
  }
  if (skipped)
    results.notes.push(
      `generated requests: ${skipped} skipped, as they would change a plant the run did not create${options.readOnly ? ' or change plants at all (--read-only)' : ''}${options.anyToken ? ' or send a token no principal holds (--any-token)' : ''}`,
    )
  if (stopped) results.notes.push('generated requests: stopped at the time limit')
}
