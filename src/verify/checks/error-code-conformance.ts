// error_code_conformance: info.description says "every error answer has an Error body whose error is
// the HTTP status code".
import { answerCheck } from './check.js'
import { statusExpected } from './exchange.js'

export const errorCodeConformance = answerCheck({
  name: 'error_code_conformance',
  description: 'an Error body’s `error` equal to the status',
  appliesTo: (exchange) => statusExpected(exchange) >= 400 || exchange.answer.status >= 400,
  run({ answer }) {
    if (answer.status < 400 || !answer.isJson) return []
    const body = answer.json as { error?: unknown } | null
    if (body && typeof body === 'object' && typeof body.error === 'number' && body.error !== answer.status)
      return [`the Error body says error ${body.error} on a ${answer.status} answer`]
    return []
  },
})
