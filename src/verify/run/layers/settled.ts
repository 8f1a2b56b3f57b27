// The cases of what the document settles in prose where an implementer could read HTTP two ways: a
// method a path does not take sent without a token (its refusal or 401, either), HEAD (refused, or
// answered as GET without content), and a `+` in a query string (a space, as forms write it).
import type { Finding } from '../../checks/check.js'
import { contentTypeConformance } from '../../checks/content-type-conformance.js'
import { responseHeadersConformance } from '../../checks/response-headers-conformance.js'
import { statusCodeConformance } from '../../checks/status-code-conformance.js'
import { storeConformance } from '../../checks/store-conformance.js'
import { wwwAuthenticateOn401 } from '../../checks/www-authenticate-on-401.js'
import { parseExact } from '../../exact-json.js'
import { type Answer, describeAnswer, describeRequest, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import type { Layer } from '../../report/results.js'
import { type Context, caseArgs, caseName } from '../context.js'

/** Every status a refusal may have: any 4xx or 5xx. */
export const REFUSALS = Array.from({ length: 200 }, (_, i) => 400 + i)

/** A documented path with each parameter filled by an id of the run's own, which names no plant. */
export const concrete = (ctx: Context, path: string) => path.replace(/\{[^}]+\}/g, String(ctx.idBase + 1n))

/** One settled case as judged: its verdict, and what the case itself judged by (`own.checks`) and found. */
interface SettledCase {
  layer: Layer
  operationId: string
  kind: string
  request: RequestSpec
  answer: Answer
  /** The answer's status, counted as the operation's: none for a method the path does not take. */
  status?: number
  verdict: { checked: string[]; findings: Finding[] }
  own: { checks: string[]; findings: Finding[] }
  document: string
  title: string
}

/** Records a settled case, its own checks and findings kept to the run's selected checks. */
function record(ctx: Context, c: SettledCase): void {
  const selected = (check: string) => ctx.results.selected.has(check)
  ctx.results.record({
    layer: c.layer,
    operationId: c.operationId,
    checks: [...new Set([...c.verdict.checked, ...c.own.checks.filter(selected)])],
    findings: [...c.verdict.findings, ...c.own.findings.filter((f) => selected(f.check))],
    kinds: [c.kind],
    ...(c.status === undefined ? {} : { status: c.status }),
    title: c.title,
    request: describeRequest(c.request),
    answer: describeAnswer(c.answer),
    document: c.document,
    replay: ctx.replay(caseArgs(c.layer, caseName(c.operationId, c.title))),
  })
}

/**
 * Once per path, without a token: a method the path does not take (PATCH), which may get its
 * refusal or 401; and HEAD, with the first principal's token, where the path takes GET: a refusal,
 * or GET's status with no content.
 */
export async function settledMethods(ctx: Context): Promise<void> {
  const { subject, loaded } = ctx
  const errorSchema = loaded.document.components?.schemas?.Error
  for (const path of [...new Set(loaded.operations.map((e) => e.path))]) {
    const operations = loaded.operations.filter((e) => e.path === path)
    const first = operations[0]
    if (!first) continue
    const at = concrete(ctx, path)
    const withoutToken = `a method ${path} does not take (PATCH), without a token`
    if (
      !operations.some((e) => e.method === 'patch') &&
      operations.some((e) => e.secured) &&
      ctx.wants(caseName(first.operationId, withoutToken))
    ) {
      const request: RequestSpec = { method: 'PATCH', path: at, auth: { kind: 'none' } }
      // The server may count it against its quota for failed authentications: sent only while that has room.
      if (subject.refusalDue()) {
        ctx.results.notes.push(
          `not exercised: PATCH ${path} without a token (the server’s quota for failed authentications is spent)`,
        )
        continue
      }
      const answer = await subject.send(subject.baseUrl, request, undefined)
      const verdict = ctx.judge({
        kind: 'http',
        operation: undefined,
        request,
        answer,
        expected: {
          statuses: REFUSALS,
          says: 'the refusal of the method, or 401',
          why: `(PATCH is not an operation of ${path}, and the request has no token)`,
          bodyOptional: true,
        },
        errorSchema,
        judging: ctx.judging,
      })
      const own = {
        checks: answer.status === 401 ? [wwwAuthenticateOn401.name] : [],
        findings:
          answer.status === 401 && answer.headers['www-authenticate'] === undefined
            ? [{ check: wwwAuthenticateOn401.name, message: 'a 401 without WWW-Authenticate' }]
            : [],
      }
      record(ctx, {
        layer: 'security',
        operationId: first.operationId,
        kind: 'other method without a token',
        request,
        answer,
        verdict,
        own,
        document: 'the refusal of a method the path does not take, or 401: either may come',
        title: withoutToken,
      })
    }
    const get = operations.find((e) => e.method === 'get')
    if (!get || !ctx.wants(caseName(get.operationId, `HEAD on ${path}`))) continue
    const auth = get.secured ? subject.authorization(0) : undefined
    const asGet = await subject.send(
      subject.baseUrl,
      { method: 'GET', path: at, auth: { kind: 'principal' } },
      auth,
    )
    const request: RequestSpec = { method: 'HEAD', path: at, auth: { kind: 'principal' } }
    const answer = await subject.send(subject.baseUrl, request, auth)
    const answered = answer.status >= 200 && answer.status < 300
    const verdict = ctx.judge({
      kind: 'http',
      operation: undefined,
      request,
      answer,
      // The kit's server refuses it as any method a path does not take: 405 (the kit profile's Methods).
      expected: ctx.judging.kitProfile
        ? {
            statuses: [405],
            why: '(the kit profile: no path takes HEAD, and a method a path does not take is 405)',
            // An answer to HEAD has no content (RFC 9110, section 9.3.2), an Error neither.
            bodyOptional: true,
          }
        : {
            statuses: [asGet.status, ...REFUSALS],
            says: `a refusal, or ${asGet.status} as GET got`,
            why: '(HEAD is refused like any method a path does not take, or answered as GET without content)',
            bodyOptional: true,
          },
      errorSchema,
      judging: ctx.judging,
    })
    const own = {
      checks: answered
        ? [statusCodeConformance.name, contentTypeConformance.name, responseHeadersConformance.name]
        : [],
      findings: [] as Finding[],
    }
    if (answered && answer.status !== asGet.status)
      own.findings.push({
        check: statusCodeConformance.name,
        message: `HEAD ${path} was answered ${answer.status} where GET got ${asGet.status} (RFC 9110, section 9.3.2)`,
      })
    if (answered && answer.text.length)
      own.findings.push({
        check: contentTypeConformance.name,
        message: `HEAD ${path} was answered with content`,
      })
    // RFC 9110, section 8.6: a Content-Length on HEAD is the length GET's content would have had.
    const length = answer.headers['content-length']
    if (answered && length !== undefined && Number(length) !== Buffer.byteLength(asGet.text))
      own.findings.push({
        check: 'response_headers_conformance',
        message: `HEAD ${path} was answered with Content-Length ${length} where GET's content is ${Buffer.byteLength(asGet.text)} bytes (RFC 9110, section 8.6)`,
      })
    if (answered && answer.mediaType !== asGet.mediaType)
      own.findings.push({
        check: responseHeadersConformance.name,
        message: `HEAD ${path} was answered with Content-Type ${answer.mediaType ?? 'none'} where GET got ${asGet.mediaType ?? 'none'} (RFC 9110, section 9.3.2)`,
      })
    record(ctx, {
      layer: 'security',
      operationId: get.operationId,
      kind: 'HEAD',
      request,
      answer,
      verdict,
      own,
      document: `a refusal, or GET's status (${asGet.status}) and headers with no content`,
      title: `HEAD on ${path}`,
    })
  }
}

const PLUS_TITLE = 'a + in the query string (a space)'
const PERCENT_PLUS_TITLE = '%2B in the query string (a plus sign)'

/**
 * A `+` in a query string is a space and `%2B` a plus sign: two plants of the first principal's, tagged
 * `sweet basil` and `sweet+basil`; the page `?tag=sweet+basil` holds the first and not the second, and
 * `?tag=sweet%2Bbasil` the second and not the first.
 */
export async function plusInQuery(ctx: Context): Promise<void> {
  const { subject, results, loaded, options } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const list = ctx.list
  const tagged = list?.parameters.some((p) => p.in === 'query' && p.name === 'tag')
  if (
    !create ||
    !list ||
    !tagged ||
    ![PLUS_TITLE, PERCENT_PLUS_TITLE].some((title) => ctx.wants(caseName(list.operationId, title)))
  )
    return
  if (options.readOnly) {
    results.notes.push('not exercised: a `+` in a query string (--read-only: it creates two plants)')
    return
  }
  const spaced = ctx.idBase + 600n
  const plus = ctx.idBase + 601n
  const made: bigint[] = []
  try {
    for (const [id, tag] of [
      [spaced, 'sweet basil'],
      [plus, 'sweet+basil'],
    ] as const) {
      const answer = await subject.send(
        subject.baseUrl,
        {
          method: 'POST',
          path: create.path,
          auth: { kind: 'principal' },
          contentType: 'application/json',
          body: `{"id":${id},"name":"Verifier query plant","tag":${JSON.stringify(tag)}}`,
        },
        subject.authorization(0),
      )
      if (answer.status !== 200) {
        results.notes.push(
          `not exercised: a \`+\` in a query string (creating plant ${id} answered ${answer.status})`,
        )
        return
      }
      made.push(id)
    }
    // A `+` is a space and `%2B` a plus sign: each page holds the one plant and not the other.
    const asked = [
      ['sweet+basil', 'sweet basil', spaced, plus, PLUS_TITLE],
      ['sweet%2Bbasil', 'sweet+basil', plus, spaced, PERCENT_PLUS_TITLE],
    ] as const
    for (const [query, tag, held, left, title] of asked) {
      if (!ctx.wants(caseName(list.operationId, title))) continue
      const request: RequestSpec = {
        method: 'GET',
        path: `${list.path}?limit=100&tag=${query}`,
        auth: { kind: 'principal' },
      }
      const answer = await subject.send(subject.baseUrl, request, subject.authorization(0))
      const verdict = ctx.judge({
        kind: 'http',
        operation: list,
        request,
        answer,
        expected: { statuses: [200] },
        judging: ctx.judging,
      })
      const own = { checks: [storeConformance.name], findings: [] as Finding[] }
      if (answer.status === 200) {
        let ids: string[] = []
        try {
          const page = parseExact(answer.text)
          if (Array.isArray(page)) ids = page.map((p) => String((p as { id?: unknown }).id))
        } catch {
          // Not JSON: the response schema's check says so.
        }
        if (!ids.includes(String(held)) || ids.includes(String(left)))
          own.findings.push({
            check: storeConformance.name,
            message: `?tag=${query} asks for the tag "${tag}" (in a query string a + is a space, %2B a plus sign): the page should hold plant ${held} and not plant ${left}; it held ${ids.join(', ') || 'none'}`,
          })
      }
      record(ctx, {
        layer: 'examples',
        operationId: list.operationId,
        kind: 'plus in query',
        request,
        answer,
        status: answer.status,
        verdict,
        own,
        document: `200, the plants tagged "${tag}": plant ${held}, not plant ${left}`,
        title,
      })
    }
  } finally {
    for (const id of made) await ctx.remove(0, id)
  }
}
