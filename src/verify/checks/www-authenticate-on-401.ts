// www_authenticate_on_401: the bearer challenge on every 401 (RFC 6750), valid against its documented
// schema wherever it is sent.
import { schemaProblems } from '../judge/schema.js'
import { answerCheck } from './check.js'
import { documentedResponse, requiredNow, statusExpected } from './exchange.js'

const NAME = 'www-authenticate'

export const wwwAuthenticateOn401 = answerCheck({
  name: 'www_authenticate_on_401',
  description: 'WWW-Authenticate on every 401',
  appliesTo: (exchange) =>
    exchange.operation !== undefined &&
    (statusExpected(exchange) === 401 ||
      exchange.answer.status === 401 ||
      exchange.answer.headers[NAME] !== undefined ||
      (exchange.requiredHeaders ?? []).includes(NAME)),
  run(exchange) {
    const { answer } = exchange
    const response = documentedResponse(exchange)
    if (!response) return []
    const value = answer.headers[NAME]
    if (value === undefined)
      return answer.status === 401 || requiredNow(exchange).includes(NAME)
        ? [`the WWW-Authenticate header is missing from a ${answer.status}`]
        : []
    const documented = Object.entries(response.headers ?? {}).find(([n]) => n.toLowerCase() === NAME)
    return documented?.[1].schema
      ? schemaProblems(documented[1].schema, value, 'header WWW-Authenticate')
      : []
  },
})
