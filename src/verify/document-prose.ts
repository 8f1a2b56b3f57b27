// How to produce the response examples that no request example of the same name produces, and the
// headers the document's prose (not its schema) makes mandatory.
//
// The document's convention pairs a request example with the response example of the same name.
// Some response examples are about the request as a whole rather than its data (no token, an unknown
// token, an oversized or non-JSON body), so no parameter or body example can carry them. Each is
// derived here from the operation's "base request": the request of its first success example.
import type { Case } from './lib/cases.js'

export type Derivation =
  /** Send the base request without an Authorization header. */
  | { kind: 'no-token' }
  /** Send the base request with a well-formed bearer token that no principal owns. */
  | { kind: 'unknown-token' }
  /** Send the base request with its JSON body padded beyond the document's 65536-byte limit. */
  | { kind: 'oversized-body'; bytes: number }
  /** Send the base request with this body and content type instead of its JSON body. */
  | { kind: 'raw-body'; contentType: string; body: string }
  /** Send the base request again and again, as one principal, until its rate limit is spent. */
  | { kind: 'over-rate-limit'; atMost: number }
  /** Send the base request to an instance of the target whose store has stopped answering. */
  | { kind: 'store-down' }
  /**
   * Send the base request with `X-Simulate-Fault: <fault>`: a server started with SIMULATE_FAULTS=true
   * fails it as that fault would (the real faults are tried in test/reliability.test.ts and
   * test/full-disk.test.ts). `Prefer: code=<status>` along with it makes the Prism mock answer the
   * same; the server ignores Prefer.
   */
  | { kind: 'fault'; fault: 'overloaded' | 'store-full' | 'internal'; status: number }
  /** Send the base request with a method its path does not take. */
  | { kind: 'other-method'; method: string }
  /** Send the base request with its last path segment (the path parameter) this many characters long. */
  | { kind: 'long-path-segment'; length: number }
  /** Send the base request with a further header that takes the request line and headers past this size. */
  | { kind: 'oversized-headers'; bytes: number }
  /**
   * Send the start of the base request and never its end: a target started with a short
   * HEADERS_TIMEOUT_MS (CONTRACT_HEADERS_TIMEOUT_MS) answers once that time is up.
   */
  | { kind: 'stalled' }

/**
 * Derivations about the request as a whole rather than what an operation reads: whoever parses the
 * request answers them, before any operation is chosen.
 */
export const TRANSPORT_DERIVATIONS: ReadonlySet<Derivation['kind']> = new Set([
  'other-method',
  'long-path-segment',
  'oversized-headers',
  'stalled',
])

/** HEADERS_TIMEOUT_MS of the real server and the sandbox in the example suite: a stalled request's wait. */
export const CONTRACT_HEADERS_TIMEOUT_MS = 2_000

/** The RATE_LIMIT_MAX the example suite gives the real server and the sandbox, so a case can spend it. */
export const CONTRACT_RATE_LIMIT = 30

export const derivedExamples: Record<string, Derivation> = {
  missingToken: { kind: 'no-token' },
  invalidToken: { kind: 'unknown-token' },
  // Limits: "A request body may be at most 65536 bytes"; 70000 is over it with margin.
  tooLarge: { kind: 'oversized-body', bytes: 70_000 },
  // The content type exactly as the example's message names it.
  notJson: { kind: 'raw-body', contentType: 'text/plain', body: 'Basil' },
  // A few past the limit: the setup of a case spends some of it too.
  tooManyRequests: { kind: 'over-rate-limit', atMost: CONTRACT_RATE_LIMIT + 5 },
  // Readiness: only a target with an instance whose database is stopped can show it.
  storeUnavailable: { kind: 'store-down' },
  overloaded: { kind: 'fault', fault: 'overloaded', status: 503 },
  storeFull: { kind: 'fault', fault: 'store-full', status: 507 },
  internalError: { kind: 'fault', fault: 'internal', status: 500 },
  // No path of the document takes PATCH, so one method serves every operation.
  methodNotAllowed: { kind: 'other-method', method: 'PATCH' },
  // Limits: "a path segment over 100 characters"; one more is enough.
  pathSegmentTooLong: { kind: 'long-path-segment', length: 101 },
  // Limits: "the request line and headers together at most 16384 bytes"; 17000 in one header is over it.
  headersTooLarge: { kind: 'oversized-headers', bytes: 17_000 },
  requestTimeout: { kind: 'stalled' },
}

/**
 * Headers that must be present, keyed by status or by example name. The document gives these
 * headers a schema but no `required: true`; its descriptions say when they are sent, so we hold the
 * real server to that prose: WWW-Authenticate "on every 401", Retry-After "on every 429 and 503", Link "when more plants follow"
 * (true of firstPage: two plants, one a page).
 */
export const requiredHeaders: { byStatus: Record<number, string[]>; byExample: Record<string, string[]> } = {
  byStatus: { 401: ['www-authenticate'], 405: ['allow'], 429: ['retry-after'], 503: ['retry-after'] },
  byExample: { firstPage: ['link'] },
}

/** A bearer token that no principal owns: the unknown-token derivation and the generated cases use it. */
export const UNKNOWN_TOKEN = 'not-a-token-anyone-holds'

/**
 * Whether the real server must send both RateLimit-Policy and RateLimit on this case's answer: the
 * document declares them on the response of an operation that needs a token ("on every answer counted
 * against a limit"), and only an answer given before the request is counted, an overloaded server's
 * 503, has none. The document makes them optional, so the verifier cannot ask this of another server.
 */
export function rateLimitHeadersRequired(c: Case): boolean {
  if (!c.entry?.secured) return false
  if (c.kind === 'example' && c.derivation?.kind === 'fault' && c.derivation.fault === 'overloaded')
    return false
  const headers = Object.keys(c.entry.operation.responses[String(c.status)]?.headers ?? {})
  return headers.some((name) => name.toLowerCase() === 'ratelimit-policy')
}

export const RATE_LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit']
