// Serves the in-process handlers (src/msw/) over HTTP on 127.0.0.1, through MSW's own getResponse, so
// the contract suite can hold them to the document like every other target.
// Usage: node --import tsx scripts/serve-handlers.ts stateful|examples [port]
import { createServer, STATUS_CODES } from 'node:http'
import { errorBody, parserRefusal } from '@plant-store/core'
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

const server = createServer(async (req, res) => {
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
})
// What Node's parser refuses never reaches the handlers; this host answers it in the document's Error
// shape, as the real server does (src/server/lib/refusals.ts), rather than with Node's empty answer.
server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket) => {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
  const firstLine = error.rawPacket?.subarray(0, 8192).toString('latin1').split('\n', 1)[0]
  const { statusCode: status, message } = parserRefusal(error.code, firstLine)
  const body = JSON.stringify(errorBody(status, message))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
})
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  console.log(`Plant store handlers (${mode}) listening at http://127.0.0.1:${port}`)
})
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => server.close(() => process.exit(0)))
