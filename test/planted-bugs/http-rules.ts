// The planted bugs of the rules of HTTP the document relies on (src/verify/promises/http-rules.ts), one
// or more per rule a default run exercises, and those of the refused forms of a token, the methods a
// path does not take and the largest answers, each in the fixture store it is planted in, naming the
// one promise it breaks by its id in the verifier's promises registry, and the layers enough to catch it.
import type { PlantedBug } from './planted-bug.js'

const independent = (promise: string, bug: string, ...only: string[]): PlantedBug => ({
  promise,
  store: 'independent',
  bug,
  ...(only.length ? { only } : {}),
})

const security = ['security'] as const
const bearer = 'bearerAuth.authorization-bearer-access-token-in'

export const HTTP_RULE_BUGS: readonly PlantedBug[] = [
  // The independent store's.
  independent('rfc9110.head-as-get', 'head-without-content-type', 'security'),
  independent('rfc9110.401-www-authenticate', 'www-authenticate-only-without-token', 'security'),
  independent('rfc9110.204-no-content', 'delete-answers-200', 'generated'),
  independent('rfc9110.415-unsupported', 'unsupported-type-answered-400', 'generated'),
  independent('rfc9110.413-content-too-large', 'oversized-body-422', 'generated'),
  independent('rfc9110.media-type-case', 'media-type-case-sensitive', 'generated'),
  independent('rfc6750.authorization-header', 'malformed-auth-500', 'security'),
  independent('rfc6750.www-authenticate-bearer', 'no-www-authenticate', 'security'),
  independent('rfc8288.link-resolution', 'link-appends-cursor', 'generated'),
  // The express store's: the refused forms of a token, the methods a path does not take, the largest
  // answers and the rules of HTTP.
  // A principal's real token where the document says none is read, or in a malformed header.
  { promise: bearer, store: 'express', bug: 'token-in-query', only: security },
  { promise: bearer, store: 'express', bug: 'token-in-cookie', only: security },
  { promise: bearer, store: 'express', bug: 'basic-scheme-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'schemeless-token-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'bearer-extra-words-accepted', only: security },
  { promise: bearer, store: 'express', bug: 'bearer-prefix-stripped', only: security },
  { promise: bearer, store: 'express', bug: 'bearer-suffix-scheme-accepted', only: security },
  { promise: 'rfc9110.auth-scheme-case', store: 'express', bug: 'bearer-case-sensitive', only: security },
  {
    promise: 'rfc6750.bearer-credentials-syntax',
    store: 'express',
    bug: 'bearer-one-space-only',
    only: security,
  },
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
  {
    promise: 'rfc9110.401-www-authenticate',
    store: 'express',
    bug: 'challenge-without-commas',
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
