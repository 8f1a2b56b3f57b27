// The example replay: each named request example sent as the caller whose plants are the example's
// x-given-plants (created first through the API), its answer judged against the same-named response.
// Examples a server cannot be made to give on demand (429, 500, 503, 507, and 408, which waits on the
// server's own headers timeout) are reported as not exercised.
import type { GivenPlant } from '@plant-store/core'
import { type CheckName, type Finding, finding } from '../checks.js'
import type { Context } from '../context.js'
import { UNKNOWN_TOKEN } from '../document-prose.js'
import { parseExact } from '../exact-json.js'
import { type Answer, describeAnswer, describeRequest, type RequestSpec } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { judgeAnswer } from '../judge/answer.js'
import { pagesAfter } from '../judge/links.js'
import { answerOptions } from '../judge/plant.js'
import { showsExample } from '../judge/profile.js'
import { type State, stateOf } from '../judge/state.js'
import { parametersOf } from '../report/coverage.js'
import type { ExampleCase } from '../requests/cases.js'
import { exampleCases } from '../requests/examples.js'
import { fieldsOf } from '../sequences/api.js'

const ON_DEMAND_ONLY = new Set(['over-rate-limit', 'store-down', 'fault', 'stalled'])
const ON_DEMAND = 'not to be had from a server on demand (a spent rate limit, a fault, an outage)'
const STALLED = 'a stalled request is answered only once the server’s headers timeout, its own setting, is up'

/** The ids a case's request and given plants name: those it creates, reads or changes. */
export function idsOf(request: RequestSpec, given: { id: unknown }[]): bigint[] {
  const ids = given.map((p) => BigInt(String(p.id)))
  const inPath = /\/(-?\d+)(?:[?/]|$)/.exec(request.path)?.[1]
  if (inPath) ids.push(BigInt(inPath))
  const inBody = request.body ? /"id"\s*:\s*(-?\d+)/.exec(request.body)?.[1] : undefined
  if (inBody) ids.push(BigInt(inBody))
  return [...new Set(ids)]
}

export function authorizationOf(ctx: Context, request: RequestSpec, principal: 0 | 1): string | undefined {
  switch (request.auth.kind) {
    case 'principal':
      return ctx.subject.authorization(principal)
    case 'unknown':
      return `Bearer ${UNKNOWN_TOKEN}`
    case 'header':
      return request.auth.value
    case 'none':
      return undefined
  }
}

/** The checks an answer of this operation and status is judged by. */
export function checksFor(entry: ExampleCase['entry'], status: number, extra: CheckName[] = []): CheckName[] {
  return [
    'status_code_conformance',
    'content_type_conformance',
    'response_schema_conformance',
    'response_headers_conformance',
    ...(status >= 400 ? (['error_code_conformance'] as const) : []),
    ...(status === 401 ? (['www_authenticate_on_401'] as const) : []),
    ...(roleOf(entry) === 'list' && status < 300 ? (['link_conformance'] as const) : []),
    ...extra,
  ]
}

export async function runExamples(ctx: Context): Promise<void> {
  const { subject, results, options } = ctx
  const mine = new Set(ctx.existing[0].map((p) => p.id))
  const cases = exampleCases(ctx.loaded.operations).filter((c) => !options.case || c.id === options.case)
  let done = 0
  for (const c of cases) {
    ctx.progress(`examples ${++done}/${cases.length}: ${c.id}`)
    const notExercised = (why: string) => results.notes.push(`not exercised: ${c.id} (${why})`)
    // Said by the coverage, once for every status it holds of: the same for every operation and run.
    if (c.derivation && ON_DEMAND_ONLY.has(c.derivation.kind)) {
      results.notExercisedBecause(
        c.entry.operationId,
        c.status,
        c.derivation.kind === 'stalled' ? STALLED : ON_DEMAND,
      )
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
    const replay = ctx.replay(`--only examples --case '${c.id}'`)
    try {
      const setup = await given(ctx, c)
      if (setup) {
        results.record({
          layer: 'examples',
          operationId: setup.operationId,
          checks: ['status_code_conformance'],
          findings: [finding('status_code_conformance', setup.problem)],
          status: setup.answer.status,
          title: `${c.id}, creating its x-given-plants`,
          request: setup.request,
          answer: describeAnswer(setup.answer),
          document: '200: the plant is created',
          replay,
        })
        continue
      }
      // A refused-token example is that case of its operation: the security layer does not send it again.
      ctx.refusals.sending(c.entry.operationId, c.request)
      const answer = await subject.send(subject.baseUrl, c.request, authorizationOf(ctx, c.request, 0))
      const findings: Finding[] = []
      if (answer.status !== c.status)
        findings.push(
          finding('status_code_conformance', `status ${answer.status}, the document says ${c.status}`),
        )
      findings.push(
        ...judgeAnswer(c.entry, answer, {
          // The headers the example's status must carry; another status is judged by its own response.
          requiredHeaders: answer.status === c.status ? c.requiredHeaders : [],
          ...answerOptions(ctx.judging),
        }),
      )
      const compareBody = c.status < 300 && c.body !== undefined
      const body = answer.isJson ? parseExact(answer.text) : undefined
      if (compareBody && answer.status === c.status && answer.isJson) {
        if (!showsExample(c.body?.value, body))
          findings.push(
            finding(
              'example_conformance',
              `the body does not show what the example’s response shows: ${JSON.stringify(c.body?.value)}`,
            ),
          )
        noteUndocumented(ctx, c.entry, c.status, body)
      }
      // A page of the example's plants: every page after it is followed and judged too.
      if (roleOf(c.entry) === 'list' && answer.status === c.status && c.status < 300 && answer.isJson)
        findings.push(...(await followPages(ctx, c, answer)))
      results.record({
        layer: 'examples',
        operationId: c.entry.operationId,
        checks: checksFor(c.entry, c.status, compareBody ? ['example_conformance'] : []),
        findings,
        parameters: parametersOf(c.entry, c.request),
        status: answer.status,
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
}

/**
 * Warns of each property a success answer shows that the document does not name for it: neither its
 * response's schema nor the request's (a create answers a Plant, and the id it was created with is
 * one of the plant's own, as the generated layer judges it too).
 */
export function noteUndocumented(
  ctx: Context,
  entry: ExampleCase['entry'],
  status: number,
  body: unknown,
): void {
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

/**
 * Follows a list example's Link to its end: each further page holds the next of the example's
 * plants (those the filter keeps, in ascending order of id), with Link exactly when more follow.
 */
async function followPages(ctx: Context, c: ExampleCase, first: Answer): Promise<Finding[]> {
  const query = Object.fromEntries(new URL(c.request.path, 'http://x').searchParams)
  const state: State = stateOf(c.givenPlants as unknown as GivenPlant[])
  return pagesAfter(c.entry.operationId, c.request.path, query, state, first, ctx.judging, (path) =>
    ctx.subject.send(
      ctx.subject.baseUrl,
      { method: 'GET', path, auth: { kind: 'principal' } },
      ctx.subject.authorization(0),
    ),
  )
}

/** Creates the case's x-given-plants; the failing create, if one fails. */
async function given(
  ctx: Context,
  c: ExampleCase,
): Promise<{ operationId: string; problem: string; request: string; answer: Answer } | undefined> {
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
    if (answer.status !== 200)
      return {
        operationId: create?.operationId ?? 'createPlant',
        problem: `status ${answer.status}, the document says 200 (creating the plant the example assumes)`,
        request: describeRequest(request),
        answer,
      }
  }
  return undefined
}
