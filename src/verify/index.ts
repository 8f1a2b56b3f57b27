// @plant-store/verify: the plant store's contract suite as a library, for checking a running server by URL.

export type { Check, CheckName, Finding } from './checks/check.js'
export { CHECK_NAMES, CHECKS } from './checks/registry.js'
export {
  type Document,
  documentedStatuses,
  interfaceOf,
  type JsonSchema,
  type LoadedDocument,
  loadDocument,
  type OperationEntry,
  type Profile,
} from './document.js'
export {
  loadPromises,
  NO_CASE,
  NOT_SENT,
  type PromiseCoverage,
  promiseCoverage,
  registryGaps,
} from './promises/coverage.js'
export { type DocumentPromise, documentPromises, type PromiseSource } from './promises/document-promises.js'
export { HTTP_RULES, type HttpRule } from './promises/http-rules.js'
export { entryFor, PROMISE_REGISTRY, type PromiseEntry } from './promises/registry.js'
export { type Difference, type ReplayedExchange, type ReplayOptions, replay } from './proxy/replay.js'
export { coverageOf, parametersOf } from './report/coverage.js'
export type { Coverage } from './report/coverage-summary.js'
export type { JsonReport } from './report/json.js'
export type { ReportedRun, Reporter } from './report/reporter.js'
export { REPORTERS, type ReportFormat } from './report/reports.js'
export { type Failure, type Judged, type JudgedFacts, LAYERS, type Layer, Results } from './report/results.js'
export {
  type CheckDefinition,
  type CheckExchange,
  defineCheck,
  defineConfig,
  type Hooks,
  type OutgoingRequest,
  type VerifyConfig,
} from './run/config.js'
export type { ConsumerRun } from './run/context.js'
export { DEFAULTS, type VerifyOptions, VerifyUsageError, verify } from './run/verify.js'
