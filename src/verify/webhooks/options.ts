// What a webhook receiver is told: its port, secret, wait and hold, whether it fails attempts on
// purpose, and whose creates and events it pairs up.

export interface WebhookOptions {
  /** The receiver's port on 127.0.0.1; 0 for any free one. */
  port: number
  /** The `whsec_…` secret the server under test signs its events with. */
  secret: string
  /**
   * The longest wait, after the requests, for events and retries still to come (default 30 s); an
   * attempt failed on purpose before the requests ended may stretch it to when its retry is due (see
   * `settle`): at most `holdMs` + the document's first retry (5 s) + 2 s after the requests.
   */
  waitMs?: number
  /**
   * Fail some first attempts on purpose and judge their retries (default true): the first distinct
   * event is held without an answer, the second answered 500, the third redirected (307), and every
   * 5th after them answered 500; every later attempt of an event is answered 200. False: every attempt
   * is answered 200 and no retry is judged.
   */
  failAttempts?: boolean
  /**
   * How long the held attempt waits without an answer before the receiver closes its connection
   * (default: the document's delivery timeout, 10 s, + 1 s, so the sender's own timeout ends it); 0:
   * no attempt is held.
   */
  holdMs?: number
}

/**
 * Whose creates and events a receiver pairs up. Plant ids are per principal, so where several
 * principals create the same id (the contract suite's cases), each principal's events must come to a
 * path of its own: a create and an event are paired only within one scope.
 */
export interface WebhookScopes {
  /** The scope of a create sent with this Authorization; undefined: none of its principal's events come here. */
  ofCreate(authorization: string | undefined): string | undefined
  /** The scope of an event, by the path (query string dropped) it was delivered to. */
  ofDelivery(path: string): string
  /** Whose create this is, as a message names it (`principal 1`); undefined: the scope says enough. */
  nameOf?(authorization: string | undefined): string | undefined
}

/**
 * One scope for the given tokens' creates and for every event, whatever its path: the verifier's two
 * principals, named `principal 1` and `principal 2` after their tokens' order.
 */
export function tokenScopes(tokens: readonly string[]): WebhookScopes {
  const authorizations = tokens.map((token) => `Bearer ${token}`)
  return {
    ofCreate: (authorization) =>
      authorization !== undefined && authorizations.includes(authorization) ? '' : undefined,
    ofDelivery: () => '',
    nameOf: (authorization) => {
      const index = authorization === undefined ? -1 : authorizations.indexOf(authorization)
      return index < 0 ? undefined : `principal ${index + 1}`
    },
  }
}

/** The wait for events and retries still to come, after the requests, when `waitMs` does not say. */
export const DEFAULT_WAIT_MS = 30_000
/** Held past the delivery timeout by this much, so that the sender's timeout, not the receiver, ends it. */
export const HOLD_PAST_TIMEOUT_MS = 1_000
