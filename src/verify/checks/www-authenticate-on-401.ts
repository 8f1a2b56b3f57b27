// www_authenticate_on_401: the bearer challenge on every 401 (RFC 6750), valid against its documented
// schema and the challenges' syntax (RFC 9110) wherever it is sent, with no error code for a request
// that sent no credentials at all.
import { schemaProblems } from '../judge/schema.js'
import { challengeSyntaxProblem } from './challenge-syntax.js'
import { answerCheck } from './check.js'
import { documentedResponse, requiredNow, statusExpected } from './exchange.js'

const NAME = 'www-authenticate'

export const wwwAuthenticateOn401 = answerCheck({
  name: 'www_authenticate_on_401',
  description:
    'WWW-Authenticate on every 401, a list of challenges (RFC 9110, section 11.6.1), with no error code when the request sent no credentials',
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
    const problems = documented?.[1].schema
      ? schemaProblems(documented[1].schema, value, 'header WWW-Authenticate')
      : []
    const syntax = challengeSyntaxProblem(value)
    if (syntax) problems.push(syntax)
    // RFC 6750, section 3.1: a request with no authentication information gets no error code.
    const sent = answer.sentHeaders
    const bare =
      sent !== undefined &&
      sent.authorization === undefined &&
      sent.cookie === undefined &&
      !/[?&]access_token=/.test(exchange.request.path)
    if (answer.status === 401 && bare && /(^|[\s,])error\s*=/i.test(value))
      problems.push(
        `the challenge to a request without credentials carries an error code (${value}): RFC 6750, section 3.1, says it should not`,
      )
    return problems
  },
})
