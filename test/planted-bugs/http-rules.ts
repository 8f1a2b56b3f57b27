// The bugs planted in the express store for the refused forms of a token, the methods a path does not
// take, the largest answers and the rules of HTTP: each names the one promise it breaks, by its id in
// the verifier's promises registry, and the layers enough to catch it.
import type { PlantedBug } from './planted-bug.js'

const security = ['security'] as const
const bearer = 'bearerAuth.authorization-bearer-access-token-in'

export const HTTP_RULE_BUGS: readonly PlantedBug[] = [
  // A principal's real token where the document says none is read, or in a malformed header.
  { promise: bearer, store: 'express', bug: 'token-in-query', only: security },
  { promise: bearer, store: 'express', bug: 'token-in-cookie', only: security },
  { promise: bearer, store: 'express', bug: 'basic-scheme-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'schemeless-token-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'bearer-extra-words-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'bearer-prefix-stripped', only: security },
  { promise: 'rfc9110.auth-scheme-case', store: 'express', bug: 'bearer-case-sensitive', only: security },
  // Methods a path does not take.
  {
    promise: 'methods.a-method-that-a-documented',
    store: 'express',
    bug: 'options-answered',
    only: security,
  },
  { promise: 'methods.a-method-the-store-does', store: 'express', bug: 'client-error-html', only: security },
  { promise: 'rfc9110.405-allow', store: 'express', bug: '405-without-allow', only: security },
  { promise: 'rfc9110.405-allow', store: 'express', bug: 'allow-omits-method', only: security },
  // Answers at the document's largest.
  {
    promise: 'limits.a-page-holds-at-most',
    store: 'express',
    bug: 'link-lost-on-large-page',
    only: ['generated'],
  },
  { promise: 'limits.a-page-holds-at-most', store: 'express', bug: 'cursor-holds-name', only: ['generated'] },
  // The rules of HTTP.
  { promise: 'rfc9110.method-case', store: 'express', bug: 'method-case-folded', only: security },
  {
    promise: 'rfc9110.head-content-length',
    store: 'express',
    bug: 'head-content-length-zero',
    only: security,
  },
  {
    promise: 'rfc6750.www-authenticate-bearer',
    store: 'express',
    bug: '401-basic-challenge',
    only: security,
  },
  { promise: 'rfc9110.content-type', store: 'express', bug: 'not-found-untyped', only: security },
  { promise: 'rfc8259.utf-8', store: 'express', bug: 'json-not-utf8', only: ['generated'] },
  {
    promise: 'rfc6750.no-error-without-credentials',
    store: 'express',
    bug: '401-error-always',
    only: ['examples'],
  },
  {
    promise: 'rfc9110.media-type-case',
    store: 'express',
    bug: 'json-type-case-sensitive',
    only: ['generated'],
  },
]
