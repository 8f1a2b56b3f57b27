// How each rule of HTTP the document relies on (http-rules.ts) is exercised: the registry's entries for
// them, apart from the document's own promises, in the same words (exercise.ts).
import { contentTypeConformance } from '../checks/content-type-conformance.js'
import { linkConformance } from '../checks/link-conformance.js'
import { positiveDataAcceptance } from '../checks/positive-data-acceptance.js'
import { responseHeadersConformance } from '../checks/response-headers-conformance.js'
import { statusCodeConformance } from '../checks/status-code-conformance.js'
import { wwwAuthenticateOn401 } from '../checks/www-authenticate-on-401.js'
import {
  all,
  any,
  covers,
  FAULTS,
  given,
  judgedBy,
  kind,
  listing,
  type PromiseEntry,
  status,
} from './exercise.js'

export const HTTP_RULES_EXERCISE: readonly PromiseEntry[] = [
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
]
