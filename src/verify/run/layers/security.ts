// The security cases, generated from each operation's security: no token, malformed Authorization
// headers, a token no principal holds, a principal's real token in the query string and in a cookie
// (all 401 with WWW-Authenticate, each sent once per operation in a run), the bearer scheme in lower
// case (accepted), with the kit's profile a request id of the client's own (not taken), and the
// other principal's plants: the second principal must get 404 for the first's plant, never see it in
// its list, and leave it as it was whatever it sends, and the first principal's Link targets and
// cursors get it no page (400, as a cursor never made). Besides, once per path, each
// method of every kind the path does not take, with a token (and PATCH without one), and HEAD. Last,
// when the server declares a quota small and short enough to spend at little cost (a store set up for
// a test, never the document's defaults), it is spent, and the 429 past it judged.

import { nextAddress } from '@plant-store/core'
import { baseExampleName, requestFor } from '../../cases/document-cases.js'
import { exampleCases } from '../../cases/examples.js'
import { ACCEPTED_AUTHORIZATIONS, type RefusedCase, refusedCases } from '../../cases/refused-tokens.js'
import type { HttpExchange } from '../../checks/exchange.js'
import { documentedStatuses, type OperationEntry } from '../../document.js'
import { canonical, parseExact } from '../../exact-json.js'
import { type Answer, describeAnswer, describeRequest, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { linkLeaves, resolveLink } from '../../judge/links.js'
import { parametersOf } from '../../report/coverage.js'
import { type Context, caseArgs, caseName } from '../context.js'
import { declaredQuota } from '../rate-limits.js'
import { type OwnedPlant, plantsOrStop } from '../subject.js'
import { concrete, REFUSALS, settledMethods } from './settled.js'

export async function runSecurity(ctx: Context): Promise<void> {
  const { subject, options, loaded } = ctx
  const cases = refusedCases(loaded.operations, options.anyToken).filter((c) => ctx.wants(c.id))
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
  // With --case, each part sends only the case of that name; the other principal's plants, which
  // take set-up of their own, run only for a case of theirs.
  await acceptedForms(ctx)
  await clientRequestId(ctx)
  await otherMethods(ctx)
  await unknownPath(ctx)
  await settledMethods(ctx)
  if (!options.case || options.case.endsWith(AS_SECOND)) await crossPrincipal(ctx)
  // Last, as the quotas it spends are waited out by whatever the run sends next.
  // The two quotas are spent one after the other, and their windows waited out together.
  const afterwards = [await spentQuota(ctx, 'refused'), await spentQuota(ctx, 0)]
  for (const whole of afterwards) await whole?.()
}

/**
 * A quota spendable in a run at little cost: a server declaring one as small and as short as this (a
 * store set up for a test) has it spent and its 429 judged; the document's 1000 and 20 a minute are not.
 */
export const SPENDABLE = { quota: 20, windowSeconds: 5 }

/** Seconds a declared window must still run for the next request, sent at once, to fall in it for sure. */
const SURELY_IN_WINDOW = 2

/** The case that spends the quotas, by its title (`--case 'listPlants · the rate limits, spent'`). */
export const SPENT_QUOTAS = 'the rate limits, spent'

/** The derivation of the 429 example each spent quota shows (document-prose.ts). */
const SPENDS = { refused: 'over-failed-auth-limit', 0: 'over-rate-limit' } as const

const QUOTA_TITLES = {
  refused: 'the rate limits, spent: failed authentications',
  0: 'the rate limits, spent: the principal’s',
} as const

/**
 * When the server declares a small, short quota (RateLimit-Policy) for failed authentications or for
 * the first principal: requests on the listing, one at a time and at once, until the server refuses
 * one. Past the quota the answer is 429 with Retry-After (the document's rate limits); and with the
 * kit's profile, as RateLimit says: a request after an answer that left `r=0` with the window still
 * running is refused, one after an answer that left requests is not, and the 429's RateLimit has
 * `r=0` and `t` equal to Retry-After.
 */
async function spentQuota(ctx: Context, bucket: 'refused' | 0): Promise<(() => Promise<void>) | undefined> {
  const { subject, results } = ctx
  const list = ctx.list
  if (!list?.secured || !ctx.wants(caseName(list.operationId, SPENT_QUOTAS))) return undefined
  const takesLimit = list.parameters.some((p) => p.in === 'query' && p.name === 'limit')
  const request: RequestSpec = {
    method: 'GET',
    path: `${list.path}${takesLimit ? '?limit=1' : ''}`,
    auth: bucket === 'refused' ? { kind: 'none' } : { kind: 'principal' },
  }
  const authorization = subject.authorizationOf(request.auth, 0)
  // Asked for alone (--case), the run has sent nothing of the bucket yet: one request says its quota.
  if (subject.limits.policy(bucket) === undefined && ctx.options.case !== undefined)
    await subject.sendOnce(request, authorization)
  const policy = subject.limits.policy(bucket)
  const title = QUOTA_TITLES[bucket]
  if (
    policy?.windowSeconds === undefined ||
    policy.quota > SPENDABLE.quota ||
    policy.windowSeconds > SPENDABLE.windowSeconds
  )
    return undefined
  ctx.progress(`security: ${title}`)
  const kit = ctx.judging.kitProfile === true
  // With the kit's profile, the 429 shows its bucket's example word for word: the principal's spent
  // requests, or the address's failed authentications (the derivations that name them).
  const exampleOf = kit
    ? exampleCases([list]).find((c) => c.status === 429 && c.derivation?.kind === SPENDS[bucket])?.body
    : undefined
  const judged = (answer: Answer, own: string[], check: string, statuses = [429]) => {
    const { checked, findings } = ctx.judge({
      kind: 'http',
      operation: list,
      request,
      answer,
      expected: { statuses },
      requiredHeaders: ['retry-after'],
      judging: ctx.judging,
      ...(exampleOf ? { example: { status: 429, body: exampleOf.value } } : {}),
    })
    results.record({
      layer: 'security',
      operationId: list.operationId,
      checks: [...new Set([...checked, ...(own.length ? [check] : [])])],
      findings: [...findings, ...own.map((message) => ({ check, message }))],
      kinds: ['rate limit spent'],
      status: answer.status,
      title,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: `429 Error with Retry-After past the quota the server declares (${policy.said})`,
      replay: ctx.replay(caseArgs('security', caseName(list.operationId, SPENT_QUOTAS))),
    })
  }
  // RateLimit's `t` is when the quota is whole again: a request after that long is not refused.
  const wholeAgain = (refusal: Answer) => {
    const due = Date.now() + Number(refusal.headers['retry-after']) * 1000
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))
      const answer = await subject.sendOnce(request, authorization)
      if (answer.status === 429)
        judged(
          answer,
          [
            `a 429 again after waiting the first one’s Retry-After ${refusal.headers['retry-after']}, when its RateLimit said the quota would be whole again`,
          ],
          'status_code_conformance',
        )
    }
  }
  const started = Date.now()
  let before: { remaining: number; resetSeconds: number; said: string } | undefined
  // The quota the run last waited out by its `t`: the next request falls in a new window.
  let waited: typeof before
  let last: Answer | undefined
  // The quota twice over and one more: past it in two windows, should one end mid-way; bounded.
  const most = 2 * policy.quota + 1
  for (let sent = 0; sent < most; sent++) {
    const answer = await subject.sendOnce(request, authorization)
    last = answer
    const declared = declaredQuota(answer.headers)
    // Sent at once after an answer whose window ran a second more at least: surely in that window.
    const inWindow =
      kit && before !== undefined && before.resetSeconds >= SURELY_IN_WINDOW ? before : undefined
    if (answer.status === 429) {
      const early = inWindow && inWindow.remaining > 0
      if (waited)
        judged(
          answer,
          [`a 429 after waiting the t of ${waited.said}, when its quota was to be whole again`],
          'status_code_conformance',
        )
      else if (early)
        judged(
          answer,
          [`a 429 though the answer just before it left ${inWindow.remaining} (${inWindow.said})`],
          'status_code_conformance',
        )
      else {
        const problems = kit ? refusalQuotaProblems(answer.headers, policy.windowSeconds) : []
        judged(answer, problems, 'response_headers_conformance')
        if (problems.length === 0 && kit) return wholeAgain(answer)
      }
      return undefined
    }
    if (inWindow?.remaining === 0) {
      judged(
        answer,
        [
          `answered ${answer.status}, not 429, though the answer just before it left no request in the window (${inWindow.said})`,
        ],
        'status_code_conformance',
      )
      return undefined
    }
    if (declared === undefined) {
      // The kit's RateLimit is on every counted answer: one the run cannot read ends the case.
      if (kit)
        judged(
          answer,
          [
            `a counted answer without a RateLimit the kit’s profile gives (${answer.headers.ratelimit ?? 'none'})`,
          ],
          'kit_profile_conformance',
          [answer.status],
        )
      return undefined
    }
    if (declared.remaining === 0 && declared.resetSeconds < SURELY_IN_WINDOW) {
      // The window is about to end: the next request may fall in the next one and prove nothing.
      await new Promise((resolve) => setTimeout(resolve, declared.resetSeconds * 1000))
      before = undefined
      waited = kit ? declared : undefined
    } else {
      before = declared
      waited = undefined
    }
  }
  // Twice the quota and one more, all within one window's length (so in two windows at most): one of
  // them was past the quota the server declares.
  const took = Date.now() - started
  if (kit && last && took < policy.windowSeconds * 1000)
    judged(
      last,
      [
        `${most} requests in ${took} ms, past a quota of ${policy.quota} a ${policy.windowSeconds} s window, and none refused`,
      ],
      'status_code_conformance',
    )
  return undefined
}

/**
 * What a 429's RateLimit says wrong (the kit's profile): on a 429, `r=0` and `t` equal to Retry-After,
 * and no longer than the policy's window, at whose end the quota is whole again.
 */
export function refusalQuotaProblems(headers: Record<string, string>, windowSeconds: number): string[] {
  const declared = declaredQuota(headers)
  if (declared === undefined)
    return ['a 429 without RateLimit, which the kit’s profile sends on every counted answer']
  const retryAfter = headers['retry-after']?.trim()
  const problems: string[] = []
  if (declared.remaining !== 0) problems.push(`a 429 whose ${declared.said} leaves requests (r=0 on a 429)`)
  if (retryAfter !== String(declared.resetSeconds))
    problems.push(`a 429 whose ${declared.said} has t other than its Retry-After ${retryAfter ?? '(none)'}`)
  if (declared.resetSeconds > windowSeconds)
    problems.push(`a 429 whose ${declared.said} has t past the end of its ${windowSeconds} s window`)
  return problems
}

/**
 * The first principal's token in each other good form of the header (`bearer TOKEN`, `Bearer  TOKEN`),
 * on the listing: each is answered as `Bearer TOKEN` is, never refused.
 */
async function acceptedForms(ctx: Context): Promise<void> {
  const list = ctx.list
  if (!list?.secured) return
  for (const form of ACCEPTED_AUTHORIZATIONS) {
    await listingAnswered(ctx, list, {
      title: form.title,
      kind: form.kind,
      auth: { kind: 'header', value: form.value },
      document: `200, as with Bearer TOKEN: ${form.rule}`,
    })
  }
}

/**
 * With the kit's profile, the listing asked for with a request id of the client's own, in
 * `Request-Id` and `X-Request-Id`: the answer's X-Request-Id is the server's, never the one sent
 * (kit_profile_conformance judges it).
 */
async function clientRequestId(ctx: Context): Promise<void> {
  const list = ctx.list
  if (ctx.judging.kitProfile !== true || !list?.secured) return
  const id = 'plant-store-verify-request-id'
  await listingAnswered(ctx, list, {
    title: 'a request id of the client’s own',
    kind: 'request id sent',
    auth: { kind: 'principal' },
    headers: { 'request-id': id, 'x-request-id': id },
    document: '200, whose X-Request-Id is the server’s own (the kit profile)',
  })
}

/** A first page of one plant (where the listing takes `limit`), as the first principal: judged 200. */
async function listingAnswered(
  ctx: Context,
  list: OperationEntry,
  c: {
    title: string
    kind: string
    auth: RequestSpec['auth']
    headers?: Record<string, string>
    document: string
  },
): Promise<void> {
  const { subject, results } = ctx
  const name = caseName(list.operationId, c.title)
  if (!ctx.wants(name)) return
  const takesLimit = list.parameters.some((p) => p.in === 'query' && p.name === 'limit')
  const request: RequestSpec = {
    method: 'GET',
    path: `${list.path}${takesLimit ? '?limit=1' : ''}`,
    auth: c.auth,
    ...(c.headers ? { headers: c.headers } : {}),
  }
  const answer = await subject.send(subject.baseUrl, request, subject.authorizationOf(request.auth, 0))
  const { checked, findings } = ctx.judge({
    kind: 'http',
    operation: list,
    request,
    answer,
    expected: { statuses: [200] },
    judging: ctx.judging,
  })
  results.record({
    layer: 'security',
    operationId: list.operationId,
    checks: checked,
    findings,
    parameters: parametersOf(list, request),
    kinds: [c.kind],
    status: answer.status,
    title: c.title,
    request: describeRequest(request),
    answer: describeAnswer(answer),
    document: c.document,
    replay: ctx.replay(caseArgs('security', name)),
  })
}

/** One refused-token case: 401, an Error, with WWW-Authenticate. */
async function refused(ctx: Context, c: RefusedCase, progress: string): Promise<void> {
  const { subject, results } = ctx
  const { entry } = c
  ctx.progress(progress)
  const answer = await subject.send(subject.baseUrl, c.request, subject.authorizationOf(c.request.auth, 0))
  const { checked, findings } = ctx.judge({
    kind: 'http',
    operation: entry,
    request: c.request,
    answer,
    expected: { statuses: [401] },
    requiredHeaders: ['www-authenticate'],
    judging: ctx.judging,
  })
  results.record({
    layer: 'security',
    operationId: entry.operationId,
    checks: checked,
    findings,
    parameters: parametersOf(entry, c.request),
    kinds: [c.probe.defect ?? 'valid'],
    status: answer.status,
    title: c.id.split(' · ')[1] ?? c.id,
    request: describeRequest(c.request),
    answer: describeAnswer(answer),
    document: '401 Error, with WWW-Authenticate',
    replay: ctx.replay(caseArgs('security', c.id)),
  })
}

/**
 * The second principal against the first's plants, with all the first was handed to send back: its
 * plant ids (a plant of the run's own and the next one its listing shows, or in --read-only existing
 * ones), and the Link targets and cursors of its listing, mid-listing and once it has ended.
 */
async function crossPrincipal(ctx: Context): Promise<void> {
  const { subject, results, options, loaded } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const read = loaded.operations.find((e) => roleOf(e) === 'item' && e.method === 'get')
  if (!create || !read) return
  const theirs = new Set(ctx.existing[1].map((p) => p.id))
  let plants: OwnedPlant[]
  if (options.readOnly) {
    plants = ctx.existing[0].filter((p) => !theirs.has(p.id)).slice(0, 2)
    if (!plants.length) {
      results.notes.push(
        'not exercised: the other principal’s plants (--read-only, and the first principal owns no plant the second lacks)',
      )
      return
    }
  } else {
    plants = []
    for (const n of [500n, 501n]) {
      const plant = { id: ctx.idBase + n, name: 'Verifier isolation plant', tag: ISOLATION_TAG }
      const made = await subject.send(subject.baseUrl, post(create.path, plant), subject.authorization(0))
      if (made.status !== 200) {
        results.notes.push(
          `not exercised: the other principal’s plants (creating plant ${plant.id} answered ${made.status})`,
        )
        break
      }
      plants.push(plant)
    }
  }
  try {
    if (!plants.length) return
    const others = new Map(plants.map((p) => [String(p.id), 'the first principal']))
    const listed = ctx.list ? await crossedListing(ctx, ctx.list, others, theirs) : []
    // A plant id from a create, and one from the first principal's listing.
    const ids = [...new Set([...plants.map((p) => p.id), ...listed])].filter((id) => !theirs.has(id))
    for (const [i, id] of ids.slice(0, 2).entries())
      await crossedId(ctx, id, others, theirs, i === 0 ? plants.find((p) => p.id === id) : undefined)
  } finally {
    if (!options.readOnly) for (const plant of plants) await ctx.remove(0, plant.id)
  }
}

/** How the title of each case of the other principal's plants ends. */
const AS_SECOND = 'as the second principal)'

/** The tag of the plants the run makes for the first principal, which its listing is filtered by. */
const ISOLATION_TAG = 'verify-isolation'

/**
 * The second principal sends the first's plant id in every operation that takes one; with `plant`,
 * it also creates a plant of its own with that id and lists its plants.
 */
async function crossedId(
  ctx: Context,
  id: bigint,
  others: ReadonlyMap<string, string>,
  theirs: ReadonlySet<bigint>,
  plant: OwnedPlant | undefined,
): Promise<void> {
  const { subject, results, options, loaded } = ctx
  const read = loaded.operations.find((e) => roleOf(e) === 'item' && e.method === 'get')
  if (!read) return
  const itemPath = (path: string) => path.replace(/\{[^}]+\}/, String(id))
  const readFirst = async (): Promise<Answer> =>
    subject.send(
      subject.baseUrl,
      { method: 'GET', path: itemPath(read.path), auth: { kind: 'principal' } },
      subject.authorization(0),
    )
  const ops = loaded.operations.filter(
    (e) => e.secured && (roleOf(e) === 'item' || roleOf(e) === 'list' || roleOf(e) === 'create'),
  )
  for (const entry of ops) {
    const role = roleOf(entry)
    if (options.readOnly && entry.method !== 'get') continue
    if ((role === 'create' || role === 'list') && !plant) continue
    if (role === 'create' && theirs.has(id)) continue
    const title = `the other principal's plant (${entry.method.toUpperCase()} ${AS_SECOND}`
    if (!ctx.wants(caseName(entry.operationId, title))) continue
    const name = baseExampleName(entry)
    const base = name === undefined ? undefined : requestFor(entry, name).request
    let request: RequestSpec
    let expected: number
    if (role === 'create' && plant) {
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
    // Read before each request, so that a change is told by the request that made it.
    const before = canonical(parseExact((await readFirst()).text))
    const answer = await subject.send(subject.baseUrl, request, subject.authorization(1))
    const listing =
      role === 'list' && answer.status === 200 && ctx.list
        ? plantsOrStop(await subject.plantsOf(ctx.list, 1)).map((p) => p.id)
        : undefined
    const own = new Set([...theirs].map(String))
    if (role === 'create') own.add(String(id))
    const exchange: HttpExchange = {
      kind: 'http',
      operation: entry,
      request,
      answer,
      expected: { statuses: [expected] },
      judging: ctx.judging,
      isolation: {
        others,
        own,
        caller: 'the second principal',
        ...(role === 'item' ? { named: id } : {}),
        ...(listing ? { listing } : {}),
        untouched: { id, before, after: await readFirst() },
      },
    }
    const { checked, findings } = ctx.judge(exchange)
    results.record({
      layer: 'security',
      operationId: entry.operationId,
      checks: checked,
      findings,
      parameters: parametersOf(entry, request),
      kinds: ['other principal'],
      status: answer.status,
      title,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: `${expected}, and the first principal's plant unchanged`,
      // The same plant ids, made from the seed, in the replay.
      replay: ctx.replay(
        `${caseArgs('security', caseName(entry.operationId, title))} --seed=${options.seed}`,
      ),
    })
    if (role === 'create' && answer.status === 200) await ctx.remove(1, id)
  }
}

/**
 * The first principal's listing, one plant a page (of the run's plants, by their tag, unless
 * --read-only), walked to its end; the second principal sends each page's Link target as it is and
 * its cursor alone in a list request of its own, before the first follows it and again once the
 * listing has ended (the last page's Link too, when it has one). Each must be refused as a cursor
 * the server did not make (when the document answers the listing 400), and show none of the first
 * principal's plants. Returns the ids the listing showed.
 */
async function crossedListing(
  ctx: Context,
  list: OperationEntry,
  others: Map<string, string>,
  theirs: ReadonlySet<bigint>,
): Promise<bigint[]> {
  const { subject, options } = ctx
  const takes = (name: string) => list.parameters.some((p) => p.in === 'query' && p.name === name)
  if (!takes('limit')) return []
  let address = `${list.path}?limit=1${!options.readOnly && takes('tag') ? `&tag=${ISOLATION_TAG}` : ''}`
  const links: string[] = []
  const listed: bigint[] = []
  let ended = false
  for (let page = 0; page < 10; page++) {
    const answer = await subject.send(
      subject.baseUrl,
      { method: 'GET', path: address, auth: { kind: 'principal' } },
      subject.authorization(0),
    )
    const body = answer.status === 200 && answer.isJson ? parseExact(answer.text) : undefined
    if (!Array.isArray(body)) return listed
    for (const item of body) {
      const id = (item as Record<string, unknown> | null)?.id
      if (typeof id === 'bigint') {
        listed.push(id)
        if (!theirs.has(id)) others.set(String(id), 'the first principal')
      }
    }
    const next = nextAddress(answer.headers.link)
    const from = answer.url ?? address
    const target = next === undefined ? undefined : resolveLink(next, from)
    if (target !== undefined && linkLeaves(target, from)) return listed
    if (target === undefined || body.length === 0) {
      // The last page's Link, if it has one, leads past the end.
      if (target !== undefined) links.push(target)
      ended = true
      break
    }
    links.push(target)
    // Mid-listing: before the first principal follows it.
    await crossedLink(ctx, list, target, others, theirs, 'mid-listing')
    address = target
  }
  if (ended)
    for (const target of links) await crossedLink(ctx, list, target, others, theirs, 'once the listing ended')
  return listed
}

/** The second principal sends one of the first's Link targets, then its cursor in a list request of its own. */
async function crossedLink(
  ctx: Context,
  list: OperationEntry,
  target: string,
  others: ReadonlyMap<string, string>,
  theirs: ReadonlySet<bigint>,
  when: string,
): Promise<void> {
  const { subject, results, options } = ctx
  const refused = documentedStatuses(list).includes(400) ? 400 : undefined
  const cursor = new URL(target, 'http://store.invalid/').searchParams.get('cursor')
  const sent: [string, string][] = [[target, `the first principal's Link, ${when}`]]
  if (cursor !== null && list.parameters.some((p) => p.in === 'query' && p.name === 'cursor'))
    sent.push([
      `${list.path}?cursor=${encodeURIComponent(cursor)}`,
      `the first principal's cursor in a list of its own, ${when}`,
    ])
  for (const [path, what] of sent) {
    const title = `${what} (GET ${AS_SECOND}`
    if (!ctx.wants(caseName(list.operationId, title))) continue
    const request: RequestSpec = { method: 'GET', path, auth: { kind: 'principal' } }
    const answer = await subject.send(subject.baseUrl, request, subject.authorization(1))
    const { checked, findings } = ctx.judge({
      kind: 'http',
      operation: list,
      request,
      answer,
      ...(refused ? { expected: { statuses: [refused] } } : {}),
      judging: ctx.judging,
      isolation: {
        others,
        own: new Set([...theirs].map(String)),
        caller: 'the second principal',
        crossed: { what, ...(refused ? { refused } : {}) },
      },
    })
    results.record({
      layer: 'security',
      operationId: list.operationId,
      checks: checked,
      findings,
      parameters: parametersOf(list, request),
      kinds: ['other principal', 'crossed link'],
      status: answer.status,
      title,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: refused
        ? `${refused}, as a cursor the server did not make, and none of the first principal's plants`
        : "none of the first principal's plants",
      replay: ctx.replay(`${caseArgs('security', caseName(list.operationId, title))} --seed=${options.seed}`),
    })
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
 * The methods sent to each path that does not take them, each with the kinds its case is recorded
 * under: one HTTP defines (PATCH), two an HTTP framework may answer before the store's code runs
 * (TRACE, OPTIONS), one no specification defines (FOO), and GET spelled in lower case, which HTTP's
 * case-sensitive methods make another, unknown method (RFC 9110, section 9.1).
 */
const OTHER_METHODS: readonly (readonly [string, readonly string[]])[] = [
  ['PATCH', []],
  ['TRACE', ['method a framework answers']],
  ['OPTIONS', ['method a framework answers']],
  ['FOO', ['unknown method']],
  ['get', ['unknown method', 'method in lower case']],
]

/** The refusals of a method the path does not take: a 4xx, or 501 for one the server does not know. */
const FOUR_XX = REFUSALS.filter((status) => status < 500)

/**
 * Every method of OTHER_METHODS a path does not take, once per path, with a valid token: the store
 * must refuse it (a 4xx, or 501 for an unknown method, an Error whenever it writes a body) and change
 * nothing; a 405 must carry an Allow that lists every method the path takes (RFC 9110, section
 * 15.5.6), and answering 405 is the document's recommendation, a warning when not followed. The kit
 * profile's exact 405 is judged by its own example.
 */
async function otherMethods(ctx: Context): Promise<void> {
  const { subject, results, loaded } = ctx
  const errorSchema = loaded.document.components?.schemas?.Error
  const paths = [...new Set(loaded.operations.map((e) => e.path))]
  for (const path of paths) {
    const operations = loaded.operations.filter((e) => e.path === path)
    const first = operations[0]
    if (!first) continue
    const allowed = operations.map((e) => e.method.toUpperCase())
    for (const [method, kinds] of OTHER_METHODS) {
      const title = `a method ${path} does not take (${method})`
      if (allowed.includes(method) || !ctx.wants(caseName(first.operationId, title))) continue
      const unknown = kinds.includes('unknown method')
      // The kit profile settles what the interface leaves open: 501 for a method it does not know.
      const kitUnknown = unknown && ctx.judging.kitProfile === true
      const request: RequestSpec = { method, path: concrete(ctx, path), auth: { kind: 'principal' } }
      const answer = await subject.send(subject.baseUrl, request, subject.authorization(0))
      if (answer.status !== 405 && !(unknown && answer.status === 501))
        results.warn(
          `recommendation not followed: a method a path does not take is answered 405 with Allow (RFC 9110, section 15.5.6); ${method} ${path} got ${answer.status} (the path takes ${allowed.join(', ')})`,
          `other-method\t${path}\t${method}`,
        )
      const { checked, findings } = ctx.judge({
        kind: 'http',
        operation: undefined,
        request,
        answer,
        expected: {
          statuses: kitUnknown ? [501] : unknown ? [...FOUR_XX, 501] : FOUR_XX,
          says: kitUnknown
            ? '501 (the kit profile: a method the server does not know)'
            : unknown
              ? 'a refusal (4xx, or 501 for a method the store does not know)'
              : 'a refusal (4xx)',
          why: `(${method} is not an operation of ${path})`,
          bodyOptional: true,
        },
        errorSchema,
        judging: ctx.judging,
      })
      const allow = results.selected.has('response_headers_conformance') && answer.status === 405
      const own = allow ? allowProblems(answer, allowed, ctx.judging.kitProfile === true) : []
      // The kit's profile settles the recommendation for a method HTTP defines: 405, always.
      const kit405 =
        ctx.judging.kitProfile === true && !unknown && results.selected.has('kit_profile_conformance')
      if (kit405 && answer.status !== 405)
        own.push(
          `${method} ${path} answered ${answer.status}: the kit profile answers a method a documented path does not take 405, with Allow`,
        )
      results.record({
        layer: 'security',
        operationId: first.operationId,
        checks: [
          ...new Set([
            ...checked,
            ...(answer.status === 405 ? ['response_headers_conformance'] : []),
            ...(kit405 ? ['kit_profile_conformance'] : []),
          ]),
        ],
        findings: [
          ...findings,
          ...own.map((message) => ({
            check: message.includes('the kit profile')
              ? 'kit_profile_conformance'
              : 'response_headers_conformance',
            message,
          })),
        ],
        kinds: ['other method', ...kinds],
        title,
        request: describeRequest(request),
        answer: describeAnswer(answer),
        document: `a refusal${unknown ? ' (4xx, or 501 for a method the store does not know)' : ''} (405 with Allow recommended), an Error when it has a body`,
        replay: ctx.replay(caseArgs('security', caseName(first.operationId, title))),
      })
    }
  }
}

/**
 * A path the document does not have, under one it has, with a valid token: the store must refuse it (a
 * 4xx; 404, as HTTP has it, whatever comes first), an Error whenever it writes a body.
 */
async function unknownPath(ctx: Context): Promise<void> {
  const { subject, results, loaded } = ctx
  const operationId = ctx.list?.operationId
  const title = 'a path the document does not have'
  if (operationId === undefined || !ctx.wants(caseName(operationId, title))) return
  const request: RequestSpec = {
    method: 'GET',
    path: `${concrete(ctx, ctx.list?.path ?? '/plants')}/${ctx.idBase + 1n}/leaves`,
    auth: { kind: 'principal' },
  }
  const answer = await subject.send(subject.baseUrl, request, subject.authorization(0))
  const { checked, findings } = ctx.judge({
    kind: 'http',
    operation: undefined,
    request,
    answer,
    expected: {
      statuses: FOUR_XX,
      says: 'a refusal (4xx)',
      why: '(no operation has this path)',
      bodyOptional: true,
    },
    errorSchema: loaded.document.components?.schemas?.Error,
    judging: ctx.judging,
  })
  results.record({
    layer: 'security',
    operationId,
    checks: checked,
    findings,
    kinds: ['unknown path'],
    title,
    request: describeRequest(request),
    answer: describeAnswer(answer),
    document: 'a refusal (4xx), an Error when it has a body',
    replay: ctx.replay(caseArgs('security', caseName(operationId, title))),
  })
}

/**
 * What is wrong with a 405's Allow (RFC 9110, section 15.5.6: it MUST be sent, listing the methods the
 * target takes): missing, or without one of `takes`, or (`exact`, the kit profile's Allow) with one
 * more. Methods are compared as written, case and all.
 */
export function allowProblems(answer: Answer, takes: readonly string[], exact = false): string[] {
  if (answer.status !== 405) return []
  const allow = answer.headers.allow
  if (allow === undefined)
    return ['a 405 without Allow (RFC 9110, section 15.5.6: an origin server MUST send it)']
  const listed = allow.split(',').map((m) => m.trim())
  const missing = takes.filter((m) => !listed.includes(m))
  const extra = exact ? listed.filter((m) => !takes.includes(m)) : []
  return [
    ...(missing.length
      ? [
          `a 405 whose Allow (${allow}) leaves out ${missing.join(', ')}, which the path takes (RFC 9110, section 15.5.6)`,
        ]
      : []),
    ...(extra.length
      ? [
          `a 405 whose Allow (${allow}) lists ${extra.join(', ')}, which the path does not take (the kit profile: Allow lists the methods the path takes)`,
        ]
      : []),
  ]
}
