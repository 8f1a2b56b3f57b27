// response_schema_conformance: the body valid against the schema the document gives its status; for a
// path or method the document lacks, an error answer's body valid against the document's Error.
import { schemaProblems } from '../judge/schema.js'
import { answerCheck } from './check.js'
import { documentedResponse } from './exchange.js'

export const responseSchemaConformance = answerCheck({
  name: 'response_schema_conformance',
  description: 'the body valid against that status’s schema',
  appliesTo: () => true,
  run(exchange) {
    const { answer } = exchange
    if (!exchange.operation) {
      if (answer.status < 400 || (answer.text === '' && exchange.expected?.bodyOptional)) return []
      if (!exchange.errorSchema) return ['the document has no components.schemas.Error to check against']
      if (answer.mediaType !== 'application/json' || !answer.isJson) return []
      return schemaProblems(exchange.errorSchema, answer.json, 'body')
    }
    const media = answer.mediaType ? documentedResponse(exchange)?.content?.[answer.mediaType] : undefined
    if (!media?.schema || !answer.isJson) return []
    return schemaProblems(media.schema, answer.json, 'body')
  },
})
