// The example replay: each named request example sent as the caller whose plants are the example's
// x-given-plants (created first through the API), its answer judged against the same-named response.
// Examples a server cannot be made to give on demand (429, 500, 503, 507, and 408, which waits on the
// server's own headers timeout) are reported as not exercised. Last, what the prose settles and no
// example shows: a `+` in a query string is a space (settled.ts); and with the kit's profile, what its
// server refuses before any operation (before-operations.ts).
import type { GivenPlant } from '@plant-store/core'
import type { ExampleCase } from '../../cases/document-cases.js'
import { exampleCases } from '../../cases/examples.js'
import { refusalOf } from '../../cases/refused-tokens.js'
import type { HttpExchange } from '../../checks/exchange.js'
import { parseExact } from '../../exact-json.js'
import { describeAnswer, describeRequest, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { mergeVerdicts, type Verdict } from '../../judge/judge.js'
import { listingOf, pageSizeOf } from '../../judge/listing.js'
import { PLANT_FIELDS } from '../../judge/plant.js'
import { type State, stateOf } from '../../judge/state.js'
import { parametersOf } from '../../report/coverage.js'
import { type Context, caseArgs } from '../context.js'
import { followLinks } from '../follow-links.js'
import { fieldsOf } from '../sequences/api.js'
import { beforeOperations } from './before-operations.js'
import { plusInQuery } from './settled.js'

const ON_DEMAND_ONLY = new Set([
  'over-rate-limit',
  'over-failed-auth-limit',
  'store-down',
  'fault',
  'stalled',
])
const ON_DEMAND = 'not to be had from a server on demand (a spent rate limit, a fault, an outage)'
const STALLED =
  'a stalled request is answered only once the server’s headers timeout, its own setting, is up: --headers-timeout sends it'
/** How long past the store's headers timeout a stalled request's answer may take: timeouts are checked now and then. */
const STALL_MARGIN_MS = 5_000

/** The ids a case's request and given plants name: those it creates, reads or changes. */
function idsOf(request: RequestSpec, given: { id: unknown }[]): bigint[] {
  const ids = given.map((p) => BigInt(String(p.id)))
  const inPath = /\/(-?\d+)(?:[?/]|$)/.exec(request.path)?.[1]
  if (inPath) ids.push(BigInt(inPath))
  const inBody = request.body ? /"id"\s*:\s*(-?\d+)/.exec(request.body)?.[1] : undefined
  if (inBody) ids.push(BigInt(inBody))
  return [...new Set(ids)]
}

export async function runExamples(ctx: Context): Promise<void> {
  const { subject, results, options } = ctx
  const mine = new Set(ctx.existing[0].map((p) => p.id))
  const cases = exampleCases(ctx.loaded.operations).filter((c) => ctx.wants(c.id))
  let done = 0
  for (const c of cases) {
    ctx.progress(`examples ${++done}/${cases.length}: ${c.id}`)
    const notExercised = (why: string) => results.notes.push(`not exercised: ${c.id} (${why})`)
    // Said by the coverage, once for every status it holds of: the same for every operation and run.
    const stalled = c.derivation?.kind === 'stalled'
    if (c.derivation && ON_DEMAND_ONLY.has(c.derivation.kind) && !(stalled && options.headersTimeoutMs)) {
      results.notExercisedBecause(c.entry.operationId, c.status, stalled ? STALLED : ON_DEMAND)
      continue
    }
    const ids = idsOf(c.request, c.givenPlants)
    const taken = ids.filter((id) => mine.has(id))
    if (taken.length) {
      notExercised(`the first principal already owns plant ${taken.join(', ')}, which the example names`)
      continue
    }
    if (roleOf(c.entry) === 'list' && mine.size) {
      notExercised(
        'the example assumes the caller owns only its x-given-plants, and the first principal owns others',
      )
      continue
    }
    if (options.readOnly && (c.givenPlants.length || (c.request.method !== 'GET' && c.status < 400))) {
      notExercised('it changes plants (--read-only)')
      continue
    }
    const replay = ctx.replay(caseArgs('examples', c.id))
    try {
      if (!(await given(ctx, c, replay))) continue
      // A refused-token example is that case of its operation: the security layer does not send it again.
      ctx.refusals.sending(c.entry.operationId, c.request)
      const answer = await subject.send(
        subject.baseUrl,
        stalled ? { ...c.request, stall: (options.headersTimeoutMs ?? 0) + STALL_MARGIN_MS } : c.request,
        subject.authorizationOf(c.request.auth, 0),
      )
      // A refusal's words are the store's own; the kit's server writes each example's Error as the
      // document does, so with its profile a refusal shows its example too.
      const compareBody = (c.status < 300 || ctx.judging.kitProfile === true) && c.body !== undefined
      const list = roleOf(c.entry) === 'list' && c.status < 300
      const query = Object.fromEntries(new URL(c.request.path, 'http://x').searchParams)
      // The listing an example's page belongs to: the example's own plants, which its Link leads through.
      const state: State = stateOf(c.givenPlants as unknown as GivenPlant[])
      const exchange: HttpExchange = {
        kind: 'http',
        operation: c.entry,
        request: c.request,
        answer,
        expected: { statuses: [c.status] },
        judging: ctx.judging,
        requiredHeaders: c.requiredHeaders,
        ...(compareBody ? { example: { status: c.status, body: c.body?.value } } : {}),
        ...(list ? { page: pageOf(state, query, 1, []) } : {}),
      }
      if (compareBody && answer.status === c.status && answer.isJson)
        noteUndocumented(ctx, c.entry, c.status, parseExact(answer.text))
      const first = { exchange, verdict: ctx.judge(exchange) }
      // A page of the example's plants: every page after it is followed and judged too.
      const verdict =
        list && answer.status === c.status
          ? mergeVerdicts(
              await followLinks(first, (address, number, listed) =>
                nextPage(ctx, c, state, query, address, number, listed),
              ),
            )
          : first.verdict
      results.record({
        layer: 'examples',
        operationId: c.entry.operationId,
        checks: verdict.checked,
        findings: verdict.findings,
        parameters: parametersOf(c.entry, c.request),
        kinds: [
          `example: ${c.example}`,
          ...(c.derivation ? [`derived: ${c.derivation.kind}`] : []),
          // A request with no credentials at all, for the promises about one.
          ...(refusalOf(c.request) === 'no token' ? ['auth: none'] : []),
        ],
        status: answer.status,
        ...(exchange.expected ? { expected: [...exchange.expected.statuses] } : {}),
        title: c.example,
        request: describeRequest(c.request),
        answer: describeAnswer(answer),
        document: `${c.status}${c.body ? ` ${JSON.stringify(c.body.value)}` : ' (no body)'}`,
        replay,
      })
    } finally {
      // The case's own plants only: `mine` were filtered out above.
      if (!options.readOnly) for (const id of ids) await ctx.remove(0, id)
    }
  }
  // What the document's prose settles and no example shows: a `+` in a query string.
  await plusInQuery(ctx)
  // With the kit's profile, what its server refuses before any operation runs.
  await beforeOperations(ctx)
}

/**
 * Warns of each property a success answer shows that the document does not name for it: neither its
 * response's schema nor the request's (a create answers a Plant, and the id it was created with is
 * one of the plant's own, as the generated layer judges it too).
 */
function noteUndocumented(ctx: Context, entry: ExampleCase['entry'], status: number, body: unknown): void {
  const named = [
    ...fieldsOf(entry.operation.responses[String(status)]?.content?.['application/json']?.schema),
    ...fieldsOf(entry.operation.requestBody?.content['application/json']?.schema),
  ]
  const fields = new Set(named)
  if (fields.size === 0) return
  const items = Array.isArray(body) ? body : [body]
  for (const item of items)
    if (item && typeof item === 'object')
      for (const key of Object.keys(item))
        if (!fields.has(key)) ctx.judging.undocumented?.(entry.operationId, key)
}

/** A page of an example's listing: the example's plants past those listed on earlier pages. */
const pageOf = (state: State, query: Record<string, string>, number: number, listed: bigint[]) => ({
  number,
  plants: listingOf(state, query, listed.at(-1)),
  limit: pageSizeOf(query),
  fields: PLANT_FIELDS,
  listed,
})

/** The page a list example's Link leads to, judged against the example's plants. */
async function nextPage(
  ctx: Context,
  c: ExampleCase,
  state: State,
  query: Record<string, string>,
  address: string,
  number: number,
  listed: bigint[],
): Promise<{ exchange: HttpExchange; verdict: Verdict }> {
  const request: RequestSpec = { method: 'GET', path: address, auth: { kind: 'principal' } }
  const answer = await ctx.subject.send(ctx.subject.baseUrl, request, ctx.subject.authorization(0))
  const exchange: HttpExchange = {
    kind: 'http',
    operation: c.entry,
    request,
    answer,
    judging: ctx.judging,
    page: pageOf(state, query, number, listed),
  }
  return { exchange, verdict: ctx.judge(exchange) }
}

/**
 * Creates the case's x-given-plants, each answer judged (a failing one reported); false when one was
 * not created, and the case cannot be run.
 */
async function given(ctx: Context, c: ExampleCase, replay: string): Promise<boolean> {
  const create = ctx.loaded.operations.find((e) => roleOf(e) === 'create')
  for (const plant of c.givenPlants) {
    const request: RequestSpec = {
      method: 'POST',
      path: create?.path ?? '/plants',
      auth: { kind: 'principal' },
      contentType: 'application/json',
      body: JSON.stringify(plant),
    }
    const answer = await ctx.subject.send(ctx.subject.baseUrl, request, ctx.subject.authorization(0))
    const { checked, findings } = ctx.judge({
      kind: 'http',
      operation: create,
      request,
      answer,
      expected: { statuses: [200], why: '(creating the plant the example assumes)' },
      judging: ctx.judging,
    })
    // A set-up answer counts where it fails: the cases are the example's own request.
    if (findings.length)
      ctx.results.record({
        layer: 'examples',
        operationId: create?.operationId ?? `POST ${request.path}`,
        checks: checked,
        findings,
        status: answer.status,
        title: `${c.id}, creating its x-given-plants`,
        request: describeRequest(request),
        answer: describeAnswer(answer),
        document: '200: the plant is created',
        replay,
      })
    if (answer.status !== 200) return false
  }
  return true
}
