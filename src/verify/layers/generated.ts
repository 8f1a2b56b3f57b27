// Generated requests: valid ones and ones with exactly one defect, drawn from the document's schemas,
// parameters, security and content types, each judged by the status the document gives it in the
// caller's state, the answer's schema and headers, the page against the caller's plants, and a
// create read back digit for digit. What a request changed is undone before the next.
import { BODY_LIMIT, givenPlants, pickPlant } from '@plant-store/core'
import fc from 'fast-check'
import { type CheckName, finding } from '../checks.js'
import type { Context } from '../context.js'
import type { OperationEntry } from '../document.js'
import { describeAnswer, describeRequest } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { pagesAfter } from '../judge/links.js'
import { judge, readBackFindings } from '../judge/listing.js'
import type { Plant as ProbePlant } from '../judge/plant.js'
import { Housekeeping, namedIds, Principal } from '../judge/principal.js'
import type { State } from '../judge/state.js'
import { parametersOf } from '../report/coverage.js'
import { coveragePlant, coverageProbes } from '../requests/coverage-phase.js'
import { describeProbe, type Probe, probeArbitrary, requestOf } from '../requests/generated.js'
import { checksFor } from './examples.js'

/** The document's operation a request goes to, by its method and path. */
export function operationFor(ctx: Context, method: string, path: string): OperationEntry | undefined {
  // A followed Link is sent as an absolute URL: its path below the base URL's is the document's.
  const bare = /^[a-z][a-z0-9+.-]*:/i.test(path)
    ? belowBase(ctx.subject.baseUrl, path)
    : (path.split('?')[0] ?? '')
  return ctx.loaded.operations.find(
    (e) =>
      e.method === method.toLowerCase() &&
      new RegExp(`^${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  )
}

/** The path of an absolute URL below the base URL's own path ('' when it is not on the base URL). */
function belowBase(baseUrl: string, address: string): string {
  const base = new URL(baseUrl)
  const url = new URL(address)
  const prefix = base.pathname.replace(/\/+$/, '')
  if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) return ''
  return url.pathname.slice(prefix.length)
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
  const { judging } = ctx
  const principal = new Principal(ctx.subject.endpoint(0), state, existing)
  const replayOf = (i: number) =>
    i < 0
      ? ctx.replay(`--only generated --seed ${options.seed} --requests 1`)
      : ctx.replay(`--only generated --seed ${options.seed} --requests ${options.requests} --case ${i + 1}`)
  if (!options.readOnly) {
    if (!(await housekeeping(ctx, 'setting up the caller’s plants', replayOf(-1), () => principal.reset())))
      return
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
      const { answer, readBack } = await principal.send(probe)
      const verdict = judge(probe, state, answer, true, judging)
      if (readBack && verdict.findings.length === 0)
        verdict.findings.push(...readBackFindings(probe, readBack, judging))
      const role = roleOf(probe.entry)
      // Every listing is followed through its Link to its end, filtered or not.
      if (role === 'list' && verdict.findings.length === 0 && answer.status === 200)
        verdict.findings.push(
          ...(await pagesAfter(
            probe.entry.operationId,
            probe.path,
            probe.query,
            state,
            answer,
            judging,
            (path) =>
              ctx.subject.send(
                ctx.subject.baseUrl,
                { method: 'GET', path, auth: { kind: 'principal' } },
                `Bearer ${principal.token}`,
              ),
          )),
        )
      const extra: CheckName[] = verdict.expected < 300 && role !== 'other' ? ['store_conformance'] : []
      if (role === 'create' && verdict.expected < 300) extra.push('create_read_back')
      if (!probe.defect) extra.push('positive_data_acceptance')
      results.record({
        layer: 'generated',
        operationId: probe.entry.operationId,
        checks: checksFor(probe.entry, verdict.expected, extra),
        findings: verdict.findings,
        parameters: parametersOf(probe.entry, requestOf(probe)),
        status: answer.status,
        title: `request ${i + 1}${probe.covers ? ` (coverage: ${probe.covers})` : ''}, ${probe.defect ?? 'valid'}${probe.features.length ? ` (${probe.features.join(', ')})` : ''}`,
        request: describeProbe(probe),
        answer: describeAnswer(answer),
        document: verdict.accepted.join(' or '),
        replay: replayOf(i),
      })
      if (options.readOnly) continue
      const undone = await housekeeping(ctx, `undoing request ${i + 1}`, replayOf(i), () =>
        principal.undo(probe, answer.status, verdict.findings.length === 0),
      )
      // The principal is brought back to the state before the next request; if even that fails, the
      // layer cannot go on.
      if (
        !undone &&
        !(await housekeeping(ctx, `restoring the caller’s plants after request ${i + 1}`, replayOf(i), () =>
          principal.reset(...namedIds(probe)),
        ))
      )
        return
    }
  } finally {
    if (!options.readOnly && !options.keep)
      await housekeeping(ctx, 'deleting the run’s plants', replayOf(-1), () => principal.clear())
  }
  if (skipped)
    results.notes.push(
      `generated requests: ${skipped} skipped, as they would change a plant the run did not create${options.readOnly ? ' or change plants at all (--read-only)' : ''}${options.anyToken ? ' or send a token no principal holds (--any-token)' : ''}`,
    )
  if (refusedBefore)
    results.notes.push(
      `generated requests: ${refusedBefore} not sent, each a refused-token case (no token, a malformed Authorization header, a token no principal holds, a token in the query string) its operation had been sent already${ctx.refusals.leftCount ? ' or that was left out to keep to the server’s quota for failed authentications' : ''}`,
    )
  if (stopped) results.notes.push('generated requests: stopped at the time limit')
}

/**
 * Runs requests that set up or undo state. An answer the document does not give them is judged and
 * reported like any other (never a crash), and the layer is told it cannot rely on the state: false.
 */
export async function housekeeping(
  ctx: Context,
  what: string,
  replay: string,
  work: () => Promise<void>,
): Promise<boolean> {
  try {
    await work()
    return true
  } catch (error) {
    if (!(error instanceof Housekeeping)) {
      ctx.results.stop('generated', `${what}: ${(error as Error).message}`)
      return false
    }
    const { request, answer, expected } = error
    ctx.results.record({
      layer: 'generated',
      operationId:
        operationFor(ctx, request.method, request.path)?.operationId ?? `${request.method} ${request.path}`,
      checks: ['status_code_conformance'],
      findings: [
        finding(
          'status_code_conformance',
          `status ${answer.status}, the document says ${expected} (${what})`,
        ),
      ],
      status: answer.status,
      title: what,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: String(expected),
      replay,
    })
    return false
  }
}
