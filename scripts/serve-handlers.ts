// Serves the in-process handlers (src/msw/) over HTTP on 127.0.0.1, through MSW's own getResponse, so
// the contract suite can hold them to the document like every other target.
// Usage: node --import tsx scripts/serve-handlers.ts stateful|examples [port]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { connectRefused, errorBody, transferLengthRefusal, unrouted } from '@plant-store/core'
import { answerParserError, refuseRaw, track } from '@plant-store/core/node'
import { createPlantStoreHandlers, type Mode } from '@plant-store/msw'
import { getResponse } from 'msw'

const mode = (process.argv[2] ?? 'stateful') as Mode
if (mode !== 'stateful' && mode !== 'examples') {
  console.error(`mode must be stateful or examples, not ${mode}`)
  process.exit(2)
}
const { handlers, store } = createPlantStoreHandlers({ mode })
// Past this the real server has long answered 413; reading on would only hold memory.
const readLimit = 1 << 20

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size <= readLimit) chunks.push(chunk as Buffer)
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  // Fetch cannot carry TRACE or TRACK (forbidden methods), so no handler ever meets one: this host
  // answers it as the store answers any method a path does not take.
  if (req.method === 'TRACE' || req.method === 'TRACK') {
    const refusal = unrouted(store.reader.operations)(
      req.method,
      new URL(req.url ?? '/', 'http://host').pathname,
    )
    res.writeHead(refusal.statusCode, {
      ...refusal.headers,
      'content-type': 'application/json; charset=utf-8',
    })
    res.end(JSON.stringify(errorBody(refusal.statusCode, refusal.message)))
    return
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && size > 0
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  })
  // Undocumented paths reach no handler: the store answers them (404) as the server does.
  let response = await getResponse(handlers, request)
  if (!response) {
    const outcome = await store.answer(request)
    response = 'response' in outcome ? outcome.response : Response.error()
  }
  if (response.type === 'error') {
    res.destroy()
    return
  }
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.end(Buffer.from(await response.arrayBuffer()))
}

const server = createServer((req, res) => {
  track(req, res)
  // What Node's parser cannot read never reaches the handlers; this host answers it in the document's
  // Error shape, as the real server does (src/server/lib/refusals.ts), rather than with Node's empty answer.
  const unframed = transferLengthRefusal(req.headers['transfer-encoding'])
  if (unframed) return refuseRaw(req.socket, unframed)
  answer(req, res).catch((error: unknown) => {
    // A request broken off (its connection reset, its body unreadable) is answered, if at all, by
    // clientError; anything else is this host's failure.
    if (req.complete && !res.headersSent) {
      console.error('the handlers failed on a request:', error)
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' })
      res.end(JSON.stringify(errorBody(500, 'internal server error')))
    } else res.destroy()
  })
})
server.on('clientError', (error: Error & { code?: string }, socket) => answerParserError(error, socket))
server.on('connect', (_req, socket) => refuseRaw(socket, connectRefused()))
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  console.log(`Plant store handlers (${mode}) listening at http://127.0.0.1:${port}`)
})
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => server.close(() => process.exit(0)))
