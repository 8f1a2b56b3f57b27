// A thin front for the Prism mock: Prism answers every page with the documented Link example, so a
// client that follows Link would never stop. Through this front, a page asked for with a cursor (the
// page a Link leads to) carries no Link: following Link from the first page reaches a last page.
import { createServer, request, type Server } from 'node:http'
import type { Listen } from './commands.js'

export function startLastPageFront(upstream: string, { host, port }: Listen): Promise<Server> {
  const target = new URL(upstream)
  const server = createServer((req, res) => {
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers }
        if (new URL(req.url ?? '/', 'http://mock').searchParams.has('cursor')) delete headers.link
        res.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(res)
      },
    )
    forward.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 502, message: 'the mock is not answering' }))
    })
    req.pipe(forward)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}
