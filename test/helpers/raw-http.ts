// HTTP/1.1 over a raw socket, for requests fetch cannot send (no Host, a bad request line, headers past
// the limit, a body whose length cannot be known): the bytes go out as written, and one answer is read
// back, or every answer the server writes until it closes the connection.
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** The status line and headers before the blank line at `end`. */
function head(text: string, end: number): Omit<RawAnswer, 'body'> {
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine.split(' ')[1]), headers }
}

function parse(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const { status, headers } = head(text, end)
  const body = text.slice(end + 4)
  if (Buffer.byteLength(body) < Number(headers['content-length'] ?? 0)) return undefined
  return { status, headers, body }
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

/** The answers at the start of `bytes` (Latin-1, one character a byte), and what follows the last whole one. */
function answersIn(bytes: string): { answers: RawAnswer[]; rest: string } {
  const answers: RawAnswer[] = []
  let rest = bytes
  for (;;) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) return { answers, rest }
    const { status, headers } = head(rest, end)
    let at = end + 4
    let body = ''
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      for (;;) {
        const line = rest.indexOf('\r\n', at)
        if (line < 0) return { answers, rest }
        const size = Number.parseInt(rest.slice(at, line), 16)
        if (rest.length < line + 2 + size + 2) return { answers, rest }
        body += rest.slice(line + 2, line + 2 + size)
        at = line + 2 + size + 2
        if (size === 0) break
      }
    } else {
      const length = Number(headers['content-length'] ?? 0)
      if (rest.length < at + length) return { answers, rest }
      body = rest.slice(at, at + length)
      at += length
    }
    answers.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') })
    rest = rest.slice(at)
  }
}

/**
 * Sends bytes as they are, and `next` once a first answer has come, and reads every answer until the
 * server closes the connection (bounded: 10 s); bytes that are no whole answer fail it.
 */
export function answersTo(
  port: number,
  request: string,
  next?: string,
  host = '127.0.0.1',
): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    let bytes = ''
    let sentNext = next === undefined
    const socket = connect(port, host, () => socket.write(request))
    socket.on('data', (chunk) => {
      bytes += chunk.toString('latin1')
      if (!sentNext && answersIn(bytes).answers.length > 0) {
        sentNext = true
        socket.write(next as string)
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      const { answers, rest } = answersIn(bytes)
      if (rest === '') resolve(answers)
      else reject(new Error(`bytes that are no whole answer after ${answers.length}: ${rest}`))
    })
    socket.setTimeout(10_000, () => {
      socket.destroy()
      reject(new Error(`the connection stayed open 10 s; received: ${bytes}`))
    })
  })
}
