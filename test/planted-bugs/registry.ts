// Every planted bug: the document's promises' and the rules of HTTP's. The kit's suite fails on a
// promise a default run exercises that none of them names (planted.test.ts).
import { DOCUMENT_PROMISE_BUGS } from './document-promises.js'
import { HTTP_RULE_BUGS } from './http-rules.js'
import type { PlantedBug } from './planted-bug.js'

export type { PlantedBug } from './planted-bug.js'
export const PLANTED_BUGS: readonly PlantedBug[] = [...DOCUMENT_PROMISE_BUGS, ...HTTP_RULE_BUGS]
