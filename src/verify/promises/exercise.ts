// The words the promises registry is written in: an entry (the promises it names, which judged
// requests exercise them and which checks judge them, or why none can), the predicates over a judged
// request it says "which" with, and the reasons it gives a promise no request of a run exercised,
// those an option lifts among them.
import type { CheckName } from '../checks/check.js'
import type { JudgedFacts, Layer } from '../report/results.js'

export type Exercise = (r: JudgedFacts, captured: readonly string[]) => boolean

export interface PromiseEntry {
  /** The promise's id, or a pattern its whole id matches (its groups are passed to exercisedBy). */
  promise: string | RegExp
  /** Which judged requests exercise it. */
  exercisedBy?: Exercise
  /** The checks that judge it, of those that judged its requests; all of them when left out. */
  checks?: readonly CheckName[]
  /** Why no request from outside the store can show it: it is then never counted as missing. */
  untestable?: string
  /** Why a run may well not exercise it (said when it did not), e.g. the option it needs. */
  unlessSaid?: string
  /** The layers that send its cases: when none of them judged a request (--only), that is why, not unlessSaid. */
  sentBy?: readonly Layer[]
}

// ---- Predicates over a judged request ----------------------------------------------------------------

export const kind =
  (...names: string[]): Exercise =>
  (r) =>
    r.kinds.some((k) => names.includes(k))
export const covers =
  (pattern: RegExp): Exercise =>
  (r) =>
    r.kinds.some((k) => k.startsWith('covers: ') && pattern.test(k.slice(8)))
export const status =
  (...statuses: number[]): Exercise =>
  (r) =>
    r.status !== undefined && statuses.includes(r.status)
/**
 * The statuses the document gives the request in the caller's state, where the layer keeps it (a
 * replace of a plant the caller does not have: 404, whatever the store answered); elsewhere the
 * status answered. A promise about what a request was is counted so: a store that breaks it answers
 * another status.
 */
export const given =
  (...statuses: number[]): Exercise =>
  (r, c) =>
    r.expected ? r.expected.some((s) => statuses.includes(s)) : status(...statuses)(r, c)
export const on =
  (...operations: string[]): Exercise =>
  (r) =>
    operations.includes(r.operationId)
export const layer =
  (...layers: string[]): Exercise =>
  (r) =>
    layers.includes(r.layer)
export const judgedBy =
  (...checks: string[]): Exercise =>
  (r) =>
    r.checks.some((c) => checks.includes(c))
export const success: Exercise = (r) => r.status !== undefined && r.status >= 200 && r.status < 300
export const all =
  (...ps: Exercise[]): Exercise =>
  (r, c) =>
    ps.every((p) => p(r, c))
export const any =
  (...ps: Exercise[]): Exercise =>
  (r, c) =>
    ps.some((p) => p(r, c))

/** A listing's page: listPlants answered 200. */
export const listing = all(on('listPlants'), status(200))

// ---- Reasons ---------------------------------------------------------------------------------------

export const ABOUT_THE_DOCUMENT =
  'says what the document is and how to read it: no answer of a store shows it'
export const CLIENTS =
  'what a client does with an answer: the verifier, as a client, does it and never fails a store on it'
export const WEBHOOK_RECEIVER = 'needs the newPlant receiver (--webhook-listen and --webhook-secret)'
export const FAULTS =
  'a store answers it only when it fails, is overloaded or is past its limit: a run meets it against a server started so (SIMULATE_FAULTS, a low RATE_LIMIT_MAX) or behind a proxy that injects faults'
export const KIT_ONLY = 'what the kit’s own stores do, beyond the interface: `--profile kit` judges it'
export const STALLED =
  'a stalled request is answered only once the server’s headers timeout, its own setting, is up: a run sends it when --headers-timeout says how long that is'
export const KIT_TESTS =
  'no run sends it (a connection left idle for minutes): the kit’s server tests do (src/server/test/)'
export const CONFIGURATION = 'how whoever runs the server configures it: no answer shows it'
export const AUTH_QUOTA =
  'sent without a token, so only while the server’s quota for failed authentications has room (the run’s notes say when it had none)'

/** A part of the document a run judges only when given an option: a passing verdict names it when left out. */
export interface OptionalPart {
  part: string
  option: string
}

/**
 * The reasons above that an option lifts, with the part of the document each leaves unjudged: a
 * promise not exercised for one of them (or, for the kit profile, left out of the run's profile) is
 * counted under that part.
 */
export const OPTIONAL_PARTS: ReadonlyMap<string, OptionalPart> = new Map([
  [WEBHOOK_RECEIVER, { part: 'the newPlant webhook', option: '--webhook-listen' }],
  [KIT_ONLY, { part: 'the kit profile', option: '--profile kit' }],
])

/** Why a promise of the kit profile is not among a run's: the run judges the interface alone. */
export const OUTSIDE_PROFILE = KIT_ONLY
