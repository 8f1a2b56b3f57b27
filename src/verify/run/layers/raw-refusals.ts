// The kit profile's refusals before any operation, each sent as the bytes a client writes on a
// connection of its own (node:http would not write them): a request without Host, an Expect other than
// 100-continue, CONNECT, a method no one defines, a body whose length cannot be known, a body in a
// content or transfer coding. Each must be answered with the status the kit's text gives it, in the
// Error shape; where the text says the connection is closed, it must be.
import { connect } from 'node:net'
import type { Finding } from '../../checks/check.js'
import { type Answer, answerOf, describeAnswer, type RequestSpec } from '../../http.js'
import { type Context, caseArgs, caseName } from '../context.js'

/** How long a refusal may take to arrive, and a connection the text says is closed to close. */
const WAIT_MS = 5_000

interface RawCase {
  title: string
  /** The request's bytes, `{host}` and `{token}` filled in. */
  text: string
  status: number
  /** The kit's text says the connection is closed after the answer. */
  closes?: true
  /** A header the answer must carry, and a value it must hold. */
  header?: [string, RegExp]
}

const JSON_POST =
  'POST /plants HTTP/1.1\r\nHost: {host}\r\nAuthorization: {token}\r\nContent-Type: application/json\r\n'

const CASES: RawCase[] = [
  {
    title: 'an HTTP/1.1 request without Host',
    text: 'GET /plants HTTP/1.1\r\nAuthorization: {token}\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    title: 'an Expect other than 100-continue',
    text: 'GET /plants HTTP/1.1\r\nHost: {host}\r\nAuthorization: {token}\r\nExpect: 101-nothing\r\nConnection: close\r\n\r\n',
    status: 417,
  },
  {
    title: 'CONNECT',
    text: 'CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n',
    status: 501,
  },
  // A request line may end in a bare LF (RFC 9112, section 2.2): the method is still one it does not know.
  {
    title: 'a method no one defines, its lines ended by LF alone',
    text: 'FOO /plants HTTP/1.1\nHost: {host}\nConnection: close\n\n',
    status: 501,
  },
  // `@` is no character of a method's token: not a request the server cannot do, one it cannot parse.
  {
    title: 'a method that is not a token',
    text: '@FOO /plants HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    title: 'a line that is not a request',
    text: 'HELLO THERE\r\n\r\n',
    status: 400,
  },
  {
    title: 'a Transfer-Encoding that does not end in chunked',
    text: `${JSON_POST}Transfer-Encoding: gzip\r\n\r\n{}`,
    status: 400,
    closes: true,
  },
  {
    title: 'Transfer-Encoding with Content-Length',
    text: `${JSON_POST}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 400,
    closes: true,
  },
  {
    title: 'two Content-Length values',
    text: `${JSON_POST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    status: 400,
    closes: true,
  },
  {
    title: 'a Content-Length that is not a number',
    text: `${JSON_POST}Content-Length: two\r\n\r\n{}`,
    status: 400,
    closes: true,
  },
  {
    title: 'a transfer coding other than chunked before chunked',
    text: `${JSON_POST}Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 501,
  },
  {
    title: 'a body in a content coding',
    text: `${JSON_POST}Content-Encoding: GZIP\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    status: 415,
    header: ['accept-encoding', /\bidentity\b/i],
  },
  // Codings are named case-insensitively (RFC 9110, section 8.4.1; RFC 9112, section 7): `Identity`
  // and `Chunked` are read as they are, and a body they carry without a name is refused as such.
  {
    title: 'Content-Encoding Identity on a body without a name',
    text: `${JSON_POST}Content-Encoding: Identity\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    status: 400,
  },
  {
    title: 'Transfer-Encoding Chunked on a body without a name',
    text: `${JSON_POST}Transfer-Encoding: Chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 400,
  },
]

/** Writes `text` on a connection of its own and reads until the server closes it, or WAIT_MS pass. */
function exchangeRaw(url: URL, text: string): Promise<{ answer: Answer | undefined; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let closed = false
    const socket = connect({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || 80) })
    socket.on('connect', () => socket.write(text, 'latin1'))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // A reset after the answer is a close too.
    socket.on('error', () => undefined)
    const timer = setTimeout(() => socket.destroy(), WAIT_MS)
    socket.on('end', () => {
      closed = true
    })
    socket.on('close', () => {
      clearTimeout(timer)
      const raw = Buffer.concat(chunks).toString('utf8')
      const at = raw.indexOf('\r\n\r\n')
      const head = at < 0 ? raw : raw.slice(0, at)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
      if (!status) return resolve({ answer: undefined, closed })
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = Number(headers['content-length'])
      const rest = at < 0 ? '' : raw.slice(at + 4)
      const body = Number.isInteger(length) ? Buffer.from(rest).subarray(0, length).toString('utf8') : rest
      resolve({ answer: answerOf(status, headers, body), closed })
    })
  })
}

/** Each raw case once, under the kit profile only: the interface leaves these refusals to the server. */
export async function rawRefusals(ctx: Context): Promise<void> {
  const { subject, results, loaded } = ctx
  if (ctx.judging.kitProfile !== true) return
  const url = new URL(subject.baseUrl)
  if (url.protocol !== 'http:') return
  const errorSchema = loaded.document.components?.schemas?.Error
  const token = subject.authorization(0)
  // Recorded under the listing, whose path each case names (CONNECT and the line that is no request
  // aside).
  const operationId = ctx.list?.operationId ?? 'listPlants'
  for (const c of CASES) {
    const name = caseName(operationId, `refused before any operation: ${c.title}`)
    if (!ctx.wants(name)) continue
    const text = c.text.replaceAll('{host}', url.host).replaceAll('{token}', token)
    const { answer, closed } = await exchangeRaw(url, text)
    const request: RequestSpec = {
      method: text.split(' ', 1)[0] ?? '',
      path: '/plants',
      auth: { kind: 'principal' },
    }
    const shown = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)
    if (!answer) {
      results.record({
        layer: 'security',
        operationId,
        checks: ['status_code_conformance'],
        findings: [{ check: 'status_code_conformance', message: `no HTTP answer within ${WAIT_MS} ms` }],
        kinds: ['refusal before any operation'],
        title: c.title,
        request: shown,
        answer: 'none',
        document: `${c.status}, an Error (the kit profile's refusals before any operation)`,
        replay: ctx.replay(caseArgs('security', name)),
      })
      continue
    }
    const { checked, findings } = ctx.judge({
      kind: 'http',
      operation: undefined,
      request,
      answer,
      expected: {
        statuses: [c.status],
        says: `${c.status} (the kit profile: refusals before any operation)`,
        why: `(${c.title})`,
      },
      errorSchema,
      judging: ctx.judging,
    })
    const own: Finding[] = []
    if (c.closes && !closed)
      own.push({
        check: 'status_code_conformance',
        message: `the connection was not closed within ${WAIT_MS} ms (the kit profile: nothing that follows such a request is read)`,
      })
    if (c.header && !c.header[1].test(answer.headers[c.header[0]] ?? ''))
      own.push({
        check: 'response_headers_conformance',
        message: `${c.header[0]} is ${JSON.stringify(answer.headers[c.header[0]] ?? null)}, not one that matches ${c.header[1]}`,
      })
    results.record({
      layer: 'security',
      operationId,
      checks: [...new Set([...checked, ...own.map((f) => f.check)])],
      findings: [...findings, ...own],
      kinds: ['refusal before any operation'],
      title: c.title,
      request: shown,
      answer: describeAnswer(answer),
      document: `${c.status}, an Error (the kit profile's refusals before any operation)`,
      replay: ctx.replay(caseArgs('security', name)),
    })
  }
}
