// @plant-store/core: the plant store's behaviour written once, with no HTTP framework: the document and
// its reader, the operations, request validation and the in-memory store, for the server, the in-process
// handlers and the client alike.
export * from './document.js'
export { document } from './generated/document.js'
export { handlerDocument } from './generated/handler-document.js'
export type { components, operations, paths, webhooks } from './generated/openapi.js'
export { requestValidators } from './generated/request-validators.js'
export { bearerToken, challenge, tokenInvalid, tokenRequired } from './lib/bearer.js'
export { type Check, checkOf, type SchemaDef, type Validate } from './lib/check.js'
export * from './lib/consumer-contract.js'
export { type ErrorBody, errorBody, HttpError } from './lib/errors.js'
export { INT64_MAX, INT64_MIN, integerText, isInt64 } from './lib/int64.js'
export { isUnicodeText, parseJsonBody } from './lib/json-body.js'
export { BODY_LIMIT, HEADER_LIMIT, PATH_SEGMENT_LIMIT } from './lib/limits.js'
export { nextAddress, nextLink } from './lib/link.js'
export {
  codedBodyRefusal,
  connectRefused,
  hostRequired,
  parserRefusal,
  transferLengthRefusal,
  unmetExpectation,
} from './lib/node-refusals.js'
export {
  type ExactPlant,
  type PlantField,
  pickPlant,
  plantAnswerOrder,
  plantFieldNames,
  plantFields,
  plantJson,
} from './lib/plant-fields.js'
export { portOption } from './lib/port-option.js'
export * from './lib/recording.js'
export {
  type ReadRequest,
  type RequestInput,
  RequestReader,
  type RequestReaderOptions,
  type Routed,
  type Validators,
} from './lib/request-reader.js'
export { unrouted } from './lib/unrouted.js'
export { createAjv, validatorCompiler } from './lib/validation.js'
export {
  type Answer,
  encodeCursor,
  type InputOf,
  type Operation as PlantOperation,
  type PlantOperationId,
  type PlantOperations,
  type ProbeOperationId,
  plantOperations,
  type WebhookOperationId,
} from './plant-operations.js'
export { openMemoryRepository } from './repository/memory-repository.js'
export type { ListQuery, PlantRepository, StoredPlant } from './repository/plant-repository.js'
