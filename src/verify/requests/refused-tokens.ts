// The requests a server refuses for their token, kept in one place: each distinct case (no token, each
// malformed Authorization header, a token no principal holds, a token in the query string) is sent to
// each operation once in a run, whichever layer sends it first. A server counts such requests against
// a limit of its own (failed authentications per address), so a run sends no more of them than it needs.
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

/** The refused-token cases a run has sent, by operation. */
export class RefusedTokens {
  private readonly sent = new Set<string>()

  /**
   * Whether this request is the first of its case for the operation (it is then counted as sent): a
   * request with a principal's token always is.
   */
  first(operationId: string, request: Pick<RequestSpec, 'auth' | 'path'>): boolean {
    const refusal = refusalOf(request)
    if (refusal === undefined) return true
    const key = `${operationId}\t${refusal}`
    if (this.sent.has(key)) return false
    this.sent.add(key)
    return true
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
  return cases
}
