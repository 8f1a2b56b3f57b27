// response_headers_conformance: the headers the document declares for the answer's status, present
// where required and valid against their schemas.
import { schemaProblems } from '../judge/schema.js'
import { answerCheck } from './check.js'
import { documentedResponse, requiredNow } from './exchange.js'

export const responseHeadersConformance = answerCheck({
  name: 'response_headers_conformance',
  description: 'the headers the document declares for that status, valid',
  appliesTo: (exchange) => exchange.operation !== undefined,
  run(exchange) {
    const { answer } = exchange
    const response = documentedResponse(exchange)
    if (!response) return []
    const problems: string[] = []
    const required = new Set(requiredNow(exchange).map((h) => h.toLowerCase()))
    required.delete('www-authenticate')
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const key = name.toLowerCase()
      // OpenAPI: a Content-Type header definition is ignored; WWW-Authenticate has a check of its own.
      if (key === 'content-type' || key === 'www-authenticate') continue
      const value = answer.headers[key]
      if (value === undefined) {
        if (header.required || required.has(key)) problems.push(`the documented header ${name} is missing`)
        continue
      }
      if (header.schema) problems.push(...schemaProblems(header.schema, value, `header ${name}`))
    }
    for (const key of required)
      if (!Object.keys(response.headers ?? {}).some((n) => n.toLowerCase() === key))
        problems.push(`the header ${key} is required here but not documented for ${answer.status}`)
    return problems
  },
})
