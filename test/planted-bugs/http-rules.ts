// The planted bugs of the rules of HTTP the document relies on (src/verify/promises/http-rules.ts),
// one or more per rule a default run exercises, each in the fixture store it is planted in.
import type { PlantedBug } from './planted-bug.js'

const independent = (promise: string, bug: string, ...only: string[]): PlantedBug => ({
  promise,
  store: 'independent',
  bug,
  ...(only.length ? { only } : {}),
})

export const HTTP_RULE_BUGS: readonly PlantedBug[] = [
  independent('rfc9110.head-as-get', 'head-without-content-type', 'security'),
  independent('rfc9110.401-www-authenticate', 'www-authenticate-only-without-token', 'security'),
  independent('rfc9110.204-no-content', 'delete-answers-200', 'generated'),
  independent('rfc9110.415-unsupported', 'unsupported-type-answered-400', 'generated'),
  independent('rfc9110.413-content-too-large', 'oversized-body-422', 'generated'),
  independent('rfc9110.media-type-case', 'media-type-case-sensitive', 'generated'),
  independent('rfc6750.authorization-header', 'malformed-auth-500', 'security'),
  independent('rfc6750.www-authenticate-bearer', 'no-www-authenticate', 'security'),
  independent('rfc8288.link-resolution', 'link-appends-cursor', 'generated'),
]
