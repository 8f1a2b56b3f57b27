// The requests a server refuses for their token, kept in one place: each distinct case (no token, each
// malformed Authorization header, a token no principal holds, a principal's token in the query string
// or in a cookie) is sent to
// each operation once in a run, whichever layer sends it first. A server counts such requests against
// a limit of its own (failed authentications per address), so a run sends no more of them than it needs,
// and a default run only as many as that limit holds, the most telling first.
import type { OperationEntry } from '../document.js'
import type { RequestSpec } from '../http.js'
import { baseExampleName, exampleParts } from './document-cases.js'
import { type Defect, type Parts, type Probe, requestOf, toProbe } from './probe.js'

/**
 * Stands for the first principal's own token in a refused case, put in its place as the request goes
 * (`withToken`): a case carries what a store that skipped the rule would accept, so that only the
 * rule itself makes it a 401. Reports show this name, never the token.
 */
export const PRINCIPAL_TOKEN = 'PRINCIPAL-TOKEN'

/**
 * The malformed Authorization headers, each with what is wrong with it, each holding a principal's
 * real token where it has one: every form the generated requests draw too (fetch trims a header's
 * value, so `Bearer ` travels as `Bearer`). The scheme's case is not among them: `bearer TOKEN` is
 * good (RFC 9110, section 11.1).
 */
export const MALFORMED_AUTHORIZATIONS: readonly (readonly [string, string])[] = [
  ['Basic scheme', `Basic ${PRINCIPAL_TOKEN}`],
  ['Bearer without a token', 'Bearer'],
  ['token without a scheme', PRINCIPAL_TOKEN],
  ['Bearer with two words', `Bearer ${PRINCIPAL_TOKEN} ${PRINCIPAL_TOKEN}`],
  ['no space after Bearer', `Bearer${PRINCIPAL_TOKEN}`],
  // The scheme is the header's first word, `Bearer` whole (RFC 6750, section 2.1): not a word ending in it.
  ['a scheme that ends in Bearer', `XBearer ${PRINCIPAL_TOKEN}`],
]

/**
 * Authorization headers that carry the first principal's token as `Bearer TOKEN` does, each answered
 * as it is, never refused: the case's title, the header, its kind and the rule that makes it good.
 */
export const ACCEPTED_AUTHORIZATIONS: readonly {
  title: string
  value: string
  kind: string
  rule: string
}[] = [
  {
    title: 'the bearer scheme in lower case (bearer TOKEN)',
    value: `bearer ${PRINCIPAL_TOKEN}`,
    kind: 'auth scheme in lower case',
    rule: 'the scheme’s name is case-insensitive (RFC 9110, section 11.1)',
  },
  {
    title: 'two spaces after the scheme (Bearer  TOKEN)',
    value: `Bearer  ${PRINCIPAL_TOKEN}`,
    kind: 'auth: spaces after the scheme',
    rule: 'one or more spaces part the scheme from the token (RFC 6750, section 2.1)',
  },
]

/** The query parameter some APIs read a token from (RFC 6750, section 2.3), as the generated requests send it. */
export const QUERY_TOKEN: [string, string] = ['access_token', PRINCIPAL_TOKEN]
const queryToken = /[?&]access_token=/
/** The cookie some APIs read a token from: the document says a token there is not read. */
const COOKIE_TOKEN = `access_token=${PRINCIPAL_TOKEN}`

/** The request with the principal's `token` where it stands for it: in the query string, a header, Authorization. */
export function withToken<R extends Pick<RequestSpec, 'auth' | 'path' | 'headers'>>(
  request: R,
  token: string,
): R {
  const placed = (text: string, as: string) => text.split(PRINCIPAL_TOKEN).join(as)
  if (
    !`${request.path}${JSON.stringify(request.headers ?? {})}${JSON.stringify(request.auth)}`.includes(
      PRINCIPAL_TOKEN,
    )
  )
    return request
  return {
    ...request,
    path: placed(request.path, encodeURIComponent(token)),
    auth:
      request.auth.kind === 'header'
        ? { kind: 'header', value: placed(request.auth.value, token) }
        : request.auth,
    ...(request.headers
      ? {
          headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, placed(v, token)])),
        }
      : {}),
  }
}

/** Which refused-token case a request is, or undefined when it carries a principal's token. */
export function refusalOf(request: Pick<RequestSpec, 'auth' | 'path' | 'headers'>): string | undefined {
  switch (request.auth.kind) {
    case 'principal':
      return undefined
    case 'unknown':
      return 'a token no principal holds'
    case 'header':
      return `Authorization ${JSON.stringify(request.auth.value.trim())}`
    case 'none':
      if (queryToken.test(request.path)) return 'a token in the query string'
      return request.headers?.cookie === undefined ? 'no token' : 'a token in a cookie'
  }
}

/** The refused-token cases a run has sent, by operation, and those it left out. */
export class RefusedTokens {
  private readonly sent = new Set<string>()
  /** Left out, by the same key: the operation and the case. */
  private readonly left = new Map<string, [string, string]>()

  /**
   * `spent`, in a run fitted to the server's quotas: whether its quota for failed authentications is
   * spent now. A case that meets it is then left out of the run, not waited for.
   */
  constructor(private readonly spent?: () => boolean) {}

  /**
   * Whether this request is the first of its case for the operation and is to be sent (it is then
   * counted as sent): a request with a principal's token always is.
   */
  first(operationId: string, request: Pick<RequestSpec, 'auth' | 'path' | 'headers'>): boolean {
    const refusal = refusalOf(request)
    if (refusal === undefined) return true
    const key = `${operationId}\t${refusal}`
    if (this.sent.has(key) || this.left.has(key)) return false
    if (this.spent?.()) {
      this.left.set(key, [operationId, refusal])
      return false
    }
    this.sent.add(key)
    return true
  }

  /** Counts a case as sent, whatever the quota: a named example of it, which a run always sends. */
  sending(operationId: string, request: Pick<RequestSpec, 'auth' | 'path' | 'headers'>): void {
    const refusal = refusalOf(request)
    if (refusal !== undefined) this.sent.add(`${operationId}\t${refusal}`)
  }

  /** How many distinct cases were left out. */
  get leftCount(): number {
    return this.left.size
  }

  /** A note for the report when cases were left out: how many, and which, for which operations. */
  leftOutNote(said: string | undefined): string | undefined {
    if (this.left.size === 0) return undefined
    const byCase = new Map<string, string[]>()
    for (const [operationId, refusal] of this.left.values())
      byCase.set(refusal, [...(byCase.get(refusal) ?? []), operationId])
    const which = [...byCase].map(([refusal, operations]) => `${refusal} for ${operations.join(', ')}`)
    return `refused-token cases: ${this.sent.size} sent, ${this.left.size} left out to keep to the server’s quota for failed authentications${said ? ` (${said})` : ''} instead of waiting for it: ${which.join('; ')}; give --requests and --sequences to send every case, waiting for the quota`
  }
}

/** One refused-token case of an operation: its name (`getPlant · no token`), its probe and its request. */
export interface RefusedCase {
  id: string
  entry: OperationEntry
  probe: Probe
  request: RequestSpec
}

/**
 * Every distinct refused-token case of every operation that needs a token, each built on the
 * operation's base request: no token, each malformed Authorization header, a token no principal holds
 * (unless the server makes a principal of any token), and a principal's token in the query string and
 * in a cookie.
 */
export function refusedCases(operations: OperationEntry[], anyToken = false): RefusedCase[] {
  const cases: RefusedCase[] = []
  for (const entry of operations.filter((e) => e.secured)) {
    const name = baseExampleName(entry)
    if (name === undefined) continue
    const { parts } = exampleParts(entry, name)
    const add = (
      label: string,
      defect: Defect,
      changed: Partial<Parts>,
      headers?: Record<string, string>,
    ) => {
      const probe = toProbe(entry, { ...parts, features: [], ...changed, defect })
      const request = { ...requestOf(probe), ...(headers ? { headers } : {}) }
      cases.push({ id: `${entry.operationId} · ${label}`, entry, probe, request })
    }
    add('no token', 'auth: none', { auth: { kind: 'none' } })
    for (const [label, value] of MALFORMED_AUTHORIZATIONS)
      add(`malformed Authorization (${label})`, 'auth: malformed', { auth: { kind: 'header', value } })
    if (!anyToken) add('a token no principal holds', 'auth: unknown token', { auth: { kind: 'unknown' } })
    add('a token in the query string', 'auth: token in the query string', {
      auth: { kind: 'none' },
      query: [...parts.query, QUERY_TOKEN],
    })
    add(
      'a token in a cookie',
      'auth: token in a cookie',
      { auth: { kind: 'none' } },
      { cookie: COOKIE_TOKEN },
    )
  }
  return spread(cases)
}

/** The cases every operation is sent first: the two every client meets. */
const FIRST = ['no token', 'a token no principal holds']

/**
 * The cases in the order a run sends them, so that a run that cannot send them all (a server's quota
 * for failed authentications) has sent what tells most: no token and a token no principal holds to
 * every operation, then each other case to one operation before any goes to a second, spread over the
 * operations (every operation of the document has the same security).
 */
function spread(cases: RefusedCase[]): RefusedCase[] {
  const labelOf = (c: RefusedCase) => c.id.slice(c.id.indexOf(' · ') + 3)
  const ordered = FIRST.flatMap((label) => cases.filter((c) => labelOf(c) === label))
  const rest = cases.filter((c) => !FIRST.includes(labelOf(c)))
  // How often each case and each operation has come so far.
  const times = new Map<string, number>()
  const keys = (c: RefusedCase) => [`case\t${labelOf(c)}`, `operation\t${c.entry.operationId}`] as const
  const rank = (c: RefusedCase) => keys(c).map((key) => times.get(key) ?? 0) as [number, number]
  while (rest.length) {
    let best = 0
    for (const [i, c] of rest.entries()) {
      const [caseTimes, operationTimes] = rank(c)
      const [bestCase, bestOperation] = rank(rest[best] as RefusedCase)
      if (caseTimes < bestCase || (caseTimes === bestCase && operationTimes < bestOperation)) best = i
    }
    const [next] = rest.splice(best, 1) as [RefusedCase]
    ordered.push(next)
    for (const key of keys(next)) times.set(key, (times.get(key) ?? 0) + 1)
  }
  return ordered
}
