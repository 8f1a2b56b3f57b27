// A sequence's answer judged against the model: what the model expects, and what the document's checks
// say of it; the first thing wrong ends the sequence as a Mismatch under the check it broke.
import type { CheckName, Finding } from '../checks.js'
import type { OperationEntry } from '../document.js'
import { parseExact } from '../exact-json.js'
import type { Answer } from '../http.js'
import { judgeAnswer } from '../judge/answer.js'
import { answerOptions, EXACT, plantProblem } from '../judge/plant.js'
import type { Api } from './api.js'
import { type Expected, ownerHint, type Plant, type StoreModel } from './store-model.js'

/** A failed expectation, with the exchange that broke it and the check whose promise it broke. */
export class Mismatch extends Error {
  override name = 'Mismatch'
  constructor(
    readonly check: CheckName,
    message: string,
  ) {
    super(message)
  }
}

/** A mismatch that shows another principal's plant is one of isolation, whatever else it is. */
export const isolationOr = (hint: string, check: CheckName): CheckName =>
  hint.includes('isolation between principals is broken') ? 'principal_isolation' : check

export function verify(
  api: Api,
  model: StoreModel,
  principal: number,
  entry: OperationEntry,
  answer: Answer,
  expected: Expected,
  fields: string[],
): void {
  const found = judgeAnswer(entry, answer, answerOptions(api.judging ?? EXACT))
  const where = `${entry.operationId} as p${principal}`
  if (answer.status !== expected.status) {
    let hint = ''
    if (answer.isJson) {
      const shown = parseExact(answer.text)
      hint = ownerHint(model, principal, api.keyField, [shown as Plant])
    }
    throw new Mismatch(
      isolationOr(hint, 'status_code_conformance'),
      `${where}: expected ${expected.status} (${expected.rule}), got ${answer.status} ${answer.text}${hint}`,
    )
  }
  if (expected.plant && answer.isJson) {
    const judging = api.judging ?? EXACT
    const got = parseExact(answer.text)
    // A create's answer (a Plant) may show the key it was created with, or leave it out.
    const optional = fields.includes(api.keyField) || judging.exact ? [] : [api.keyField]
    const problem = plantProblem(entry.operationId, got, expected.plant, fields, judging, optional)
    if (problem) {
      const hint = ownerHint(model, principal, api.keyField, [got as Plant])
      throw new Mismatch(
        isolationOr(hint, 'store_conformance'),
        `${where}: the body is not the model's plant (${expected.rule}): ${problem}${hint}`,
      )
    }
  }
  const first = found[0]
  if (first) throw mismatchOf(`${where}: the answer does not conform to the document`, found, first)
}

/** One mismatch for the findings of the document's checks, under the first one's check. */
export function mismatchOf(where: string, found: Finding[], first: Finding): Mismatch {
  return new Mismatch(first.check, `${where}:\n    ${found.map((f) => f.message).join('\n    ')}`)
}
