// @plant-store/verify/testing: what plant-store-verify runs, as pieces for a test runner of your own
// (one test per case, several targets at once, your own set-up): the document's cases, the transport,
// the one judge (every built-in check, or those you pass) for one answer and for one generated
// request, the stateful sequences and the newPlant receiver. The document itself is read with
// loadDocument from the package's root.
import type { Check } from './checks/check.js'
import { BUILT_IN_CHECKS } from './checks/registry.js'
import type { JsonSchema, OperationEntry } from './document.js'
import type { Answer } from './http.js'
import { type AnswerOptions, answerExchange } from './judge/answer.js'
import { judgeExchange, type Verdict } from './judge/judge.js'

export type { Case, ConventionProblem, ExampleCase, GeneratedCase, Plant } from './cases/document-cases.js'
export { type ExampleSettings, exampleCases } from './cases/examples.js'
export { generatedCases } from './cases/negative.js'
export { describeProbe, type Probe } from './cases/probe.js'
export { probeArbitrary } from './cases/random.js'
export type { Check, CheckName, Finding } from './checks/check.js'
export type { HttpExchange } from './checks/exchange.js'
export { BUILT_IN_CHECKS } from './checks/registry.js'
export type { Derivation } from './document-prose.js'
export {
  type Answer,
  type Auth,
  describeAnswer,
  describeRequest,
  type Endpoint,
  type RequestSpec,
  type Sender,
  send,
} from './http.js'
export { expectedStatus, roleOf } from './judge/accepted-statuses.js'
export type { AnswerOptions } from './judge/answer.js'
export { judgeExchange, mergeVerdicts, type Verdict } from './judge/judge.js'
export { judgeProbe, type ProbeSettings, type ProbeVerdict, probeExchange } from './judge/probe.js'
export { type State, stateOf } from './judge/state.js'
export { describeHousekeeping, type Housekeeping, Principal } from './run/principal.js'
export { type Api, deriveApi, describeApi } from './run/sequences/api.js'
export { RequestCounts } from './run/sequences/request-counts.js'
export { type RunResult, type RunSettings, runTarget as runSequences } from './run/sequences/run.js'
export {
  newPlantWebhook,
  type WebhookOptions,
  WebhookReceiver,
  type WebhookScopes,
} from './webhooks/receiver.js'

/**
 * An answer to an operation judged by the response the document gives its status, with no model of
 * the store: the status is documented, and the content type, body, Error code, WWW-Authenticate and
 * headers are what that response declares. `checked` names every check that judged it.
 */
export function judgeAnswer(
  entry: OperationEntry,
  answer: Answer,
  options: AnswerOptions = {},
  checks: readonly Check[] = BUILT_IN_CHECKS,
): Verdict {
  const request = { method: entry.method.toUpperCase(), path: entry.path }
  return judgeExchange(answerExchange(entry, request, answer, undefined, options), checks)
}

/** An answer to a request the document has no operation for: the Error every error answer has. */
export function judgeErrorAnswer(
  errorSchema: JsonSchema | undefined,
  answer: Answer,
  checks: readonly Check[] = BUILT_IN_CHECKS,
): Verdict {
  const request = { method: 'GET', path: answer.url ?? '/' }
  return judgeExchange(answerExchange(undefined, request, answer, errorSchema), checks)
}
