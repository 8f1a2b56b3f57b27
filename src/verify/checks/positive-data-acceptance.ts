// positive_data_acceptance: a request the document's schemas accept, boundary values included, is not
// refused as if it were malformed.
import { answerCheck } from './check.js'
import { type HttpExchange, statusAllowed, wrongStatus } from './exchange.js'

/** The statuses that refuse a request as malformed, too large or unreadable. */
const REFUSALS = [400, 413, 414, 415, 422, 431]

/** A valid request refused: this check's finding, not status_code_conformance's. */
export const refusedValid = (exchange: HttpExchange): boolean =>
  exchange.valid === true && !statusAllowed(exchange) && REFUSALS.includes(exchange.answer.status)

export const positiveDataAcceptance = answerCheck({
  name: 'positive_data_acceptance',
  description: 'a request the document’s schemas accept, boundary values included, is not refused',
  appliesTo: (exchange) => exchange.valid === true,
  run: (exchange) => (refusedValid(exchange) ? [wrongStatus(exchange)] : []),
})
