// A newPlant receiver for the benchmark, in a process of its own so that the load generator's work does
// not delay it: answers every event 200 at once and keeps, per plant id, when the event arrived.
import { createServer } from 'node:http'

/** Epoch milliseconds with a fraction: comparable with the benchmark process's clock on this machine. */
const now = () => performance.timeOrigin + performance.now()
const arrivals = new Map<string, number>()
let received = 0
/** Events by the path they came to: each sending server of the benchmark has its own. */
const byPath: Record<string, number> = {}

const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ received, byPath, arrivals: Object.fromEntries(arrivals) }))
    return
  }
  const at = now()
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    received++
    const path = request.url ?? '/'
    byPath[path] = (byPath[path] ?? 0) + 1
    // The id's digits as sent; only the probes' ids are kept, the load's are only counted.
    const id = /"id":(\d+)/.exec(Buffer.concat(chunks).toString('utf8'))?.[1]
    if (id !== undefined && id.length >= 10 && !arrivals.has(id)) arrivals.set(id, at)
    response.writeHead(200).end()
  })
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address && typeof address === 'object')
    console.log(`Server listening at http://127.0.0.1:${address.port}`)
})
