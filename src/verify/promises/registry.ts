// How each promise of the document is exercised: an entry names promises (an id, or a pattern of ids
// with what it captures), the judged requests that exercise them and the checks that judge them; or
// says why no request from outside can show the promise. The kit's own suite fails on a promise no
// entry names and on an entry that names no promise (test/promises.test.ts), so a new sentence in the
// document needs a case here, or a reason. A new kind of case is one entry: `{ promise, exercisedBy:
// (r) => r.layer === 'concurrency' }`, or one more kind in an entry's predicate (a crossed principal's
// cursor beside `other principal` in the Principals entry).
import type { CheckName } from '../checks/check.js'
import type { JudgedFacts, Layer } from '../report/results.js'

type Exercise = (r: JudgedFacts, captured: readonly string[]) => boolean

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

const kind =
  (...names: string[]): Exercise =>
  (r) =>
    r.kinds.some((k) => names.includes(k))
const covers =
  (pattern: RegExp): Exercise =>
  (r) =>
    r.kinds.some((k) => k.startsWith('covers: ') && pattern.test(k.slice(8)))
const status =
  (...statuses: number[]): Exercise =>
  (r) =>
    r.status !== undefined && statuses.includes(r.status)
const on =
  (...operations: string[]): Exercise =>
  (r) =>
    operations.includes(r.operationId)
const layer =
  (...layers: string[]): Exercise =>
  (r) =>
    layers.includes(r.layer)
const judgedBy =
  (...checks: string[]): Exercise =>
  (r) =>
    r.checks.some((c) => checks.includes(c))
const success: Exercise = (r) => r.status !== undefined && r.status >= 200 && r.status < 300
const all =
  (...ps: Exercise[]): Exercise =>
  (r, c) =>
    ps.every((p) => p(r, c))
const any =
  (...ps: Exercise[]): Exercise =>
  (r, c) =>
    ps.some((p) => p(r, c))

// ---- Reasons ---------------------------------------------------------------------------------------

const ABOUT_THE_DOCUMENT = 'says what the document is and how to read it: no answer of a store shows it'
const CLIENTS =
  'what a client does with an answer: the verifier, as a client, does it and never fails a store on it'
const WEBHOOK_RECEIVER = 'needs the newPlant receiver (--webhook-listen and --webhook-secret)'
const FAULTS =
  'a store answers it only when it fails, is overloaded or is past its limit: a run meets it against a server started so (SIMULATE_FAULTS, a low RATE_LIMIT_MAX) or behind a proxy that injects faults'
const KIT_ONLY = 'what the kit’s own stores do, beyond the interface: `--profile kit` judges it'
const STALLED =
  'a stalled request is answered only once the server’s headers timeout, its own setting, is up: no run waits for it'
const KIT_TESTS =
  'no run sends it (a connection left idle for minutes, a request HTTP cannot frame, a body in a content coding): the kit’s server tests do (src/server/test/)'
const CONFIGURATION = 'how whoever runs the server configures it: no answer shows it'
const AUTH_QUOTA =
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

const auth = kind('auth: none', 'auth: malformed', 'auth: unknown token', 'auth: token in the query string')
const errorBody = all(
  status(...Array.from({ length: 200 }, (_, i) => 400 + i)),
  judgedBy('response_schema_conformance'),
)
const listing = all(on('listPlants'), status(200))

/**
 * The kit profile's promises (`--profile kit`): its text under `kit.`, and what is marked
 * `x-kit-profile` (the health operations, their `Status`, the rate-limit, `Allow` and
 * `Accept-Encoding` headers).
 */
const KIT_PROFILE: readonly PromiseEntry[] = [
  { promise: /^kit\.what-the-kit\..+/, untestable: ABOUT_THE_DOCUMENT },
  {
    promise: /^kit\.(headers\..+|rate-limits\.every-answer-counted-against-a)$/,
    exercisedBy: judgedBy('kit_profile_conformance'),
    checks: ['kit_profile_conformance', 'response_headers_conformance'],
  },
  {
    promise: /^(kit\.methods\..+|header\.Allow)$/,
    exercisedBy: kind('other method', 'derived: other-method'),
    checks: ['status_code_conformance', 'response_headers_conformance', 'example_conformance'],
  },
  {
    promise: 'kit.limits-exactly.a-request-body-may-be',
    exercisedBy: kind('derived: oversized-body', 'derived: long-path-segment', 'derived: oversized-headers'),
    checks: ['status_code_conformance', 'example_conformance'],
  },
  {
    promise: 'kit.limits-exactly.a-client-must-send-its',
    exercisedBy: kind('derived: stalled'),
    unlessSaid: STALLED,
  },
  {
    promise:
      /^(kit\.limits-exactly\.an-idle-keep-alive-connection|kit\.refusals-before-any\..+|header\.Accept-Encoding)$/,
    unlessSaid: KIT_TESTS,
  },
  {
    promise: /^kit\.(limits-exactly\.whoever-runs-the-server-may|configuration\..+)$/,
    untestable: CONFIGURATION,
  },
  {
    promise: 'kit.rate-limits.each-principal-may-make-a',
    exercisedBy: any(status(429), kind('derived: over-rate-limit')),
    checks: ['status_code_conformance', 'kit_profile_conformance'],
    unlessSaid: FAULTS,
  },
  {
    promise: 'kit.rate-limits.the-limits-are-counted-by',
    untestable:
      'a run reaches one address, whichever instance answers it: how many instances count is not to be seen from it',
  },
  {
    promise: /^kit\.overload-and-storage\..+/,
    exercisedBy: any(status(503, 507), kind('derived: fault', 'derived: store-down')),
    checks: ['status_code_conformance', 'kit_profile_conformance'],
    unlessSaid: FAULTS,
  },
  {
    promise: /^(kit\.health\..+|getHealth\..+|getReadiness\..+|Status\..+)$/,
    exercisedBy: on('getHealth', 'getReadiness'),
    checks: ['status_code_conformance', 'response_schema_conformance'],
  },
  {
    promise: /^header\.(RateLimit-Policy|RateLimit)$/,
    exercisedBy: judgedBy('kit_profile_conformance'),
    checks: ['kit_profile_conformance'],
  },
]

export const PROMISE_REGISTRY: readonly PromiseEntry[] = [
  // info.description: what the document is.
  { promise: /^interface\..+/, untestable: ABOUT_THE_DOCUMENT },
  { promise: /^what-is-original\..+/, untestable: ABOUT_THE_DOCUMENT },
  { promise: /^the-interface-and\..+/, untestable: ABOUT_THE_DOCUMENT },
  // Principals.
  {
    promise: /^principals\.(each-bearer-token-belongs-to|a-principal-sees-and-changes)$/,
    exercisedBy: kind('other principal'),
    checks: ['principal_isolation', 'status_code_conformance'],
  },
  {
    promise: 'principals.what-an-answer-hands-a',
    exercisedBy: kind('other principal'),
    checks: ['principal_isolation', 'status_code_conformance'],
  },
  {
    promise: 'principals.a-request-without-a-valid',
    exercisedBy: auth,
    checks: ['status_code_conformance', 'www_authenticate_on_401'],
  },
  // Errors.
  {
    promise: 'errors.every-error-answer-that-has',
    exercisedBy: errorBody,
    checks: ['response_schema_conformance', 'error_code_conformance'],
  },
  {
    promise: 'errors.any-operation-may-answer-500',
    exercisedBy: any(
      status(429, 500, 503),
      kind('derived: over-rate-limit', 'derived: fault', 'derived: store-down'),
    ),
    checks: ['status_code_conformance', 'response_headers_conformance'],
    unlessSaid: FAULTS,
  },
  {
    promise: 'errors.where-a-request-meets-two',
    exercisedBy: all(layer('generated'), on('replacePlant', 'createPlant'), (r) =>
      r.kinds.some((k) => k.startsWith('body: ')),
    ),
    checks: ['status_code_conformance'],
  },
  // Methods.
  {
    promise: 'methods.a-method-that-a-documented',
    exercisedBy: kind('other method'),
    checks: ['status_code_conformance', 'response_schema_conformance'],
  },
  {
    promise: 'methods.such-a-request-without-a',
    exercisedBy: kind('other method without a token'),
    checks: ['status_code_conformance', 'www_authenticate_on_401'],
    unlessSaid: AUTH_QUOTA,
    sentBy: ['security'],
  },
  { promise: 'methods.no-path-takes-head-a', exercisedBy: kind('HEAD') },
  {
    promise: /^query-strings\..+/,
    exercisedBy: kind('plus in query'),
    checks: ['store_conformance', 'status_code_conformance'],
  },
  // Limits.
  {
    promise: /^limits\.(every-plant-store-accepts-at|the-schemas-bound-every-string)$/,
    exercisedBy: covers(/maxLength \d+ astral \(valid\)/),
    checks: ['positive_data_acceptance', 'status_code_conformance'],
  },
  {
    promise: /^limits\.(beyond-those-sizes-a-store|a-refusal-written-by-a)$/,
    exercisedBy: any(
      kind(
        'body: too large',
        'derived: oversized-body',
        'derived: long-path-segment',
        'derived: oversized-headers',
      ),
      covers(/body too large/),
    ),
    checks: ['status_code_conformance', 'response_schema_conformance'],
  },
  {
    promise: 'limits.a-page-holds-at-most',
    exercisedBy: all(listing, covers(/^limit maximum/)),
    checks: ['response_schema_conformance', 'link_conformance', 'store_conformance'],
  },
  // Bodies.
  {
    promise: 'bodies.a-body-is-read-as',
    exercisedBy: kind('integer form: exponent', 'integer form: fraction', 'id beyond 2^53'),
    checks: ['positive_data_acceptance', 'create_read_back'],
  },
  {
    promise: 'bodies.keys-a-schema-does-not',
    exercisedBy: kind('key: __proto__', 'key: constructor', 'key: duplicate', 'key: unknown'),
    checks: ['positive_data_acceptance', 'create_read_back'],
  },
  {
    promise: 'bodies.strings-must-be-unicode-text',
    exercisedBy: kind('body: not Unicode text'),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'bodies.a-body-that-is-not',
    exercisedBy: kind('content type: unsupported', 'content type: parameters or case', 'derived: raw-body'),
    checks: ['status_code_conformance', 'positive_data_acceptance'],
  },
  { promise: 'bodies.an-answer-may-show-properties', untestable: CLIENTS },
  // Webhooks.
  {
    promise: /^webhooks\..+/,
    exercisedBy: layer('webhooks'),
    checks: ['webhook_conformance'],
    unlessSaid: WEBHOOK_RECEIVER,
  },
  {
    promise: /^newPlant\..+/,
    exercisedBy: layer('webhooks'),
    checks: ['webhook_conformance'],
    unlessSaid: WEBHOOK_RECEIVER,
  },
  // The contract fixtures: how the examples are read, which the examples layer does.
  {
    promise: /^contract-fixtures\.(a-request-example-whose-name|x-given-plants-on-a)$/,
    exercisedBy: layer('examples'),
    checks: ['example_conformance', 'status_code_conformance'],
  },
  { promise: 'contract-fixtures.tools-ignore-these-x-fields', untestable: ABOUT_THE_DOCUMENT },
  {
    promise: 'contract-fixtures.operations-without-a-request-body',
    exercisedBy: kind('body on an operation without one'),
    checks: ['status_code_conformance'],
  },
  // The bearer scheme.
  {
    promise: 'bearerAuth.authorization-bearer-access-token-in',
    exercisedBy: kind('auth: token in the query string', 'auth: malformed'),
    checks: ['status_code_conformance', 'www_authenticate_on_401'],
  },
  {
    promise: 'bearerAuth.each-token-belongs-to-one',
    exercisedBy: kind('other principal'),
    checks: ['principal_isolation'],
  },
  // The operations.
  { promise: 'listPlants.lists-the-caller-s-plants', exercisedBy: listing, checks: ['store_conformance'] },
  {
    promise: 'listPlants.a-page-holds-at-most',
    exercisedBy: all(listing, (r) => r.parameters.includes('limit')),
    checks: ['store_conformance', 'link_conformance'],
  },
  {
    promise: /^listPlants\.(when-more-follow-the-link|its-target-may-be-any)$/,
    exercisedBy: all(listing, judgedBy('link_conformance')),
    checks: ['link_conformance'],
  },
  { promise: 'listPlants.the-kit-s-stores-answer', untestable: KIT_ONLY },
  {
    promise: 'listPlants.the-cursor-in-it-is',
    exercisedBy: any(
      kind('query: unknown cursor'),
      all(listing, (r) => r.parameters.includes('cursor')),
    ),
    checks: ['status_code_conformance', 'link_conformance'],
  },
  {
    promise: /^listPlants\.paging-while-plants\..+/,
    exercisedBy: any(layer('stateful'), all(layer('concurrency'), on('listPlants'))),
    checks: ['store_conformance', 'link_conformance', 'concurrent_consistency'],
  },
  {
    promise: /^(listPlants)\.(limit|cursor|tag)$/,
    exercisedBy: (r, [operation, name]) => r.operationId === operation && r.parameters.includes(name ?? ''),
    checks: ['status_code_conformance', 'store_conformance'],
  },
  {
    promise: 'createPlant.creates-a-new-plant-in',
    exercisedBy: all(on('createPlant'), success),
    checks: ['create_read_back', 'status_code_conformance'],
  },
  {
    promise: 'createPlant.addition-to-1-0-0',
    // Creates of one id sent together: one 200 and a 409 for each of the rest.
    exercisedBy: any(
      all(on('createPlant'), status(409, 401, 413, 415)),
      all(layer('concurrency'), on('createPlant')),
    ),
    checks: ['status_code_conformance', 'response_schema_conformance', 'concurrent_consistency'],
  },
  {
    promise: 'getPlant.reads-one-of-the-caller',
    exercisedBy: all(on('getPlant'), success),
    checks: ['store_conformance', 'response_schema_conformance'],
  },
  {
    promise: 'replacePlant.replaces-the-name-and-tag',
    exercisedBy: all(on('replacePlant'), success),
    checks: ['store_conformance'],
  },
  {
    promise: 'replacePlant.the-plant-must-exist-create',
    exercisedBy: all(on('replacePlant'), status(404)),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'deletePlant.deletes-one-of-the-caller',
    exercisedBy: all(on('deletePlant'), success),
    checks: ['store_conformance', 'status_code_conformance'],
  },
  // Parameters' and schemas' keywords: the coverage probes name the keyword they test (`limit maximum+1`).
  {
    promise: /^(listPlants)\.(limit|cursor|tag)\.(minimum|maximum|maxLength|format)$/,
    exercisedBy: (r, [operation, name, keyword]) =>
      r.operationId === operation &&
      covers(new RegExp(`^${name} (${keyword === 'format' ? 'not an integer|type' : keyword})`))(r, []),
    checks: ['status_code_conformance'],
  },
  {
    promise: /^PlantId(\.format)?$/,
    exercisedBy: any(
      kind('path: not an int64'),
      all(on('getPlant', 'replacePlant', 'deletePlant'), (r) => r.parameters.includes('id')),
    ),
    checks: ['status_code_conformance'],
  },
  {
    promise: /^(Plant|NewPlant)\.(\w+)\.required$/,
    exercisedBy: (r, [, field]) =>
      covers(new RegExp(`^(body\\.)?${field} missing`))(r, []) || kind('body: required field missing')(r, []),
    checks: ['status_code_conformance'],
  },
  {
    promise: /^Plant\.(\w+)\.maxLength$/,
    exercisedBy: (r, [field]) => covers(new RegExp(`^(body\\.)?${field} maxLength`))(r, []),
    checks: ['status_code_conformance', 'positive_data_acceptance'],
  },
  {
    promise: 'NewPlant.id.format',
    exercisedBy: kind('id beyond 2^53', 'body: integer out of range'),
    checks: ['create_read_back', 'status_code_conformance'],
  },
  {
    promise: /^Error\..+/,
    exercisedBy: errorBody,
    checks: ['response_schema_conformance', 'error_code_conformance'],
  },
  // Headers.
  {
    promise: 'header.Link',
    exercisedBy: all(listing, judgedBy('link_conformance')),
    checks: ['link_conformance'],
  },
  {
    promise: 'header.Retry-After',
    exercisedBy: status(429, 503),
    checks: ['response_headers_conformance'],
    unlessSaid: FAULTS,
  },
  { promise: 'header.WWW-Authenticate', exercisedBy: status(401), checks: ['www_authenticate_on_401'] },
  // The rules of HTTP the document relies on (http-rules.ts).
  {
    promise: 'rfc9110.405-allow',
    exercisedBy: kind('other method', 'other method without a token', 'HEAD'),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'rfc9110.head-as-get',
    exercisedBy: kind('HEAD'),
    checks: ['status_code_conformance', 'content_type_conformance', 'response_headers_conformance'],
  },
  {
    promise: /^rfc(9110\.401-www-authenticate|6750\.www-authenticate-bearer)$/,
    exercisedBy: status(401),
    checks: ['www_authenticate_on_401'],
  },
  {
    promise: /^rfc(9110\.retry-after|6585\.429-too-many)$/,
    exercisedBy: status(429, 503),
    checks: ['response_headers_conformance'],
    unlessSaid: FAULTS,
  },
  {
    promise: 'rfc9110.204-no-content',
    exercisedBy: status(204),
    checks: ['content_type_conformance', 'status_code_conformance'],
  },
  {
    promise: 'rfc9110.415-unsupported',
    exercisedBy: kind('content type: unsupported', 'derived: raw-body'),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'rfc9110.413-content-too-large',
    exercisedBy: any(kind('body: too large', 'derived: oversized-body'), covers(/body too large/)),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'rfc9110.media-type-case',
    exercisedBy: kind('content type: parameters or case'),
    checks: ['positive_data_acceptance'],
  },
  {
    promise: 'rfc6750.authorization-header',
    exercisedBy: kind('auth: malformed', 'auth: token in the query string'),
    checks: ['status_code_conformance'],
  },
  {
    promise: 'rfc8288.link-resolution',
    exercisedBy: all(listing, judgedBy('link_conformance')),
    checks: ['link_conformance'],
  },
  ...KIT_PROFILE,
]

/** The entry that names a promise, and what its pattern captured: the first that matches. */
export function entryFor(
  id: string,
  registry: readonly PromiseEntry[] = PROMISE_REGISTRY,
): { entry: PromiseEntry; captured: string[] } | undefined {
  for (const entry of registry) {
    if (typeof entry.promise === 'string') {
      if (entry.promise === id) return { entry, captured: [] }
      continue
    }
    const match = new RegExp(`^(?:${entry.promise.source})$`).exec(id)
    if (match) return { entry, captured: match.slice(1).map((g) => g ?? '') }
  }
  return undefined
}
