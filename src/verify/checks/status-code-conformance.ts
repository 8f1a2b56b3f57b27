// status_code_conformance: the status the document gives the request in the caller's state; where no
// state is known (the proxy, the replay), a status the document documents for the operation.
import { answerCheck } from './check.js'
import { documentedResponse, statusAllowed, wrongStatus } from './exchange.js'
import { refusedValid } from './positive-data-acceptance.js'

export const statusCodeConformance = answerCheck({
  name: 'status_code_conformance',
  description: 'the status the document gives this request in the caller’s state',
  // A page reached through a Link answers for the Link: link_conformance judges its status.
  appliesTo: (exchange) => (exchange.page?.number ?? 1) === 1,
  run(exchange) {
    const { answer, operation, request } = exchange
    const problems: string[] = []
    // A valid request refused is positive_data_acceptance's to say.
    if (!statusAllowed(exchange) && !refusedValid(exchange)) problems.push(wrongStatus(exchange))
    if (operation && !documentedResponse(exchange)) {
      const documented = Object.keys(operation.operation.responses).join(', ')
      problems.push(
        `status ${answer.status} is not documented for ${operation.operationId} (documented: ${documented})`,
      )
    }
    if (!operation && !exchange.expected && answer.status < 400)
      problems.push(
        `status ${answer.status} is not documented: the document has no ${request.method} ${request.path.split('?')[0]}`,
      )
    return problems
  },
})
