// What the document says in prose rather than in its schema: how to produce the response examples
// that no request example of the same name produces, and the headers its descriptions make mandatory.
//
// The document's convention pairs a request example with the response example of the same name.
// Some response examples are about the request as a whole rather than its data (no token, an unknown
// token, an oversized or non-JSON body), so no parameter or body example can carry them. Each is
// derived here from the operation's "base request": the request of its first success example.

export type Derivation =
  /** Send the base request without an Authorization header. */
  | { kind: 'no-token' }
  /** Send the base request with a well-formed bearer token that no principal owns. */
  | { kind: 'unknown-token' }
  /** Send the base request with its JSON body padded beyond the document's 65536-byte limit. */
  | { kind: 'oversized-body'; bytes: number }
  /** Send the base request with this body and content type (none, when undefined) instead of its JSON body. */
  | { kind: 'raw-body'; contentType: string | undefined; body: string }
  /** Send the base request again and again, as one principal, until its rate limit is spent. */
  | { kind: 'over-rate-limit' }
  /**
   * Send the base request again and again with a token no principal holds, until the address's
   * failed authentications are spent (the kit's profile). The security layer's spent quotas judge it.
   */
  | { kind: 'over-failed-auth-limit' }
  /** Send the base request to an instance of the target whose store has stopped answering. */
  | { kind: 'store-down' }
  /**
   * Send the base request with `X-Simulate-Fault: <fault>`: a server started with SIMULATE_FAULTS=true
   * fails it as that fault would (the real faults are tried in src/server/test/reliability.test.ts
   * and src/server/test/full-disk.test.ts). `Prefer: code=<status>` along with it makes the Prism
   * mock answer the same; the server ignores Prefer.
   */
  | { kind: 'fault'; fault: 'overloaded' | 'store-full' | 'internal'; status: number }
  /** Send the base request with a method its path does not take. */
  | { kind: 'other-method'; method: string }
  /** Send the base request with its last path segment (the path parameter) this many characters long. */
  | { kind: 'long-path-segment'; length: number }
  /** Send the base request with a further header that takes the request line and headers past this size. */
  | { kind: 'oversized-headers'; bytes: number }
  /**
   * Send the start of the base request and never its end: a server answers once its own headers
   * timeout (HEADERS_TIMEOUT_MS on the kit's server) is up.
   */
  | { kind: 'stalled' }

/**
 * The requests a principal may make in a window unless the server is configured otherwise (the kit
 * profile's 1000 a minute): how many an over-rate-limit case sends when it is told no other limit.
 */
export const DEFAULT_RATE_LIMIT = 1000

/** The requests with a missing or unknown token an address may make in a window (the kit profile's 20 a minute). */
export const DEFAULT_AUTH_FAILURE_LIMIT = 20

export const derivedExamples: Record<string, Derivation> = {
  missingToken: { kind: 'no-token' },
  invalidToken: { kind: 'unknown-token' },
  // Limits: "A request body may be at most 65536 bytes"; 70000 is over it with margin.
  tooLarge: { kind: 'oversized-body', bytes: 70_000 },
  // The content type exactly as the example's message names it.
  notJson: { kind: 'raw-body', contentType: 'text/plain', body: 'Basil' },
  // The kit's profile: a type with no subtype, and none at all, each named in the example's message.
  notAMediaType: { kind: 'raw-body', contentType: 'plain', body: 'Basil' },
  noContentType: { kind: 'raw-body', contentType: undefined, body: 'Basil' },
  // The kit's profile: a body over the limit is 413 whatever its type (70000 bytes, as tooLarge).
  tooLargeNotJson: { kind: 'raw-body', contentType: 'text/plain', body: 'Basil '.repeat(11_667) },
  // JSON allows whitespace around a value, not whitespace alone: a body that is only whitespace is empty.
  blankBody: { kind: 'raw-body', contentType: 'application/json', body: ' \n' },
  // The kit's profile: arrays and objects 1001 levels within each other, the body the first; 1000 are read.
  nestedTooDeep: {
    kind: 'raw-body',
    contentType: 'application/json',
    body: `{"name":"Basil","note":${'['.repeat(1000)}${']'.repeat(1000)}}`,
  },
  // Sent a few times past the limit (cases/examples.ts): the setup of a case spends some of it too.
  tooManyRequests: { kind: 'over-rate-limit' },
  tooManyFailedAuthentications: { kind: 'over-failed-auth-limit' },
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
