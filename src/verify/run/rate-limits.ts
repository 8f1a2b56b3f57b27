// What a server under test says of its rate limits, and how long the run waits for them: a quota it
// declares (the RateLimit field of the IETF httpapi draft, or the older RateLimit-Remaining and
// RateLimit-Reset) is waited out before a request it would refuse, a 429 after it by its Retry-After.
// Requests that fail authentication are counted apart from each principal's, as servers count them.
// The quota itself (RateLimit-Policy) is kept too: a default run is sized to fit it (quota-fit.ts).

/** Whose quota a request spends: a principal's (by its token's place), or the failed authentications'. */
export type Bucket = 0 | 1 | 'refused'

const NAMES: Record<Bucket, string> = {
  0: 'principal 1’s requests',
  1: 'principal 2’s requests',
  refused: 'failed authentication',
}

/** The longest single wait: a longer Retry-After or reset is waited this long, then tried again. */
export const LONGEST_WAIT_MS = 60_000

/** What a server said of a quota: requests left, when it is whole again, and the words it said it in. */
interface Quota {
  remaining: number
  resetAt: number
  said: string
  /** Said by a 429's Retry-After, not by a declared quota. */
  refused: boolean
}

/** A wait the run makes: how long, and why, in words a progress line shows. */
export interface Wait {
  ms: number
  reason: string
}

/** The progress line of a wait: `waiting 41 s: 429 on failed authentication, Retry-After 41`. */
export const waitLine = (wait: Wait): string => `waiting ${Math.ceil(wait.ms / 1000)} s: ${wait.reason}`

/** The progress line while waiting: what the run was doing, then the wait (`generated 12/2157 · waiting …`). */
export const waitProgress = (doing: string, wait: Wait): string =>
  doing ? `${doing} · ${waitLine(wait)}` : waitLine(wait)

/** Seconds or an HTTP date (RFC 9110, section 10.2.3), as milliseconds from `now`; undefined when neither. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * The quota an answer declares: from `RateLimit` items (`"failed-auth";r=0;t=41`, the draft's current
 * form, or `limit=20, remaining=0, reset=41`, its seventh), the one with the fewest requests left; or
 * from `RateLimit-Remaining` and `RateLimit-Reset`. Undefined when the answer declares none.
 */
export function declaredQuota(
  headers: Record<string, string>,
): { remaining: number; resetSeconds: number; said: string } | undefined {
  const field = headers.ratelimit
  if (field !== undefined) {
    let found: { remaining: number; resetSeconds: number; said: string } | undefined
    for (const item of field.split(/,(?=\s*")/)) {
      const remaining = /(?:^|[;,\s])r(?:emaining)?=(\d+)/.exec(item)?.[1]
      const reset = /(?:^|[;,\s])(?:t|reset)=(\d+)/.exec(item)?.[1]
      if (remaining === undefined || reset === undefined) continue
      if (found === undefined || Number(remaining) < found.remaining)
        found = {
          remaining: Number(remaining),
          resetSeconds: Number(reset),
          said: `RateLimit ${item.trim()}`,
        }
    }
    if (found) return found
  }
  const remaining = headers['ratelimit-remaining']
  const reset = headers['ratelimit-reset']
  if (remaining !== undefined && reset !== undefined && /^\d+$/.test(remaining) && /^\d+$/.test(reset))
    return {
      remaining: Number(remaining),
      resetSeconds: Number(reset),
      said: `RateLimit-Remaining ${remaining}, RateLimit-Reset ${reset}`,
    }
  return undefined
}

/** A quota a server declares for a bucket: so many requests a window (of seconds, when it says). */
export interface Policy {
  quota: number
  windowSeconds: number | undefined
  said: string
}

/** The requests a policy allows in a minute: a shorter window's quota as often as it fits in one. */
export const perMinute = (policy: Policy): number =>
  policy.quota * Math.max(1, Math.floor(60 / (policy.windowSeconds ?? 60)))

/**
 * The policy an answer declares: from `RateLimit-Policy` items (`"default";q=1000;w=60`, the draft's
 * current form, or `1000;w=60`, its seventh), the one that allows the fewest requests a minute; else
 * the `limit` of a seventh-draft `RateLimit`, or `RateLimit-Limit`, whose window is not said.
 * Undefined when the answer declares none.
 */
export function declaredPolicy(headers: Record<string, string>): Policy | undefined {
  let found: Policy | undefined
  for (const item of (headers['ratelimit-policy'] ?? '').split(',')) {
    const quota = /(?:^\s*|;\s*q=)(\d+)\s*(?:;|$)/.exec(item)?.[1]
    const unit = /;\s*qu="?([\w-]+)/.exec(item)?.[1]
    if (quota === undefined || (unit !== undefined && unit !== 'requests')) continue
    const window = /;\s*w=(\d+)/.exec(item)?.[1]
    const policy = {
      quota: Number(quota),
      windowSeconds: window === undefined ? undefined : Number(window),
      said: `RateLimit-Policy ${item.trim()}`,
    }
    if (found === undefined || perMinute(policy) < perMinute(found)) found = policy
  }
  if (found) return found
  const limit = /(?:^|[,\s])limit=(\d+)/.exec(headers.ratelimit ?? '')?.[1]
  if (limit !== undefined)
    return { quota: Number(limit), windowSeconds: undefined, said: `RateLimit limit=${limit}` }
  const old = /^\s*(\d+)/.exec(headers['ratelimit-limit'] ?? '')?.[1]
  if (old !== undefined)
    return { quota: Number(old), windowSeconds: undefined, said: `RateLimit-Limit ${old}` }
  return undefined
}

/** The quotas a run has been told of, by bucket, and the time it waited for each. */
export class RateLimits {
  private readonly quotas = new Map<Bucket, Quota>()
  private readonly policies = new Map<Bucket, Policy>()
  private readonly waits = new Map<Bucket, { ms: number; answered429: number; spent: number }>()

  /** Notes what an answer says of its bucket's quota; a 429 spends it until its Retry-After. */
  learn(bucket: Bucket, status: number, headers: Record<string, string>, now: number): void {
    const policy = declaredPolicy(headers)
    if (policy) this.policies.set(bucket, policy)
    if (status === 429) {
      const after = retryAfterMs(headers['retry-after'], now)
      this.quotas.set(bucket, {
        remaining: 0,
        // A 429 without a Retry-After the run can read: a second, then again.
        resetAt: now + (after ?? 1000),
        said: after === undefined ? 'no Retry-After' : `Retry-After ${headers['retry-after']?.trim()}`,
        refused: true,
      })
      return
    }
    const declared = declaredQuota(headers)
    if (declared)
      this.quotas.set(bucket, {
        remaining: declared.remaining,
        resetAt: now + declared.resetSeconds * 1000,
        said: declared.said,
        refused: false,
      })
  }

  /** The quota the server last declared for the bucket, if it declared one. */
  policy(bucket: Bucket): Policy | undefined {
    return this.policies.get(bucket)
  }

  /** How long a request of the bucket must wait now, and why; undefined when it may go. */
  due(bucket: Bucket, now: number): Wait | undefined {
    const quota = this.quotas.get(bucket)
    if (!quota || quota.remaining > 0 || quota.resetAt <= now) return undefined
    const ms = Math.min(quota.resetAt - now, LONGEST_WAIT_MS)
    const reason = quota.refused
      ? `429 on ${NAMES[bucket]}, ${quota.said}`
      : `the server’s quota for ${NAMES[bucket]} is spent (${quota.said})`
    return { ms, reason }
  }

  /** The requests the quota the server last declared for the bucket has left now; undefined: none known. */
  left(bucket: Bucket, now: number): number | undefined {
    const quota = this.quotas.get(bucket)
    return quota && quota.resetAt > now ? quota.remaining : undefined
  }

  /** Counts a wait the run made for the bucket. */
  waited(bucket: Bucket, ms: number): void {
    const quota = this.quotas.get(bucket)
    const tally = this.waits.get(bucket) ?? { ms: 0, answered429: 0, spent: 0 }
    tally.ms += ms
    if (quota?.refused) tally.answered429++
    else tally.spent++
    this.waits.set(bucket, tally)
    // Waited out: the next answer says how much is left.
    this.quotas.delete(bucket)
  }

  /** The time waited, over every bucket. */
  get totalMs(): number {
    return [...this.waits.values()].reduce((sum, tally) => sum + tally.ms, 0)
  }

  /** One line for a report's notes, or undefined when the run never waited. */
  summary(): string | undefined {
    if (this.waits.size === 0) return undefined
    const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)
    const parts = (['refused', 0, 1] as const).flatMap((bucket) => {
      const tally = this.waits.get(bucket)
      if (!tally) return []
      const why = [
        ...(tally.answered429 ? [`429 ${times(tally.answered429)}`] : []),
        ...(tally.spent ? [`its declared quota spent ${times(tally.spent)}`] : []),
      ]
      return [`${seconds(tally.ms)} for ${NAMES[bucket]} (${why.join(', ')})`]
    })
    return `the run waited ${seconds(this.totalMs)} in all for the server’s rate limits: ${parts.join('; ')}`
  }
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
