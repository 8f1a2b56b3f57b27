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

/** The messages of judgeAnswer for an operation's answer, for the kit's own suite, which asserts there are none. */
export const validateAnswer = (
  entry: OperationEntry,
  answer: Answer,
  options: AnswerOptions = {},
): string[] =>
  judgeAnswer(
    entry,
    { method: entry.method.toUpperCase(), path: entry.path },
    answer,
    undefined,
    options,
  ).map((f) => f.message)

/** The messages of judgeAnswer for a path the document lacks, for the kit's own suite. */
export const validateErrorAnswer = (errorSchema: JsonSchema | undefined, answer: Answer): string[] =>
  judgeAnswer(undefined, { method: 'GET', path: answer.url ?? '/' }, answer, errorSchema).map(
    (f) => f.message,
  )
