// A default run sized to the quota a server declares for each principal's requests, so that it ends
// without waiting for it: the generated requests and sequences left after what the run sent before
// them (the examples, the security cases) and the coverage phase to come, at what each of them costs
// in requests, in the defaults' proportion. A run given its sizes keeps them and waits as needed.
import { BODY_LIMIT } from '@plant-store/core'
import { coverageProbes } from '../cases/coverage.js'
import { refusalOf } from '../cases/refused-tokens.js'
import type { Layer } from '../report/results.js'
import type { Context } from './context.js'
import { largestPageRequests } from './layers/largest-page.js'
import { type Policy, perMinute } from './rate-limits.js'

/**
 * The requests each kind of work sends as one principal, on the high side of what default runs
 * against the kit's server sent on several seeds, so that a run stays within its quota.
 */
export const COSTS = {
  /** A random generated request, with the undo, read-back or Link pages after it (1.02 to 1.10). */
  generated: 1.2,
  /** A request of the coverage phase, which creates more, so undoes and reads back more (1.4). */
  coverage: 1.5,
  /** A sequence, as each of its two principals: its commands, the final read, the clean-up (6.4 to 9.1). */
  sequence: 10,
}

/** The part of each quota kept for what no count foresees: setting up and clearing the caller's plants, a retry. */
const RESERVE = 0.05

export interface FitInput {
  /** The quota each principal's requests are held to, as the server declared it. */
  policies: readonly [Policy | undefined, Policy | undefined]
  /** The requests each principal has sent so far. */
  spent: readonly [number, number]
  /** The coverage phase's requests to come, before any random one (0 when the generated layer does not run). */
  coverage: number
  generated: boolean
  stateful: boolean
  defaults: { requests: number; sequences: number }
}

export interface Fit {
  requests: number
  sequences: number
  /** What the run sends and why, for the report's notes and the progress output. */
  note: string
}

/**
 * The sizes that keep each principal within a minute of its quota (a shorter window's as often as it
 * fits in a minute), in the defaults' proportion; undefined when no quota was declared or the
 * defaults fit. At least one sequence and its share of requests, even past the quota.
 */
export function fitToQuota(input: FitInput): Fit | undefined {
  const { policies, spent, coverage, generated, stateful, defaults } = input
  if (!generated && !stateful) return undefined
  const left = ([0, 1] as const).map((p) => {
    const policy = policies[p]
    if (!policy) return Number.POSITIVE_INFINITY
    return perMinute(policy) * (1 - RESERVE) - spent[p] - (p === 0 ? coverage * COSTS.coverage : 0)
  }) as [number, number]
  // A unit is a sequence and the generated requests the defaults have for each: the first principal
  // sends both, the second only its part of each sequence.
  const ratio = defaults.requests / defaults.sequences
  const unit: [number, number] = [
    (generated ? ratio * COSTS.generated : 0) + (stateful ? COSTS.sequence : 0),
    stateful ? COSTS.sequence : 0,
  ]
  const units = Math.min(
    ...([0, 1] as const).map((p) => (unit[p] > 0 ? left[p] / unit[p] : Number.POSITIVE_INFINITY)),
  )
  if (units >= defaults.sequences) return undefined
  const n = Math.max(1, Math.floor(units))
  const requests = generated ? Math.round(n * ratio) : defaults.requests
  const sequences = stateful ? n : defaults.sequences
  // The note names the quota that held the run back most.
  const binding = policies
    .filter((policy): policy is Policy => policy !== undefined)
    .sort((a, b) => perMinute(a) - perMinute(b))[0] as Policy
  const sends = [
    ...(generated ? [`${requests} generated requests`] : []),
    ...(stateful ? [`${sequences} sequence${sequences === 1 ? '' : 's'}`] : []),
  ]
  const options = [...(generated ? ['--requests'] : []), ...(stateful ? ['--sequences'] : [])]
  return {
    requests,
    sequences,
    note: `the server allows ${allows(binding)} per principal (${binding.said}): this run sends ${sends.join(' and ')}${units < 1 ? ', more than the quota holds even so' : ''}; give ${options.join(' and ')} to send more, waiting for the quota`,
  }
}

/** `1000 requests a minute`, `10 requests a second (600 a minute)`, or without a window `1000 requests`. */
function allows(policy: Policy): string {
  const w = policy.windowSeconds
  const per: Record<number, string> = { 1: 'a second', 60: 'a minute', 3600: 'an hour', 86400: 'a day' }
  const window = w === undefined ? '' : ` ${per[w] ?? `every ${w} s`}`
  const minute = w !== undefined && w < 60 ? ` (${perMinute(policy)} a minute)` : ''
  return `${policy.quota} requests${window}${minute}`
}

/**
 * Sizes a default run's generated requests and sequences to the server's quota, before the first of
 * the two layers runs (the examples and the security cases have spent their share by then), and
 * returns what it said; undefined when it keeps the defaults.
 */
export function fitRun(
  ctx: Context,
  layers: readonly Layer[],
  defaults: FitInput['defaults'],
): string | undefined {
  const { subject, options, loaded } = ctx
  const generated = layers.includes('generated')
  // The coverage phase's requests, and the largest page's at what a coverage request costs.
  const coverage = generated
    ? coverageProbes(loaded.operations, BODY_LIMIT, ctx.idBase).filter((p) => refusalOf(p) === undefined)
        .length +
      largestPageRequests(ctx) / COSTS.coverage
    : 0
  const fit = fitToQuota({
    policies: [subject.limits.policy(0), subject.limits.policy(1)],
    spent: [subject.sent[0], subject.sent[1]],
    coverage,
    generated,
    stateful: layers.includes('stateful') && !options.readOnly,
    defaults,
  })
  if (!fit) return undefined
  options.requests = fit.requests
  options.sequences = fit.sequences
  return fit.note
}
