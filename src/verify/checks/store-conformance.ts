// store_conformance: where the layer keeps a model of the caller's store, the plants an answer shows
// are the caller's plants as the requests so far left them: the plant read, created or replaced, and
// the first page of a listing (the pages after it are the Link's: link_conformance).
import { roleOf } from '../judge/accepted-statuses.js'
import { pageProblems } from '../judge/listing.js'
import { plantProblem, shown } from '../judge/plant.js'
import { answerCheck } from './check.js'
import { bodyOf, statusExpected } from './exchange.js'

export const storeConformance = answerCheck({
  name: 'store_conformance',
  description:
    'the plants answered are the caller’s plants as the requests so far left them; a filtered page exactly those the filter keeps',
  appliesTo: (exchange) =>
    exchange.store !== undefined &&
    exchange.operation !== undefined &&
    roleOf(exchange.operation) !== 'other' &&
    statusExpected(exchange) < 300,
  run(exchange) {
    const { answer, operation, page, store, judging } = exchange
    // Another status is status_code_conformance's to judge.
    if (!operation || answer.status !== statusExpected(exchange) || answer.status >= 300 || !answer.isJson)
      return []
    const body = bodyOf(answer)
    if (page) {
      if (page.number > 1) return []
      if (!Array.isArray(body)) return [`the answer is ${shown(body)}, not a page of plants`]
      const expected = page.plants.slice(0, page.limit)
      const { order, contents } = pageProblems(operation.operationId, body, expected, judging, page.fields)
      // A page out of order is the Link's promise broken.
      return order ? [] : contents
    }
    const plant = store?.plant
    if (!plant) return []
    const problem = plantProblem(
      operation.operationId,
      body,
      plant.value,
      plant.fields,
      judging,
      plant.optional,
    )
    return problem ? [problem] : []
  },
})
