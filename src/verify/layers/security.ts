// The security cases, generated from each operation's security: no token, malformed Authorization
// headers, a token no principal holds, a token in the query string (all 401 with WWW-Authenticate,
// each sent once per operation in a run), and the other principal's plants: the second principal must
// get 404 for the first's plant, never see it in its list, and leave it as it was whatever it sends.

import { type Finding, finding } from '../checks.js'
import type { Context } from '../context.js'
import { canonical, parseExact } from '../exact-json.js'
import { type Answer, describeAnswer, describeRequest, type RequestSpec } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { judgeAnswer, judgeErrorAnswer } from '../judge/answer.js'
import { answerOptions } from '../judge/plant.js'
import { parametersOf } from '../report/coverage.js'
import { baseExampleName, requestFor } from '../requests/cases.js'
import { type RefusedCase, refusedCases } from '../requests/refused-tokens.js'
import { authorizationOf, checksFor } from './examples.js'

export async function runSecurity(ctx: Context): Promise<void> {
  const { subject, options, loaded } = ctx
  const cases = refusedCases(loaded.operations, options.anyToken).filter(
    (c) => !options.case || c.id === options.case,
  )
  // Each case once per operation in the run (the examples send some first). Past the server's quota
  // for failed authentications, a case is left for the end of the run, when its window may have moved
  // on: the run need not stand still for it.
  const later: RefusedCase[] = []
  for (const [i, c] of cases.entries()) {
    if (!ctx.refusals.first(c.entry.operationId, c.request)) continue
    if (subject.refusalDue()) later.push(c)
    else await refused(ctx, c, `security ${i + 1}/${cases.length}: ${c.id}`)
  }
  for (const [i, c] of later.entries())
    ctx.deferred.push({
      layer: 'security',
      run: () => refused(ctx, c, `security, left for the end ${i + 1}/${later.length}: ${c.id}`),
    })
  if (!options.case) {
    await otherMethods(ctx)
    await crossPrincipal(ctx)
  }
}

/** One refused-token case: 401, an Error, with WWW-Authenticate. */
async function refused(ctx: Context, c: RefusedCase, progress: string): Promise<void> {
  const { subject, results } = ctx
  const { entry } = c
  ctx.progress(progress)
  const answer = await subject.send(subject.baseUrl, c.request, authorizationOf(ctx, c.request, 0))
  const findings: Finding[] = []
  if (answer.status !== 401)
    findings.push(finding('status_code_conformance', `status ${answer.status}, the document says 401`))
  findings.push(
    ...judgeAnswer(entry, answer, {
      requiredHeaders: ['www-authenticate'],
      ...answerOptions(ctx.judging),
    }),
  )
  results.record({
    layer: 'security',
    operationId: entry.operationId,
    checks: checksFor(entry, 401),
    findings,
    parameters: parametersOf(entry, c.request),
    status: answer.status,
    title: c.id.split(' · ')[1] ?? c.id,
    request: describeRequest(c.request),
    answer: describeAnswer(answer),
    document: '401 Error, with WWW-Authenticate',
    replay: ctx.replay(`--only security --case '${c.id}'`),
  })
}

/** The second principal against the first's plant: a plant of the run's own, or in --read-only an existing one. */
async function crossPrincipal(ctx: Context): Promise<void> {
  const { subject, results, options, loaded } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const read = loaded.operations.find((e) => roleOf(e) === 'item' && e.method === 'get')
  if (!create || !read) return
  const theirs = new Set(ctx.existing[1].map((p) => p.id))
  let id: bigint
  let plant: Record<string, unknown>
  if (options.readOnly) {
    const candidate = ctx.existing[0].find((p) => !theirs.has(p.id))
    if (!candidate) {
      results.notes.push(
        'not exercised: the other principal’s plants (--read-only, and the first principal owns no plant the second lacks)',
      )
      return
    }
    id = candidate.id
    plant = candidate
  } else {
    id = ctx.idBase + 500n
    plant = { id, name: 'Verifier isolation plant', tag: 'verify' }
    const made = await subject.send(subject.baseUrl, post(create.path, plant), subject.authorization(0))
    if (made.status !== 200) {
      results.notes.push(
        `not exercised: the other principal’s plants (creating plant ${id} answered ${made.status})`,
      )
      return
    }
  }
  const itemPath = (path: string) => path.replace(/\{[^}]+\}/, String(id))
  const readFirst = async (): Promise<Answer> =>
    subject.send(
      subject.baseUrl,
      { method: 'GET', path: itemPath(read.path), auth: { kind: 'principal' } },
      subject.authorization(0),
    )
  const before = parseExact((await readFirst()).text)
  try {
    const ops = loaded.operations.filter(
      (e) => e.secured && (roleOf(e) === 'item' || roleOf(e) === 'list' || roleOf(e) === 'create'),
    )
    for (const entry of ops) {
      const role = roleOf(entry)
      if (options.readOnly && entry.method !== 'get') continue
      if (role === 'create' && theirs.has(id)) continue
      const name = baseExampleName(entry)
      const base = name === undefined ? undefined : requestFor(entry, name).request
      let request: RequestSpec
      let expected: number
      if (role === 'create') {
        // Ids are the principal's own: the second may use the first's id for a plant of its own.
        request = post(entry.path, { ...plant, name: 'Verifier second principal plant' })
        expected = 200
      } else if (role === 'list') {
        request = { method: 'GET', path: entry.path, auth: { kind: 'principal' } }
        expected = 200
      } else {
        request = {
          ...(base ?? { auth: { kind: 'principal' } }),
          method: entry.method.toUpperCase(),
          path: itemPath(entry.path),
        }
        expected = 404
      }
      const answer = await subject.send(subject.baseUrl, request, subject.authorization(1))
      const findings: Finding[] = []
      if (answer.status !== expected)
        findings.push(
          finding(
            expected === 404 && answer.status < 300 ? 'principal_isolation' : 'status_code_conformance',
            `status ${answer.status}, the document says ${expected}: the other principal's plant ${id} is not the caller's`,
          ),
        )
      findings.push(...judgeAnswer(entry, answer, answerOptions(ctx.judging)))
      if (role === 'list' && answer.status === 200) {
        const all = ctx.list ? await subject.plantsOf(ctx.list, 1) : []
        if (all.some((p) => p.id === id && !theirs.has(id)))
          findings.push(
            finding(
              'principal_isolation',
              `the second principal's list shows plant ${id}, the other principal's: isolation between principals is broken`,
            ),
          )
      }
      const after = await readFirst()
      if (after.status !== 200 || canonical(parseExact(after.text)) !== canonical(before))
        findings.push(
          finding(
            'principal_isolation',
            `after the second principal's ${request.method}, the first principal's plant ${id} reads ${describeAnswer(after)}: the other principal changed it`,
          ),
        )
      results.record({
        layer: 'security',
        operationId: entry.operationId,
        checks: [...checksFor(entry, expected), 'principal_isolation'],
        findings,
        parameters: parametersOf(entry, request),
        status: answer.status,
        title: `the other principal's plant (${request.method} as the second principal)`,
        request: describeRequest(request),
        answer: describeAnswer(answer),
        document: `${expected}, and the first principal's plant unchanged`,
        replay: ctx.replay('--only security'),
      })
      if (role === 'create' && answer.status === 200) await ctx.remove(1, id)
    }
  } finally {
    if (!options.readOnly) await ctx.remove(0, id)
  }
}

function post(path: string, plant: Record<string, unknown>): RequestSpec {
  const fields = Object.entries(plant).map(
    ([k, v]) => `${JSON.stringify(k)}:${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`,
  )
  return {
    method: 'POST',
    path,
    auth: { kind: 'principal' },
    contentType: 'application/json',
    body: `{${fields.join(',')}}`,
  }
}

/**
 * A method no path of the document takes (PATCH), once per path, with a valid token: the store must
 * refuse it (a 4xx or 5xx, an Error whenever it writes a body) and change nothing; that the refusal
 * is 405 with Allow is the document's recommendation (RFC 9110), a warning when not followed. The
 * kit profile's exact 405 is judged by its own example.
 */
async function otherMethods(ctx: Context): Promise<void> {
  const { subject, results, loaded } = ctx
  const errorSchema = loaded.document.components?.schemas?.Error
  const paths = [...new Set(loaded.operations.map((e) => e.path))]
  for (const path of paths) {
    const operations = loaded.operations.filter((e) => e.path === path)
    const first = operations[0]
    if (!first || operations.some((e) => e.method === 'patch')) continue
    const concrete = path.replace(/\{[^}]+\}/g, String(ctx.idBase + 1n))
    const request: RequestSpec = { method: 'PATCH', path: concrete, auth: { kind: 'principal' } }
    const answer = await subject.send(subject.baseUrl, request, subject.authorization(0))
    const findings: Finding[] = []
    if (answer.status < 400)
      findings.push(
        finding(
          'status_code_conformance',
          `status ${answer.status}: PATCH is not an operation of ${path}, the store must refuse it`,
        ),
      )
    else if (answer.text !== '') findings.push(...judgeErrorAnswer(errorSchema, answer))
    const allowed = operations.map((e) => e.method.toUpperCase())
    if (answer.status !== 405 || answer.headers.allow === undefined)
      results.warn(
        `recommendation not followed: a method a path does not take is answered 405 with Allow (RFC 9110, section 15.5.6); PATCH ${path} got ${answer.status}${answer.status === 405 ? ' without Allow' : ''} (the path takes ${allowed.join(', ')})`,
        `other-method\t${path}`,
      )
    results.record({
      layer: 'security',
      operationId: first.operationId,
      checks: [
        'status_code_conformance',
        'content_type_conformance',
        'response_schema_conformance',
        'error_code_conformance',
      ],
      findings,
      title: `a method ${path} does not take (PATCH)`,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: 'a refusal (405 with Allow recommended), an Error when it has a body',
      replay: ctx.replay('--only security'),
    })
  }
}
