// principal_isolation: one principal never sees, reaches or changes another's plants: a request for
// another's plant is answered as if there were none, no answer shows one, it reads back unchanged,
// and another's Link target or cursor gets no page.
import { canonical } from '../exact-json.js'
import { describeAnswer } from '../http.js'
import { answerCheck } from './check.js'
import { bodyOf, type IsolationView, statusExpected } from './exchange.js'

export const principalIsolation = answerCheck({
  name: 'principal_isolation',
  description:
    'one principal never sees or changes the other’s plants, nor gets a page with the other’s cursor',
  appliesTo: (exchange) => exchange.isolation !== undefined,
  run(exchange) {
    const { answer, isolation, request } = exchange
    if (!isolation) return []
    const problems: string[] = []
    const named = isolation.named === undefined ? undefined : ownerOf(isolation, isolation.named)
    if (named && statusExpected(exchange) === 404 && answer.status < 300)
      problems.push(
        `status ${answer.status}, the document says 404: plant ${isolation.named} is ${named}'s, not ${isolation.caller}'s`,
      )
    const { crossed } = isolation
    if (crossed?.refused !== undefined && answer.status < 300)
      problems.push(
        `status ${answer.status} to ${crossed.what}, sent by ${isolation.caller}: a cursor is good only for the principal whose page gave it, and the document answers another's ${crossed.refused}, as a cursor the server did not make (a page tells where the other principal's plants are)`,
      )
    const body = bodyOf(answer)
    for (const plant of Array.isArray(body) ? body : [body]) {
      const id = (plant as Record<string, unknown> | null)?.id
      const owner = typeof id === 'bigint' ? ownerOf(isolation, id) : undefined
      if (owner) {
        problems.push(
          `the answer shows plant ${id}, ${owner}'s, not ${isolation.caller}'s: isolation between principals is broken`,
        )
        break
      }
    }
    for (const id of isolation.listing ?? []) {
      const owner = ownerOf(isolation, id)
      if (owner)
        problems.push(
          `${isolation.caller}'s list shows plant ${id}, ${owner}'s: isolation between principals is broken`,
        )
    }
    const { untouched } = isolation
    if (
      untouched &&
      (untouched.after.status !== 200 || canonical(bodyOf(untouched.after)) !== untouched.before)
    )
      problems.push(
        `after ${isolation.caller}'s ${request.method}, ${ownerOf(isolation, untouched.id) ?? 'the other principal'}'s plant ${untouched.id} reads ${describeAnswer(untouched.after)}: the other principal changed it`,
      )
    return problems
  },
})

/** Whose plant this is, when it is another principal's and not the caller's own. */
function ownerOf(isolation: IsolationView, id: bigint): string | undefined {
  const key = id.toString()
  return isolation.own.has(key) ? undefined : isolation.others.get(key)
}
