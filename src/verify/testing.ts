// @plant-store/verify/testing: what plant-store-verify runs, as pieces for a test runner of your own
// (one test per case, several targets at once, your own set-up): the document's cases, the transport,
// the judges of one answer and of one generated request, the stateful sequences and the newPlant
// receiver. The document itself is read with loadDocument from the package's root.
import type { CheckName, Finding } from './checks.js'
import { type JsonSchema, type OperationEntry, responseFor } from './document.js'
import type { Answer } from './http.js'
import { judgeAnswer as answerFindings, judgeErrorAnswer as errorFindings } from './judge/answer.js'
import { judge, readBackFindings } from './judge/listing.js'
import type { State } from './judge/state.js'
import type { Probe } from './requests/generated.js'

export type { Finding } from './checks.js'
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
export { Principal } from './judge/principal.js'
export { type State, stateOf } from './judge/state.js'
export type { Case, ConventionProblem, ExampleCase, GeneratedCase, Plant } from './requests/cases.js'
export { type ExampleSettings, exampleCases } from './requests/examples.js'
export { describeProbe, type Probe, probeArbitrary } from './requests/generated.js'
export { generatedCases } from './requests/negative.js'
export { type Api, deriveApi, describeApi } from './sequences/api.js'
export { RequestCounts } from './sequences/request-counts.js'
export { type RunResult, type RunSettings, runTarget as runSequences } from './sequences/run.js'
export {
  newPlantWebhook,
  type WebhookOptions,
  WebhookReceiver,
  type WebhookScopes,
} from './webhooks/receiver.js'

/** What judging found: the checks that judged (each passed unless a finding names it), and the findings. */
export interface Verdict {
  checked: CheckName[]
  findings: Finding[]
}

export interface AnswerOptions {
  /** Header names (lower case) the answer must carry on top of those its response marks required. */
  requiredHeaders?: string[]
}

/**
 * An answer to an operation judged by the response the document gives its status, with no model of
 * the store: the status is documented, and the content type, body, Error code, WWW-Authenticate and
 * headers are what that response declares. The checks it names are the ones `Results.record` counts.
 */
export function judgeAnswer(entry: OperationEntry, answer: Answer, options: AnswerOptions = {}): Verdict {
  const findings = answerFindings(entry, answer, options)
  const checked: CheckName[] = responseFor(entry, answer.status)
    ? [
        'content_type_conformance',
        'response_schema_conformance',
        'response_headers_conformance',
        ...(answer.status >= 400 ? (['error_code_conformance'] as const) : []),
        ...(answer.status === 401 || options.requiredHeaders?.includes('www-authenticate')
          ? (['www_authenticate_on_401'] as const)
          : []),
      ]
    : ['status_code_conformance']
  return { checked, findings }
}

/** An answer to a request the document has no operation for: the Error every error answer has. */
export function judgeErrorAnswer(errorSchema: JsonSchema | undefined, answer: Answer): Verdict {
  return {
    checked: ['content_type_conformance', 'response_schema_conformance', 'error_code_conformance'],
    findings: errorFindings(errorSchema, answer),
  }
}

export interface ProbeSettings {
  /** The target keeps the caller's plants (a server, a sandbox); false for a mock that answers examples. */
  stateful: boolean
  /** The plant a create answered 200 stored, read back (what `Principal.send` returns). */
  readBack?: Answer | undefined
}

export interface ProbeVerdict {
  /** The status the document gives the request in the caller's state (the answer's, when it allows several). */
  expected: number
  findings: Finding[]
}

/**
 * A generated request's answer judged by the document in the caller's state (`stateOf` the plants
 * the principal holds): the status, the answer as `judgeAnswer` judges it, and on a stateful target
 * the plants it shows, the page and its `Link`, and a created plant read back digit for digit.
 */
export function judgeProbe(
  probe: Probe,
  state: State,
  answer: Answer,
  settings: ProbeSettings,
): ProbeVerdict {
  const { expected, findings } = judge(probe, state, answer, settings.stateful)
  if (settings.readBack && findings.length === 0) findings.push(...readBackFindings(probe, settings.readBack))
  return { expected, findings }
}
