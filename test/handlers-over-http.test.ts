// The in-process handlers served over HTTP (scripts/serve-handlers.ts), as the contract suite reaches
// them: what Node's parser cannot read is answered once, as the server answers it.
import { afterAll, beforeAll } from 'vitest'
import { handlers } from '../scripts/lib/commands.js'
import { type Started, startProcess } from '../scripts/lib/processes.js'
import { describeOneAnswer } from './helpers/one-answer.js'

let served: Started

beforeAll(async () => {
  served = await startProcess({ ...handlers('stateful'), timeoutMs: 60_000 })
}, 90_000)

afterAll(async () => {
  await served?.stop()
})

describeOneAnswer(
  'the handlers over HTTP',
  () => ({
    port: Number(new URL(served.url).port),
    host: new URL(served.url).hostname,
    token: 'principal-1',
  }),
  false,
)
