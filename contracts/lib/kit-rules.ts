// What the kit's own suite asks beyond the verifier: the settings it starts the real server and the
// sandbox with, so that a case can reach a limit or a timeout, and the headers it holds the kit's own
// server to where the document leaves them optional.
import type { Case, Derivation } from '@plant-store/verify/testing'

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
