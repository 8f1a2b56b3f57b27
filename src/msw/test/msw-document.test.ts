// The handlers' default, the document without its prose and its request validators compiled ahead of
// time, answers every request as a document of one's own does, here the whole document, whose schemas
// Ajv compiles at run time (loaded with the first request): the same status, headers and body.
import { document, listOperations, loadDocument } from '@plant-store/core'
import { PlantStore } from '@plant-store/msw'
import { describe, expect, it } from 'vitest'

const BASE = 'http://plants.test'
const headers = { authorization: 'Bearer token-a', 'content-type': 'application/json' }

interface Sent {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/** What a client can tell of an answer: its status, headers (the request id aside) and body. */
async function answerOf(store: PlantStore, { method, path, headers: own = {}, body }: Sent) {
  const outcome = await store.answer(
    new Request(`${BASE}${path}`, { method, headers: { ...headers, ...own }, body }),
  )
  if ('networkError' in outcome) return 'network error'
  const { response } = outcome
  const kept = [...response.headers].filter(([name]) => name !== 'x-request-id')
  return { status: response.status, headers: kept, body: await response.text() }
}

const create = (body: string): Sent => ({ method: 'POST', path: '/plants', body })

/** Requests in order: each case of validation, and what the store keeps between them. */
const stateful: Sent[] = [
  { method: 'GET', path: '/plants' },
  { method: 'GET', path: '/plants?limit=1&tag=herb' },
  create('{"id":9223372036854775807,"name":"Basil","tag":"herb"}'),
  create('{"id":9223372036854775807,"name":"Basil"}'),
  create('{"id":9223372036854775808,"name":"Basil"}'),
  create('{"id":"7","name":"Basil"}'),
  create('{"id":7.5,"name":"Basil"}'),
  create('{"id":7}'),
  create(`{"id":7,"name":"${'🌿'.repeat(257)}"}`),
  create(`{"id":7,"name":"${'🌿'.repeat(256)}","tag":"${'t'.repeat(65)}"}`),
  create('{"id":7,"name":"\\ud800"}'),
  create('[]'),
  create('{"id":7,'),
  { method: 'GET', path: '/plants/9223372036854775807' },
  { method: 'GET', path: '/plants/9223372036854775808' },
  { method: 'GET', path: '/plants/abc' },
  { method: 'GET', path: '/plants?limit=0' },
  { method: 'GET', path: '/plants?limit=101' },
  { method: 'GET', path: '/plants?limit=2&tag=a&tag=b' },
  { method: 'GET', path: `/plants?tag=${'t'.repeat(65)}` },
  { method: 'GET', path: '/plants?cursor=nope' },
  { method: 'PUT', path: '/plants/9223372036854775807', body: '{"name":"Sweet basil"}' },
  { method: 'PUT', path: '/plants/1', body: '{"tag":"herb"}' },
  { method: 'DELETE', path: '/plants/9223372036854775807' },
  { method: 'DELETE', path: '/plants/9223372036854775807' },
  { method: 'PATCH', path: '/plants/1' },
  { method: 'GET', path: '/nowhere' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/plants', headers: { authorization: '' } },
]

/** In examples mode, every documented status and example of every operation, chosen with Prefer. */
function everyExample(): Sent[] {
  const sent: Sent[] = []
  for (const { method, path, operation } of listOperations(loadDocument(document).dereferenced)) {
    const concrete = path.replace('{id}', '1')
    const body =
      method === 'post' ? '{"id":1,"name":"Basil"}' : method === 'put' ? '{"name":"Basil"}' : undefined
    const send = (prefer?: string): Sent => ({
      method: method.toUpperCase(),
      path: concrete,
      body,
      headers: prefer ? { prefer } : {},
    })
    sent.push(send(), send('code=999'))
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const examples = (response as { content?: Record<string, { examples?: object }> }).content?.[
        'application/json'
      ]?.examples
      sent.push(send(`code=${status}`))
      for (const name of Object.keys(examples ?? {})) sent.push(send(`code=${status}, example=${name}`))
    }
  }
  return sent
}

describe('the handlers with the document of their own (the whole one, Ajv at run time)', () => {
  it('answer every request of a session in stateful mode as the default does', async () => {
    const lean = new PlantStore()
    const whole = new PlantStore({ document })
    for (const request of stateful) {
      const label = `${request.method} ${request.path} ${request.body?.slice(0, 40) ?? ''}`
      expect(await answerOf(whole, request), label).toEqual(await answerOf(lean, request))
    }
  })

  it('answer every documented example in examples mode as the default does', async () => {
    const lean = new PlantStore({ mode: 'examples' })
    const whole = new PlantStore({ mode: 'examples', document })
    const requests = everyExample()
    const statuses = new Set<number>()
    for (const request of requests) {
      const label = `${request.method} ${request.path} ${request.headers?.prefer ?? ''}`
      const answer = await answerOf(lean, request)
      expect(await answerOf(whole, request), label).toEqual(answer)
      if (typeof answer === 'object') statuses.add(answer.status)
    }
    // The walk reached successes and refusals alike, not one status over and over.
    expect(statuses.size).toBeGreaterThan(8)
  })
})
