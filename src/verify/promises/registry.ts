// How each promise of the document is exercised: an entry names promises (an id, or a pattern of ids
// with what it captures), the judged requests that exercise them and the checks that judge them; or
// says why no request from outside can show the promise. The kit's own suite fails on a promise no
// entry names and on an entry that names no promise (test/promises.test.ts), so a new sentence in the
// document needs a case here, or a reason. A new kind of case is one entry: `{ promise, exercisedBy:
// (r) => r.layer === 'concurrency' }`, or one more kind in an entry's predicate (a crossed principal's
// cursor beside `other principal` in the Principals entry). The words entries are written in (the
// predicates, the reasons) are exercise.ts's; the kit profile's own entries, kit-profile.ts's.
import { concurrentConsistency } from '../checks/concurrent-consistency.js'
import { contentTypeConformance } from '../checks/content-type-conformance.js'
import { createReadBack } from '../checks/create-read-back.js'
import { errorCodeConformance } from '../checks/error-code-conformance.js'
import { exampleConformance } from '../checks/example-conformance.js'
import { kitProfileConformance } from '../checks/kit-profile-conformance.js'
import { linkConformance } from '../checks/link-conformance.js'
import { positiveDataAcceptance } from '../checks/positive-data-acceptance.js'
import { principalIsolation } from '../checks/principal-isolation.js'
import { responseHeadersConformance } from '../checks/response-headers-conformance.js'
import { responseSchemaConformance } from '../checks/response-schema-conformance.js'
import { statusCodeConformance } from '../checks/status-code-conformance.js'
import { storeConformance } from '../checks/store-conformance.js'
import { webhookConformance } from '../checks/webhook-conformance.js'
import { wwwAuthenticateOn401 } from '../checks/www-authenticate-on-401.js'
import {
  ABOUT_THE_DOCUMENT,
  AUTH_QUOTA,
  all,
  any,
  CLIENTS,
  covers,
  FAULTS,
  given,
  judgedBy,
  KIT_ONLY,
  kind,
  layer,
  on,
  type PromiseEntry,
  status,
  success,
  WEBHOOK_RECEIVER,
} from './exercise.js'
import { KIT_PROFILE } from './kit-profile.js'

export type { PromiseEntry } from './exercise.js'

const auth = kind(
  'auth: none',
  'auth: malformed',
  'auth: unknown token',
  'auth: token in the query string',
  'auth: token in a cookie',
)
const errorBody = all(
  status(...Array.from({ length: 200 }, (_, i) => 400 + i)),
  judgedBy(responseSchemaConformance.name),
)
const listing = all(on('listPlants'), status(200))
const oversized = any(
  kind(
    'body: too large',
    'derived: oversized-body',
    'derived: long-path-segment',
    'derived: oversized-headers',
  ),
  covers(/body too large/),
)

export const PROMISE_REGISTRY: readonly PromiseEntry[] = [
  // info.description: what the document is.
  { promise: /^interface\..+/, untestable: ABOUT_THE_DOCUMENT },
  { promise: /^what-is-original\..+/, untestable: ABOUT_THE_DOCUMENT },
  { promise: /^the-interface-and\..+/, untestable: ABOUT_THE_DOCUMENT },
  // Principals.
  {
    promise: /^principals\.(each-bearer-token-belongs-to|a-principal-sees-and-changes)$/,
    exercisedBy: kind('other principal'),
    checks: [principalIsolation.name, statusCodeConformance.name],
  },
  {
    promise: 'principals.what-an-answer-hands-a',
    exercisedBy: kind('other principal'),
    checks: [principalIsolation.name, statusCodeConformance.name],
  },
  {
    promise: 'principals.a-request-without-a-valid',
    exercisedBy: auth,
    checks: [statusCodeConformance.name, wwwAuthenticateOn401.name],
  },
  // Errors.
  {
    promise: 'errors.every-error-answer-that-has',
    exercisedBy: errorBody,
    // An error answer in another media type (an HTML page) is no Error body either; under the kit's
    // profile, an empty message says nothing of what was wrong.
    checks: [
      responseSchemaConformance.name,
      errorCodeConformance.name,
      contentTypeConformance.name,
      kitProfileConformance.name,
    ],
  },
  {
    promise: 'errors.any-operation-may-answer-500',
    exercisedBy: any(
      status(429, 500, 503),
      kind('derived: over-rate-limit', 'derived: fault', 'derived: store-down'),
    ),
    checks: [statusCodeConformance.name, responseHeadersConformance.name],
    unlessSaid: FAULTS,
  },
  {
    promise: 'errors.where-a-request-meets-two',
    exercisedBy: all(layer('generated'), on('replacePlant', 'createPlant'), (r) =>
      r.kinds.some((k) => k.startsWith('body: ')),
    ),
    checks: [statusCodeConformance.name],
  },
  // Methods.
  {
    promise: 'methods.a-method-that-a-documented',
    exercisedBy: kind('other method'),
    checks: [statusCodeConformance.name, responseSchemaConformance.name],
  },
  {
    promise: 'methods.such-a-request-without-a',
    exercisedBy: kind('other method without a token'),
    checks: [statusCodeConformance.name, wwwAuthenticateOn401.name],
    unlessSaid: AUTH_QUOTA,
    sentBy: ['security'],
  },
  { promise: 'methods.no-path-takes-head-a', exercisedBy: kind('HEAD') },
  {
    promise: /^query-strings\..+/,
    exercisedBy: kind('plus in query'),
    checks: [storeConformance.name, statusCodeConformance.name],
  },
  // Limits.
  {
    promise: /^limits\.(every-plant-store-accepts-at|the-schemas-bound-every-string)$/,
    exercisedBy: covers(/maxLength \d+ astral \(valid\)/),
    checks: [positiveDataAcceptance.name, statusCodeConformance.name],
  },
  {
    promise: 'limits.beyond-those-sizes-a-store',
    exercisedBy: oversized,
    checks: [statusCodeConformance.name, responseSchemaConformance.name],
  },
  {
    // A refusal's body in another media type (text/plain, as a server's own handler writes it) is no Error.
    promise: 'limits.a-refusal-written-by-a',
    exercisedBy: oversized,
    checks: [statusCodeConformance.name, responseSchemaConformance.name, contentTypeConformance.name],
  },
  {
    promise: 'limits.a-page-holds-at-most',
    // A page answered to limit=101 (limit maximum+1) is a page of more than 100 allowed.
    exercisedBy: all(listing, covers(/^limit maximum/)),
    checks: [
      responseSchemaConformance.name,
      linkConformance.name,
      storeConformance.name,
      statusCodeConformance.name,
    ],
  },
  // Bodies.
  {
    promise: 'bodies.a-body-is-read-as',
    exercisedBy: kind('integer form: exponent', 'integer form: fraction', 'id beyond 2^53'),
    checks: [positiveDataAcceptance.name, createReadBack.name],
  },
  {
    promise: 'bodies.keys-a-schema-does-not',
    exercisedBy: kind('key: __proto__', 'key: constructor', 'key: duplicate', 'key: unknown'),
    checks: [positiveDataAcceptance.name, createReadBack.name],
  },
  {
    promise: 'bodies.strings-must-be-unicode-text',
    exercisedBy: kind('body: not Unicode text'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'bodies.a-body-that-is-not',
    exercisedBy: kind('content type: unsupported', 'content type: parameters or case', 'derived: raw-body'),
    checks: [statusCodeConformance.name, positiveDataAcceptance.name],
  },
  { promise: 'bodies.an-answer-may-show-properties', untestable: CLIENTS },
  // Webhooks.
  {
    promise: /^webhooks\..+/,
    exercisedBy: layer('webhooks'),
    checks: [webhookConformance.name],
    unlessSaid: WEBHOOK_RECEIVER,
  },
  {
    promise: /^newPlant\..+/,
    exercisedBy: layer('webhooks'),
    checks: [webhookConformance.name],
    unlessSaid: WEBHOOK_RECEIVER,
  },
  // The contract fixtures: how the examples are read, which the examples layer does.
  {
    promise: /^contract-fixtures\.(a-request-example-whose-name|x-given-plants-on-a)$/,
    exercisedBy: layer('examples'),
    checks: [exampleConformance.name, statusCodeConformance.name],
  },
  { promise: 'contract-fixtures.tools-ignore-these-x-fields', untestable: ABOUT_THE_DOCUMENT },
  {
    promise: 'contract-fixtures.operations-without-a-request-body',
    exercisedBy: kind('body on an operation without one'),
    checks: [statusCodeConformance.name],
  },
  // The bearer scheme.
  {
    promise: 'bearerAuth.authorization-bearer-access-token-in',
    exercisedBy: kind('auth: token in the query string', 'auth: token in a cookie', 'auth: malformed'),
    checks: [statusCodeConformance.name, wwwAuthenticateOn401.name],
  },
  {
    promise: 'bearerAuth.each-token-belongs-to-one',
    exercisedBy: kind('other principal'),
    checks: [principalIsolation.name],
  },
  // The operations.
  { promise: 'listPlants.lists-the-caller-s-plants', exercisedBy: listing, checks: [storeConformance.name] },
  {
    promise: 'listPlants.a-page-holds-at-most',
    exercisedBy: all(listing, (r) => r.parameters.includes('limit')),
    checks: [storeConformance.name, linkConformance.name],
  },
  {
    promise: /^listPlants\.(when-more-follow-the-link|its-target-may-be-any)$/,
    exercisedBy: all(listing, judgedBy(linkConformance.name)),
    checks: [linkConformance.name],
  },
  { promise: 'listPlants.the-kit-s-stores-answer', untestable: KIT_ONLY },
  {
    promise: 'listPlants.the-cursor-in-it-is',
    exercisedBy: any(
      kind('query: unknown cursor'),
      all(listing, (r) => r.parameters.includes('cursor')),
    ),
    checks: [statusCodeConformance.name, linkConformance.name],
  },
  {
    promise: /^listPlants\.paging-while-plants\..+/,
    exercisedBy: any(layer('stateful'), all(layer('concurrency'), on('listPlants'))),
    checks: [storeConformance.name, linkConformance.name, concurrentConsistency.name],
  },
  {
    promise: /^(listPlants)\.(limit|cursor|tag)$/,
    exercisedBy: (r, [operation, name]) => r.operationId === operation && r.parameters.includes(name ?? ''),
    checks: [statusCodeConformance.name, storeConformance.name],
  },
  {
    promise: 'createPlant.creates-a-new-plant-in',
    exercisedBy: all(on('createPlant'), success),
    // The create's answer is the plant created: one that names another id breaks it (store_conformance).
    checks: [createReadBack.name, statusCodeConformance.name, storeConformance.name],
  },
  {
    promise: 'createPlant.addition-to-1-0-0',
    // Creates of one id sent together: one 200 and a 409 for each of the rest.
    exercisedBy: any(
      all(on('createPlant'), status(409, 401, 413, 415)),
      all(layer('concurrency'), on('createPlant')),
    ),
    checks: [statusCodeConformance.name, responseSchemaConformance.name, concurrentConsistency.name],
  },
  {
    promise: 'getPlant.reads-one-of-the-caller',
    exercisedBy: all(on('getPlant'), success),
    checks: [storeConformance.name, responseSchemaConformance.name],
  },
  {
    promise: 'replacePlant.replaces-the-name-and-tag',
    exercisedBy: all(on('replacePlant'), success),
    checks: [storeConformance.name],
  },
  {
    promise: 'replacePlant.the-plant-must-exist-create',
    exercisedBy: all(on('replacePlant'), given(404)),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'deletePlant.deletes-one-of-the-caller',
    exercisedBy: all(on('deletePlant'), success),
    checks: [storeConformance.name, statusCodeConformance.name],
  },
  // Parameters' and schemas' keywords: the coverage probes name the keyword they test (`limit maximum+1`).
  {
    promise: /^(listPlants)\.(limit|cursor|tag)\.(minimum|maximum|maxLength|format)$/,
    exercisedBy: (r, [operation, name, keyword]) =>
      r.operationId === operation &&
      covers(new RegExp(`^${name} (${keyword === 'format' ? 'not an integer|type' : keyword})`))(r, []),
    checks: [statusCodeConformance.name],
  },
  {
    promise: /^PlantId(\.format)?$/,
    exercisedBy: any(
      kind('path: not an int64'),
      all(on('getPlant', 'replacePlant', 'deletePlant'), (r) => r.parameters.includes('id')),
    ),
    checks: [statusCodeConformance.name],
  },
  {
    promise: /^(Plant|NewPlant)\.(\w+)\.required$/,
    exercisedBy: (r, [, field]) =>
      covers(new RegExp(`^(body\\.)?${field} missing`))(r, []) || kind('body: required field missing')(r, []),
    checks: [statusCodeConformance.name],
  },
  {
    promise: /^Plant\.(\w+)\.maxLength$/,
    exercisedBy: (r, [field]) => covers(new RegExp(`^(body\\.)?${field} maxLength`))(r, []),
    checks: [statusCodeConformance.name, positiveDataAcceptance.name],
  },
  {
    promise: 'NewPlant.id.format',
    exercisedBy: kind('id beyond 2^53', 'body: integer out of range'),
    checks: [createReadBack.name, statusCodeConformance.name],
  },
  {
    promise: /^Error\..+/,
    exercisedBy: errorBody,
    checks: [responseSchemaConformance.name, errorCodeConformance.name],
  },
  // Headers.
  {
    promise: 'header.Link',
    exercisedBy: all(listing, judgedBy(linkConformance.name)),
    checks: [linkConformance.name],
  },
  {
    promise: 'header.Retry-After',
    exercisedBy: status(429, 503),
    checks: [responseHeadersConformance.name],
    unlessSaid: FAULTS,
  },
  { promise: 'header.WWW-Authenticate', exercisedBy: status(401), checks: [wwwAuthenticateOn401.name] },
  // The rules of HTTP the document relies on (http-rules.ts).
  {
    promise: 'rfc9110.405-allow',
    exercisedBy: kind('other method', 'other method without a token', 'HEAD'),
    checks: [statusCodeConformance.name, responseHeadersConformance.name],
  },
  {
    promise: 'rfc9110.head-as-get',
    exercisedBy: kind('HEAD'),
    checks: [statusCodeConformance.name, contentTypeConformance.name, responseHeadersConformance.name],
  },
  {
    promise: /^rfc(9110\.401-www-authenticate|6750\.www-authenticate-bearer)$/,
    exercisedBy: status(401),
    checks: [wwwAuthenticateOn401.name],
  },
  {
    promise: /^rfc(9110\.retry-after|6585\.429-too-many)$/,
    exercisedBy: status(429, 503),
    checks: [responseHeadersConformance.name],
    unlessSaid: FAULTS,
  },
  {
    promise: 'rfc9110.204-no-content',
    exercisedBy: any(status(204), given(204)),
    checks: [contentTypeConformance.name, statusCodeConformance.name],
  },
  {
    promise: 'rfc9110.415-unsupported',
    exercisedBy: kind('content type: unsupported', 'derived: raw-body'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc9110.413-content-too-large',
    exercisedBy: any(kind('body: too large', 'derived: oversized-body'), covers(/body too large/)),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc9110.media-type-case',
    exercisedBy: kind('content type: parameters or case'),
    checks: [positiveDataAcceptance.name],
  },
  {
    promise: 'rfc6750.authorization-header',
    exercisedBy: kind('auth: malformed', 'auth: token in the query string'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc6750.bearer-credentials-syntax',
    exercisedBy: kind('auth: spaces after the scheme'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc8288.link-resolution',
    exercisedBy: all(listing, judgedBy(linkConformance.name)),
    checks: [linkConformance.name],
  },
  // Methods a path does not take of every kind, and the rules of HTTP found from the document's features.
  {
    promise: 'methods.a-method-the-store-does',
    exercisedBy: kind('unknown method'),
    checks: [statusCodeConformance.name, responseSchemaConformance.name, contentTypeConformance.name],
  },
  {
    promise: 'rfc9110.auth-scheme-case',
    exercisedBy: kind('auth scheme in lower case'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc9110.head-content-length',
    exercisedBy: all(kind('HEAD'), judgedBy(responseHeadersConformance.name)),
    checks: [responseHeadersConformance.name],
    unlessSaid:
      'only a store that answers HEAD as GET shows it: one that refuses HEAD, as the kit’s server does, sends no Content-Length for it',
  },
  {
    promise: 'rfc9110.method-case',
    exercisedBy: kind('method in lower case'),
    checks: [statusCodeConformance.name],
  },
  {
    promise: 'rfc9110.content-type',
    exercisedBy: all((r) => r.status !== 204, judgedBy(contentTypeConformance.name)),
    checks: [contentTypeConformance.name],
  },
  {
    promise: 'rfc8259.utf-8',
    exercisedBy: judgedBy(contentTypeConformance.name),
    checks: [contentTypeConformance.name],
  },
  {
    promise: 'rfc6750.no-error-without-credentials',
    exercisedBy: all(kind('auth: none', 'other method without a token'), status(401)),
    checks: [wwwAuthenticateOn401.name],
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
