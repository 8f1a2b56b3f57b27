// The requests a server refuses for their token, kept in one place: each distinct case (no token, each
// malformed Authorization header, a token no principal holds, a token in the query string) is sent to
// each operation once in a run, whichever layer sends it first. A server counts such requests against
// a limit of its own (failed authentications per address), so a run sends no more of them than it needs,
// and a default run only as many as that limit holds, the most telling first.
import type { OperationEntry } from '../document.js'
import type { Auth, RequestSpec } from '../http.js'
import { baseExampleName, requestFor } from './cases.js'

/**
 * The malformed Authorization headers, each with what is wrong with it: every form the generated
 * requests draw too (fetch trims a header's value, so `Bearer ` travels as `Bearer`).
 */
export const MALFORMED_AUTHORIZATIONS: readonly (readonly [string, string])[] = [
  ['Basic scheme', 'Basic dXNlcjpwYXNz'],
  ['Bearer without a token', 'Bearer'],
  ['token without a scheme', 'token-a'],
  ['Bearer with two words', 'Bearer a b'],
  ['no space after Bearer', 'Bearertoken'],
]

/** The query parameter some APIs read a token from (RFC 6750, section 2.3), as the generated requests send it. */
const QUERY_TOKEN = 'access_token=token-of-a-principal'
const queryToken = /[?&]access_token=/

/** Which refused-token case a request is, or undefined when it carries a principal's token. */
export function refusalOf(request: { auth: Auth; path: string }): string | undefined {
  switch (request.auth.kind) {
    case 'principal':
      return undefined
    case 'unknown':
      return 'a token no principal holds'
    case 'header':
      return `Authorization ${JSON.stringify(request.auth.value.trim())}`
    case 'none':
      return queryToken.test(request.path) ? 'a token in the query string' : 'no token'
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
  first(operationId: string, request: Pick<RequestSpec, 'auth' | 'path'>): boolean {
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
  sending(operationId: string, request: Pick<RequestSpec, 'auth' | 'path'>): void {
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

/** One refused-token case of an operation: its name (`getPlant · no token`) and its request. */
export interface RefusedCase {
  id: string
  entry: OperationEntry
  request: RequestSpec
}

/**
 * Every distinct refused-token case of every operation that needs a token, each built on the
 * operation's base request: no token, each malformed Authorization header, a token no principal holds
 * (unless the server makes a principal of any token), and a token in the query string.
 */
export function refusedCases(operations: OperationEntry[], anyToken = false): RefusedCase[] {
  const cases: RefusedCase[] = []
  for (const entry of operations.filter((e) => e.secured)) {
    const name = baseExampleName(entry)
    if (name === undefined) continue
    const { request } = requestFor(entry, name)
    const add = (label: string, changed: Partial<RequestSpec>) =>
      cases.push({ id: `${entry.operationId} · ${label}`, entry, request: { ...request, ...changed } })
    add('no token', { auth: { kind: 'none' } })
    for (const [label, value] of MALFORMED_AUTHORIZATIONS)
      add(`malformed Authorization (${label})`, { auth: { kind: 'header', value } })
    if (!anyToken) add('a token no principal holds', { auth: { kind: 'unknown' } })
    add('a token in the query string', {
      auth: { kind: 'none' },
      path: `${request.path}${request.path.includes('?') ? '&' : '?'}${QUERY_TOKEN}`,
    })
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
