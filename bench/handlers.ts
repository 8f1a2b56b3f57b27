// The in-process handlers' own speed, in a fresh Node process running the built module (src/msw/dist/):
// the import, the time from import to the first answer, and the median answer through MSW's getResponse
// (what a test's fetch costs on top is MSW's interception, not the plant store's).
import { join } from 'node:path'
import { runToExit } from '../scripts/lib/processes.js'

export interface HandlersResult {
  /** Milliseconds to import the module and msw (msw alone is most of it). */
  importMs: number
  /** Milliseconds from the end of the import to the first answer: creating the handlers, answering. */
  readyMs: number
  /** Median milliseconds per answer, per operation. */
  medianMs: Record<string, number>
  requests: number
}

const probe = (module: string, requests: number) => `
const importing = performance.now()
const { createPlantStoreHandlers } = await import(${JSON.stringify(module)})
const { getResponse } = await import('msw')
const started = performance.now()
const importMs = started - importing
const { handlers } = createPlantStoreHandlers({ baseUrl: 'http://bench.test' })
const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' }
const first = await getResponse(handlers, new Request('http://bench.test/plants', { headers }))
if (first?.status !== 200) throw new Error('first answer: ' + first?.status)
const readyMs = performance.now() - started
const times = { createPlant: [], getPlant: [], listPlants: [] }
const time = async (name, request, status) => {
  const t = performance.now()
  const answer = await getResponse(handlers, request)
  await answer.arrayBuffer()
  times[name].push(performance.now() - t)
  if (answer.status !== status) throw new Error(name + ' answered ' + answer.status)
}
for (let i = 0; i < ${requests}; i++) {
  const id = 1000 + i
  await time('createPlant', new Request('http://bench.test/plants', { method: 'POST', headers, body: JSON.stringify({ id, name: 'p' + id }) }), 200)
  await time('getPlant', new Request('http://bench.test/plants/' + id, { headers }), 200)
  if (i % 10 === 0) await time('listPlants', new Request('http://bench.test/plants?limit=50', { headers }), 200)
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(JSON.stringify({ importMs, readyMs, medianMs: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])), requests: ${requests} }))
`

export async function measureHandlers(root: string, requests: number): Promise<HandlersResult> {
  const module = join(root, 'src', 'msw', 'dist', 'index.js')
  const run = await runToExit({
    name: 'in-process handlers',
    command: process.execPath,
    args: ['--input-type=module', '-e', probe(module, requests)],
    env: {},
    timeoutMs: 120_000,
  })
  if (run.exit !== 0) throw new Error(`the handlers' bench failed: ${run.output}`)
  const line = run.output.trim().split('\n').at(-1) ?? ''
  return JSON.parse(line) as HandlersResult
}
