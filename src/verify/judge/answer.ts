// An answer judged by the document alone, with no model of the store: what the validating proxy and
// the replay judge live traffic by, and the kit's own suite its cases.
import type { Finding } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import type { JsonSchema, OperationEntry } from '../document.js'
import type { Answer } from '../http.js'
import { judgeExchange } from './judge.js'
import { EXACT } from './plant.js'

export interface AnswerOptions {
  /** Header names (lower case) that must be present on top of those the document marks required. */
  requiredHeaders?: string[]
}

/**
 * The exchange of an answer to `method path`: judged by its operation's documented response, or, for
 * a method and path the document lacks, as the Error every error answer has.
 */
export function answerExchange(
  operation: OperationEntry | undefined,
  request: { method: string; path: string },
  answer: Answer,
  errorSchema: JsonSchema | undefined,
  options: AnswerOptions = {},
): HttpExchange {
  return {
    kind: 'http',
    operation,
    request,
    answer,
    judging: EXACT,
    ...(options.requiredHeaders ? { requiredHeaders: options.requiredHeaders } : {}),
    ...(operation ? {} : { errorSchema }),
  }
}

/** The findings of every built-in check on an answer judged by the document alone. */
export const judgeAnswer = (...args: Parameters<typeof answerExchange>): Finding[] =>
  judgeExchange(answerExchange(...args), BUILT_IN_CHECKS).findings
