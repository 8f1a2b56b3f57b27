// One HTTP/1.1 exchange over a raw socket, for requests fetch cannot send (no Host, a bad request line,
// headers past the limit): the bytes go out as written, and one answer is read back.
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

function parse(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const body = text.slice(end + 4)
  if (Buffer.byteLength(body) < Number(headers['content-length'] ?? 0)) return undefined
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

/**
 * Sends bytes as they are and reads one answer: until its body is whole, or the server closes the
 * connection (bounded: 10 s).
 */
export function exchange(port: number, request: string, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = ''
    const socket = connect(port, host, () => socket.write(request))
    socket.on('data', (chunk) => {
      text += chunk
      const answer = parse(text)
      if (answer) {
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      const answer = parse(text)
      if (answer) resolve(answer)
      else reject(new Error(`the connection closed before a whole answer; received: ${text}`))
    })
    socket.setTimeout(10_000, () => {
      socket.destroy()
      reject(new Error(`no whole answer in 10 s; received: ${text}`))
    })
  })
}
