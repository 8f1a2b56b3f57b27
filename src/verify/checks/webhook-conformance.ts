// webhook_conformance: with a webhook receiver, one signed newPlant event per create answered 200 and
// none for another answer. An event is judged against every other delivery and create of the run
// (webhook-judge.ts): what that judge found travels with the event.
import type { Check } from './check.js'

export const webhookConformance: Check = {
  name: 'webhook_conformance',
  description:
    'one signed newPlant event per create answered 200 and none for another answer, its body the document’s, its id digit for digit',
  appliesTo: (exchange) => exchange.kind === 'event',
  run: (exchange) => (exchange.kind === 'event' ? exchange.problems : []),
}
