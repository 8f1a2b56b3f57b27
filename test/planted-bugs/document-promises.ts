// The planted bugs of the document's own promises (src/verify/promises/document-promises.ts), one or
// more per promise a default run exercises, each in the fixture store it is planted in, with the
// verifier's layers enough to catch it.
import type { PlantedBug } from './planted-bug.js'

const independent = (promise: string, bug: string, ...only: string[]): PlantedBug => ({
  promise,
  store: 'independent',
  bug,
  ...(only.length ? { only } : {}),
})

/** A bug of the Express store (test/fixtures/express-store/README.md lists them). */
const express = (promise: string, bug: string, ...only: string[]): PlantedBug => ({
  promise,
  store: 'express',
  bug,
  ...(only.length ? { only } : {}),
})
/** A bug of the Express store that shows only in one of its VARIANTs. */
const expressIn = (variant: string, promise: string, bug: string, ...only: string[]): PlantedBug => ({
  ...express(promise, bug, ...only),
  variant,
})

export const DOCUMENT_PROMISE_BUGS: readonly PlantedBug[] = [
  // Principals.
  independent('principals.each-bearer-token-belongs-to', 'ids-unique-across-principals', 'security'),
  independent('principals.a-principal-sees-and-changes', 'other-principal-deletable', 'security'),
  express('principals.a-principal-sees-and-changes', 'crossed-id', 'security'),
  independent('principals.what-an-answer-hands-a', 'crossed-cursor', 'security'),
  independent('principals.a-request-without-a-valid', 'unknown-token-anonymous', 'security'),
  // Errors.
  independent('errors.every-error-answer-that-has', 'error-code-always-400', 'generated'),
  express('errors.every-error-answer-that-has', 'html-not-found', 'generated'),
  independent('errors.where-a-request-meets-two', 'put-missing-bad-body-crashes', 'generated'),
  // Methods.
  independent('methods.a-method-that-a-documented', 'unknown-method-reads', 'security'),
  independent('methods.such-a-request-without-a', 'preflight-answers-any-method', 'security'),
  independent('methods.no-path-takes-head-a', 'head-answers-204', 'security'),
  // Query strings.
  independent('query-strings.a-query-string-is-read', 'percent-decoded-twice', 'examples'),
  independent('query-strings.so-tag-sweet-basil-asks', 'plus-not-space', 'examples'),
  // Limits.
  independent('limits.every-plant-store-accepts-at', 'body-limit-too-low', 'generated'),
  independent('limits.beyond-those-sizes-a-store', 'oversized-body-500', 'generated'),
  independent('limits.the-schemas-bound-every-string', 'strings-counted-in-code-units', 'generated'),
  independent('limits.a-refusal-written-by-a', 'refusal-problem-json', 'generated'),
  independent('limits.a-refusal-written-by-a', 'refusal-text-plain', 'generated'),
  independent('limits.a-page-holds-at-most', 'limit-cap-off-by-one', 'generated'),
  // Bodies.
  independent('bodies.a-body-is-read-as', 'exponent-ids-rejected', 'generated'),
  independent('bodies.keys-a-schema-does-not', 'unknown-fields-rejected', 'generated'),
  independent('bodies.strings-must-be-unicode-text', 'lone-surrogate-accepted', 'generated'),
  independent('bodies.a-body-that-is-not', 'charset-refused', 'generated'),
  // The contract fixtures.
  independent('contract-fixtures.a-request-example-whose-name', 'created-answer-without-tag', 'examples'),
  independent('contract-fixtures.x-given-plants-on-a', 'duplicate-answers-400', 'examples'),
  independent('contract-fixtures.operations-without-a-request-body', 'body-on-get-refused', 'generated'),
  // The bearer scheme.
  independent('bearerAuth.authorization-bearer-access-token-in', 'malformed-auth-400', 'security'),
  independent('bearerAuth.each-token-belongs-to-one', 'other-principal-readable', 'security'),
  // The operations.
  independent('listPlants.lists-the-caller-s-plants', 'list-newest-first', 'generated'),
  independent('listPlants.a-page-holds-at-most', 'limit-plus-one', 'generated'),
  independent('listPlants.when-more-follow-the-link', 'link-on-full-last-page', 'generated'),
  independent('listPlants.its-target-may-be-any', 'link-wrong-host', 'generated'),
  independent('listPlants.the-cursor-in-it-is', 'unknown-cursor-starts-over', 'generated'),
  independent(
    'listPlants.paging-while-plants.each-page-starts-after-the',
    'page-repeats-boundary',
    'stateful',
  ),
  independent('listPlants.paging-while-plants.so-a-plant-created-or', 'offset-cursor', 'stateful'),
  independent(
    'listPlants.paging-while-plants.a-plant-created-meanwhile-shows',
    'listing-snapshot',
    'stateful',
  ),
  independent('listPlants.limit', 'limit-ignored', 'generated'),
  independent('listPlants.limit.minimum', 'limit-zero-accepted', 'generated'),
  independent('listPlants.limit.maximum', 'limit-not-capped', 'generated'),
  independent('listPlants.limit.format', 'limit-parse-int', 'generated'),
  independent('listPlants.cursor', 'cursor-ignored', 'generated'),
  independent('listPlants.cursor.maxLength', 'long-query-414', 'generated'),
  independent('listPlants.tag', 'tag-filter-ignored', 'generated'),
  express('listPlants.tag', 'tag-filter-loose', 'generated'),
  independent('listPlants.tag.maxLength', 'tag-length-unchecked', 'generated'),
  independent('createPlant.creates-a-new-plant-in', 'create-answers-201', 'generated'),
  expressIn('stored-create', 'createPlant.creates-a-new-plant-in', 'create-wrong-id', 'generated'),
  independent('createPlant.addition-to-1-0-0', 'duplicate-overwrites', 'concurrency'),
  independent('createPlant.addition-to-1-0-0', 'create-race', 'concurrency'),
  independent('getPlant.reads-one-of-the-caller', 'read-without-name', 'generated'),
  independent('replacePlant.replaces-the-name-and-tag', 'put-keeps-tag', 'generated'),
  independent('replacePlant.the-plant-must-exist-create', 'put-upserts', 'generated'),
  independent('deletePlant.deletes-one-of-the-caller', 'delete-missing-204', 'generated'),
  // Parameters' and schemas' keywords.
  independent('PlantId', 'path-id-leading-zeros', 'generated'),
  independent('PlantId.format', 'path-id-wraps', 'generated'),
  independent('Plant.name.required', 'name-optional', 'generated'),
  independent('Plant.name.maxLength', 'name-not-bounded', 'generated'),
  independent('Plant.tag.maxLength', 'tag-not-bounded', 'generated'),
  independent('NewPlant.id.required', 'id-optional', 'generated'),
  independent('NewPlant.id.format', 'rounded-ids', 'generated'),
  independent('Error.error.required', 'not-found-without-error', 'generated'),
  independent('Error.message.required', 'error-without-message', 'generated'),
  independent('Error.error.minimum', 'error-numbered-from-1', 'generated'),
  independent('Error.error.maximum', 'error-code-is-app-code', 'generated'),
  independent('Error.error.format', 'error-as-string', 'generated'),
  // Headers.
  independent('header.Link', 'link-rel-unquoted', 'generated'),
  independent('header.WWW-Authenticate', 'www-authenticate-basic', 'security'),
]
