// The webhook outbox both stores keep: each newPlant event is written in the transaction that creates
// its plant, and a worker (plugins/app/webhooks.ts) claims, sends and settles it afterwards.
import { StoreUnavailableError } from './errors.js'

export interface OutboxOptions {
  /** Whether the owner's new plants are announced: events nobody would receive are not stored. */
  wants(owner: string): boolean
  /** Pending events past which a create is refused rather than created without its event. */
  maxPending: number
}

export interface OutboxEvent {
  id: string
  owner: string
  body: string
  /** Attempts made so far. */
  attempts: number
  /** Epoch milliseconds. */
  createdAt: number
}

export interface OutboxStats {
  pending: number
  failed: number
  /** Epoch milliseconds of the oldest pending event. */
  oldestPendingAt: number | undefined
}

/** The stats as both stores' query answers them: pending, failed, the oldest pending's epoch ms. */
export function statsOf([pending = 0n, failed = 0n, oldest = null]: (bigint | null)[] = []): OutboxStats {
  return {
    pending: Number(pending),
    failed: Number(failed),
    oldestPendingAt: oldest === null ? undefined : Number(oldest),
  }
}

export interface Outbox {
  /**
   * Deletes the events receivers took (`delivered`), then takes up to `limit` due events and leases
   * them until `leaseUntil`: until then no other claim, in this instance or another on the same
   * database, returns them. One call for both, since the worker does both at once: on SQLite they
   * share a commit.
   */
  claim(now: number, leaseUntil: number, limit: number, delivered?: readonly string[]): Promise<OutboxEvent[]>
  /** An attempt failed: tried again from `retryAt`, or, when undefined, kept as failed for good. */
  attemptFailed(id: string, attempts: number, retryAt: number | undefined, reason: string): Promise<void>
  stats(): Promise<OutboxStats>
  /** Forgets the events that failed for good before `before` (epoch ms); how many there were. */
  purgeFailed(before: number): Promise<number>
  /** Called after a commit that stored an event, so that the worker need not wait for its next poll. */
  onEvent(listener: () => void): void
}

/** How old a count of pending events may grow before a create counts again. */
const RECOUNT_MS = 1_000

/**
 * Keeps the outbox under its bound without counting it on every create, which costs as much as the
 * backlog is long. The last count plus the events added since can only overstate what is pending
 * (deliveries only lower it), so the store counts again only when that sum reaches the bound, or when
 * the count is a second old: other instances on the same database add events this one does not see.
 */
export class PendingBound {
  #counted = 0
  #added = 0
  #countedAt = Number.NEGATIVE_INFINITY
  constructor(readonly maxPending: number) {}
  /** Whether the store must count before the next event is added. */
  needsCount(now = Date.now()): boolean {
    return this.#counted + this.#added >= this.maxPending || now - this.#countedAt > RECOUNT_MS
  }
  /** A fresh count: throws when the bound is reached. */
  counted(pending: number, now = Date.now()): void {
    this.#counted = pending
    this.#added = 0
    this.#countedAt = now
    if (pending >= this.maxPending) throw new OutboxFullError(this.maxPending)
  }
  /** An event was added (a rolled-back one too: overstating is safe). */
  added(): void {
    this.#added++
  }
}

/** Too many events wait for delivery: the create is refused (503) and nothing is stored. */
export class OutboxFullError extends StoreUnavailableError {
  constructor(maxPending: number) {
    super(`${maxPending} webhook events are waiting for delivery: creates wait until some are delivered`)
  }
}

/** The outbox of a store opened without webhooks: never holds anything. */
export const noOutbox: Outbox = {
  claim: async () => [],
  attemptFailed: async () => {},
  stats: async () => ({ pending: 0, failed: 0, oldestPendingAt: undefined }),
  purgeFailed: async () => 0,
  onEvent: () => {},
}
