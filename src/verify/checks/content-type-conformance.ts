// content_type_conformance: a content type the document declares for the answer's status, and a body
// it can read (a JSON one in UTF-8); for a path or method the document lacks, an error answer is its
// application/json Error.
import { answerCheck } from './check.js'
import { documentedResponse, type HttpExchange } from './exchange.js'

export const contentTypeConformance = answerCheck({
  name: 'content_type_conformance',
  description:
    'a content type the document declares for that status, and a body it can read (a JSON one in UTF-8)',
  appliesTo: () => true,
  run(exchange) {
    // JSON text between systems that are not one closed ecosystem MUST be UTF-8 (RFC 8259, section 8.1).
    const notUtf8 =
      exchange.answer.notUtf8 && /[/+]json$/.test(exchange.answer.mediaType ?? '')
        ? ['the JSON answer is not UTF-8 (RFC 8259, section 8.1)']
        : []
    return [...notUtf8, ...typeProblems(exchange)]
  },
})

function typeProblems(exchange: HttpExchange): string[] {
  {
    const { answer } = exchange
    if (!exchange.operation) {
      if (answer.status < 400 || (answer.text === '' && exchange.expected?.bodyOptional)) return []
      return answer.mediaType === 'application/json' && answer.isJson
        ? []
        : [`an error answer must be an application/json Error body, got ${answer.mediaType ?? '(none)'}`]
    }
    const response = documentedResponse(exchange)
    if (!response) return []
    const content = response.content ?? {}
    const mediaTypes = Object.keys(content)
    // A refusal a layer in front of the store may write without a body (the document marks it).
    const bodyOptional = (response as { 'x-body-optional'?: boolean })['x-body-optional']
    if (answer.text === '' && bodyOptional && exchange.judging.bodilessRefusals) return []
    if (mediaTypes.length === 0)
      return answer.text === ''
        ? []
        : [`the ${answer.status} response has no documented body, but one was sent`]
    if (!answer.mediaType || !content[answer.mediaType])
      return [
        `content type ${answer.mediaType ?? '(none)'} is not documented for ${answer.status} (documented: ${mediaTypes.join(', ')})`,
      ]
    if (!answer.isJson) return [`the body is not JSON: ${answer.text.slice(0, 100)}`]
    return []
  }
}
