// With the kit's profile: the requests its server refuses before any operation runs (the profile's
// "Refusals before any operation"), and a body sent to an operation that takes none, which it ignores.
// Each is written byte for byte on a connection of its own: a client library would add a Host, frame a
// body its own way, end lines its own way, or refuse to send CONNECT at all.
import { connect } from 'node:net'
import { PATH_SEGMENT_LIMIT } from '@plant-store/core'
import type { Finding } from '../../checks/check.js'
import { kitProfileConformance } from '../../checks/kit-profile-conformance.js'
import { statusCodeConformance } from '../../checks/status-code-conformance.js'
import type { OperationEntry } from '../../document.js'
import { type Answer, answerOf, describeAnswer } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { type Context, caseArgs, caseName } from '../context.js'
import { concrete } from './settled.js'

/** How long a case waits for its answer and the connection's end. */
const WAIT_MS = 5_000

interface BeforeCase {
  title: string
  operation: OperationEntry
  /** The request line, then the headers after Host and Authorization, and the body. */
  line: string
  headers: string[]
  body?: string
  /** Without a Host header. */
  noHost?: true
  /** Lines ended by a bare LF, which a request line may be (RFC 9112, section 2.2). */
  bareLf?: true
  /** Sent without `Connection: close`: the store must close the connection after its answer. */
  closes?: true
  /** Followed by more on the connection (without `Connection: close`), whose answer comes after. */
  pipelined?: true
  /** A body sent to an operation that takes none: answered as if it had none. */
  ignoresBody?: true
  /** A refusal of a content coding: its Accept-Encoding names identity. */
  identity?: true
  /** The status of the second answer on the connection, to what follows the request. */
  next?: number
  /** Its body holds a request of its own, which must not be answered: one answer in all. */
  single?: true
  status: number
  /** The name of its example in the document's `components/examples`: its Error, word for word. */
  example?: string
  /** What the document says of it, for the report. */
  says: string
  /** The request as written, byte for byte: no Host, Authorization or Connection is added. */
  raw?: string
  /** Written once the first bytes of the answer have come: the rest of a request answered early. */
  afterAnswer?: string
  /** Between two listings: a refusal without RateLimit must not spend the quota they show. */
  uncounted?: true
}

/**
 * The cases, for the document's create, list, read and delete operations; `nowhere` is a plant's path
 * that names no plant of the caller's.
 */
function casesOf(
  create: OperationEntry,
  list: OperationEntry,
  read: OperationEntry,
  remove: OperationEntry,
  nowhere: string,
): BeforeCase[] {
  const readPath = read.path.replace(/\{[^}]+\}/, '')
  const json = 'Content-Type: application/json'
  return [
    {
      title: 'an Expect other than 100-continue',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: ['Expect: tea'],
      status: 417,
      says: '417 (the kit profile: an Expect other than 100-continue)',
    },
    // A request, then on the same connection bytes that are not HTTP: the request's own answer comes
    // first (RFC 9112, section 9.3.2: answers in the order of the requests), whatever the rest gets.
    {
      title: 'a request followed by bytes that are not HTTP',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: [],
      body: 'NOT HTTP AT ALL\r\n\r\n',
      pipelined: true,
      status: 200,
      says: '200 first, the request’s own answer, before any refusal of what follows it',
    },
    // The refusal of what follows judges the line it could not parse, not the request before it.
    {
      title: 'a request followed by a method that is not a token',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: [],
      body: `@FOO ${list.path} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      pipelined: true,
      next: 400,
      status: 200,
      says: '200 first, then 400 for the line that cannot be parsed (the kit profile: a request it cannot parse)',
    },
    {
      title: 'an Expect other than 100-continue followed by bytes that are not HTTP',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: ['Expect: tea'],
      body: 'NOT HTTP AT ALL\r\n\r\n',
      pipelined: true,
      status: 417,
      says: '417 first, the request’s own answer, before any refusal of what follows it',
    },
    {
      title: 'a HTTP/1.1 request without Host',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: [],
      noHost: true,
      status: 400,
      says: '400 (the kit profile: a HTTP/1.1 request without Host)',
    },
    {
      title: 'a HTTP/1.0 request without Host',
      operation: list,
      line: `GET ${list.path} HTTP/1.0`,
      headers: [],
      noHost: true,
      status: 200,
      says: '200 (the kit profile refuses only a HTTP/1.1 request without Host: HTTP/1.0 has none)',
    },
    {
      title: 'CONNECT',
      operation: list,
      line: 'CONNECT example.com:443 HTTP/1.1',
      headers: [],
      status: 501,
      says: '501 (the kit profile: CONNECT, this server is no proxy)',
    },
    // Refusals of Node's HTTP parser (node-refusals.ts), each judged by its example's Error.
    // An unknown method on a line that goes on past its version: not a method the server cannot do,
    // a request it cannot parse.
    {
      title: 'a method no one defines, its version followed by more',
      operation: list,
      line: `FOO ${list.path} HTTP/1.1x`,
      headers: [],
      status: 400,
      example: 'notHttp',
      says: '400 (the kit profile: a request it cannot parse)',
    },
    {
      title: 'Transfer-Encoding chunked named twice',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
      body: '2\r\n{}\r\n0\r\n\r\n',
      closes: true,
      status: 400,
      example: 'transferEncodingUnframed',
      says: '400, and the connection closed (the kit profile: a body whose length cannot be known)',
    },
    // Node's parser limits chunk extensions to 16 KiB, whatever its header limit.
    {
      title: 'chunk extensions over 16384 bytes',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: chunked'],
      body: `2;x=${'a'.repeat(17_000)}\r\n{}\r\n0\r\n\r\n`,
      closes: true,
      status: 413,
      example: 'chunkExtensionsTooLarge',
      says: '413, and the connection closed (the kit profile: chunk extensions over 16384 bytes)',
    },
    {
      title: 'a method no one defines, its lines ended by LF alone',
      operation: list,
      line: `FOO ${list.path} HTTP/1.1`,
      headers: [],
      bareLf: true,
      status: 501,
      example: 'methodNotImplemented',
      says: '501 (the kit profile: a method the server does not know)',
    },
    // `@` is no character of a method's token: not a request the server cannot do, one it cannot parse.
    {
      title: 'a method that is not a token',
      operation: list,
      line: `@FOO ${list.path} HTTP/1.1`,
      headers: [],
      status: 400,
      example: 'notHttp',
      says: '400 (the kit profile: a request it cannot parse)',
    },
    // A space is no character of a header name's token (RFC 9110, section 5.1).
    {
      title: 'a header name that is not a token',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: ['Plant Name: Basil'],
      status: 400,
      example: 'notHttp',
      says: '400 (the kit profile: a request it cannot parse)',
    },
    {
      title: 'a line that is not a request',
      operation: list,
      line: 'HELLO THERE',
      headers: [],
      noHost: true,
      status: 400,
      example: 'notHttp',
      says: '400 (the kit profile: a request it cannot parse)',
    },
    {
      title: 'a path that is not valid percent-encoding',
      operation: read,
      line: `GET ${readPath}%E0%A4%A HTTP/1.1`,
      headers: [],
      status: 400,
      says: '400 (the kit profile: a path that is not valid percent-encoding)',
    },
    {
      title: 'a path segment over 100 characters',
      operation: read,
      line: `GET ${readPath}${'9'.repeat(PATH_SEGMENT_LIMIT + 1)} HTTP/1.1`,
      headers: [],
      closes: true,
      status: 414,
      says: '414, and the connection closed (the kit profile: a path segment at most 100 characters)',
    },
    {
      title: 'a body in a content coding',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Encoding: GZIP', 'Content-Length: 4'],
      body: 'abcd',
      identity: true,
      status: 415,
      says: '415 naming identity in Accept-Encoding (the kit profile: a body in a content coding)',
    },
    {
      title: 'a content type that is not a media type',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: ['Content-Type: json', 'Content-Length: 2'],
      body: '{}',
      status: 415,
      says: '415 (a body that is not application/json)',
    },
    {
      title: 'a transfer coding other than chunked before chunked',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: gzip, chunked'],
      body: '2\r\n{}\r\n0\r\n\r\n',
      status: 501,
      says: '501 (the kit profile: a transfer coding other than chunked before the final chunked)',
    },
    {
      title: 'a body whose length cannot be known, and a request after it',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: gzip'],
      body: `GET ${list.path} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      closes: true,
      single: true,
      status: 400,
      example: 'transferEncodingUnframed',
      says: '400, the connection closed and what follows not read as a request (the kit profile: a Transfer-Encoding that does not end in chunked)',
    },
    {
      title: 'Transfer-Encoding with Content-Length',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Length: 2', 'Transfer-Encoding: chunked'],
      body: '2\r\n{}\r\n0\r\n\r\n',
      closes: true,
      status: 400,
      example: 'transferEncodingUnframed',
      says: '400, and the connection closed (the kit profile: a body whose length cannot be known)',
    },
    {
      title: 'two Content-Length values',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Length: 2', 'Content-Length: 3'],
      body: '{}',
      closes: true,
      status: 400,
      example: 'contentLengthTwice',
      says: '400, and the connection closed (the kit profile: a body whose length cannot be known)',
    },
    {
      title: 'a Content-Length that is not a number',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Length: two'],
      body: '{}',
      closes: true,
      status: 400,
      example: 'contentLengthNotNumber',
      says: '400, and the connection closed (the kit profile: a body whose length cannot be known)',
    },
    // Codings are named case-insensitively (RFC 9110, section 8.4.1; RFC 9112, section 7): `Identity`
    // and `Chunked` are read as they are, and a body they carry without a name is refused as such.
    {
      title: 'Content-Encoding Identity on a body without a name',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Encoding: Identity', 'Content-Length: 2'],
      body: '{}',
      status: 400,
      says: '400, a body without a name (identity is no coding, in any letter case)',
    },
    {
      title: 'Transfer-Encoding Chunked on a body without a name',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: Chunked'],
      body: '2\r\n{}\r\n0\r\n\r\n',
      status: 400,
      says: '400, a body without a name (chunked is read in any letter case)',
    },
    // "Operations without a request body ignore any body sent with them": neither a body's content
    // type nor its text is read.
    {
      title: 'a text/plain body to an operation that takes none',
      operation: remove,
      line: `DELETE ${nowhere} HTTP/1.1`,
      headers: ['Content-Type: text/plain', 'Content-Length: 5'],
      body: 'Basil',
      ignoresBody: true,
      status: 404,
      says: '404, as without the body: the caller has no such plant (an operation without a request body ignores any body sent with it)',
    },
    {
      title: 'a body whose Content-Type is no media type to an operation that takes none',
      operation: remove,
      line: `DELETE ${nowhere} HTTP/1.1`,
      headers: ['Content-Type: plain', 'Content-Length: 5'],
      body: 'Basil',
      ignoresBody: true,
      status: 404,
      says: '404, as without the body: the caller has no such plant (an operation without a request body ignores any body sent with it, its content type too)',
    },
    {
      title: 'a body in a content coding to an operation that takes none',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: [json, 'Content-Encoding: gzip', 'Content-Length: 4'],
      body: 'abcd',
      ignoresBody: true,
      status: 200,
      says: '200 (an operation without a request body ignores any body sent with it)',
    },
    {
      title: 'a body that is not JSON to an operation that takes none',
      operation: remove,
      line: `DELETE ${nowhere} HTTP/1.1`,
      headers: [json, 'Content-Length: 1'],
      body: '{',
      ignoresBody: true,
      status: 404,
      says: '404, as without the body: the caller has no such plant (an operation without a request body ignores any body sent with it)',
    },
  ]
}

// The connection's edges (the kit profile): a refusal that closes the connection says so, the line a
// refusal judges is the one the parser failed on, and a request whose body breaks off unparsable is
// answered once, by its own answer if that has begun.
function connectionCases(create: OperationEntry, list: OperationEntry, host: string): BeforeCase[] {
  const json = 'Content-Type: application/json'
  return [
    {
      title: 'a HTTP/1.1 request without Host, on a connection left open',
      operation: list,
      line: `GET ${list.path} HTTP/1.1`,
      headers: [],
      noHost: true,
      closes: true,
      status: 400,
      says: '400, with Connection: close, and the connection closed (the kit profile: a HTTP/1.1 request without Host)',
    },
    // Node's parser fails at the method's second letter: the whole line is there, with no line end.
    {
      title: 'a method no one defines, its request line without a line end',
      operation: list,
      line: `FOO ${list.path} HTTP/1.1`,
      headers: [],
      raw: `FOO ${list.path} HTTP/1.1`,
      closes: true,
      status: 501,
      says: '501, and the connection closed (the kit profile: a method the server does not know)',
    },
    // `GE` is no request line: the one after it, whose method is unknown, is not what is judged.
    {
      title: 'a line that is not a request, before a request line',
      operation: list,
      line: 'GE',
      headers: [],
      raw: `GE\r\nFOO ${list.path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      closes: true,
      status: 400,
      says: '400, and the connection closed (the kit profile: a request it cannot parse)',
    },
    {
      title: 'a chunk size that is not a number, before any answer',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: chunked'],
      body: '2\r\n{}\r\nZZ\r\n\r\n',
      closes: true,
      single: true,
      status: 400,
      says: '400, and the connection closed (the kit profile: a request it cannot parse, its answer not begun)',
    },
    // An answer counted against a limit carries RateLimit (the kit profile): one without was not.
    {
      title: 'a body whose length cannot be known, between two listings',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Transfer-Encoding: gzip'],
      closes: true,
      uncounted: true,
      status: 400,
      says: '400, the connection closed, and not counted against the quota: its answer carries no RateLimit (the kit profile)',
    },
    // Refused by its headers, then a chunk size that is not a number: its answer is its one.
    {
      title: 'a chunk size that is not a number, after the answer',
      operation: create,
      line: `POST ${create.path} HTTP/1.1`,
      headers: [json, 'Content-Encoding: gzip', 'Transfer-Encoding: chunked'],
      body: '2\r\nab\r\n',
      afterAnswer: 'ZZ\r\n\r\n',
      closes: true,
      single: true,
      status: 415,
      says: '415 alone, then the connection closed (the kit profile: a request whose answer has begun gets no other)',
    },
  ]
}

/**
 * Writes `text` on a new connection to the target and reads the answer until the connection ends, or
 * for WAIT_MS: `closed` says whether the target closed it by then.
 */
function exchangeRaw(
  baseUrl: string,
  text: string,
  afterAnswer?: string,
): Promise<{ answer: Answer; closed: boolean; statuses: number[] }> {
  const url = new URL(baseUrl)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let closed = true
    const socket = connect({ host, port: Number(url.port || 80) }, () => socket.write(text))
    socket.setTimeout(WAIT_MS, () => {
      closed = false
      socket.destroy()
    })
    socket.on('data', (chunk: Buffer) => {
      if (afterAnswer !== undefined && chunks.length === 0) socket.write(afterAnswer)
      chunks.push(chunk)
    })
    // A reset after the answer ends the connection too: what came before it is read.
    socket.on('error', () => undefined)
    socket.on('close', () => {
      const bytes = Buffer.concat(chunks)
      const raw = bytes.toString('latin1')
      const split = raw.indexOf('\r\n\r\n')
      const [statusLine = '', ...headerLines] = (split < 0 ? raw : raw.slice(0, split)).split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
      if (!status)
        return reject(
          new Error(
            closed
              ? `not an HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`
              : `no answer within ${WAIT_MS} ms`,
          ),
        )
      const headers: Record<string, string> = {}
      for (const header of headerLines) {
        const colon = header.indexOf(':')
        if (colon > 0) headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim()
      }
      // The first answer's content alone: by its length, its chunks, or to the connection's end.
      const rest = split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4)
      const length = headers['content-length']
      const content =
        length !== undefined
          ? rest.subarray(0, Number(length))
          : headers['transfer-encoding'] === 'chunked'
            ? unchunked(rest)
            : rest
      // Each answer's status line: the next one follows the content before it, with no line break.
      const statuses = [...raw.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]))
      resolve({ answer: answerOf(status, headers, content.toString('utf8')), closed, statuses })
    })
  })
}

/** What the caller's quota has left (RateLimit's `r`) after a listing, if the answer says. */
async function quotaLeft(baseUrl: string, listing: string[]): Promise<number | undefined> {
  const text = [...listing, 'Connection: close', '', ''].join('\r\n')
  const { answer } = await exchangeRaw(baseUrl, text).catch(() => ({ answer: answerOf(0, {}, '') }))
  const left = /;\s*r=(\d+)/.exec(answer.headers.ratelimit ?? '')?.[1]
  return left === undefined ? undefined : Number(left)
}

/** A chunked content's bytes. */
function unchunked(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const end = bytes.indexOf('\r\n', at)
    const size = Number.parseInt(bytes.subarray(at, end).toString('latin1'), 16)
    if (end < 0 || !size) return Buffer.concat(parts)
    parts.push(bytes.subarray(end + 2, end + 2 + size))
    at = end + 2 + size + 2
  }
}

/** The cases, each judged: its status, the Error shape of a refusal, and what the kit's server adds. */
export async function beforeOperations(ctx: Context): Promise<void> {
  const { subject, loaded, judging } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const read = loaded.operations.find((e) => roleOf(e) === 'item' && e.method === 'get')
  const list = ctx.list
  // Fastify reads no body of a GET at all: a delete's is read, and must be left aside.
  const remove = loaded.operations.find((e) => roleOf(e) === 'item' && e.method === 'delete')
  if (!judging.kitProfile || !create || !read || !remove || !list) return
  const nowhere = concrete(ctx, remove.path)
  const host = new URL(subject.baseUrl).host
  const authorization = subject.authorization(0)
  const examples = loaded.document.components?.examples
  for (const c of [...casesOf(create, list, read, remove, nowhere), ...connectionCases(create, list, host)]) {
    const name = caseName(c.operation.operationId, c.title)
    if (!ctx.wants(name)) continue
    const head = [
      c.line,
      ...(c.noHost ? [] : [`Host: ${host}`]),
      ...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
      ...c.headers,
      ...(c.closes || c.pipelined ? [] : ['Connection: close']),
    ]
    const eol = c.bareLf ? '\n' : '\r\n'
    const text = c.raw ?? `${head.join(eol)}${eol}${eol}${c.body ?? ''}`
    const request = {
      method: c.line.split(' ')[0] ?? 'GET',
      path: c.line.split(' ')[1] ?? '/',
      auth: { kind: 'principal' as const },
    }
    const listing = [
      `GET ${list.path} HTTP/1.1`,
      `Host: ${host}`,
      ...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
    ]
    const leftBefore = c.uncounted && (await quotaLeft(subject.baseUrl, listing))
    let answer: Answer
    let closed = true
    let statuses = [0]
    try {
      ;({ answer, closed, statuses } = await exchangeRaw(subject.baseUrl, text, c.afterAnswer))
    } catch (error) {
      answer = answerOf(0, {}, (error as Error).message)
    }
    const leftAfter = c.uncounted && (await quotaLeft(subject.baseUrl, listing))
    const refusal = !c.ignoresBody && c.status >= 400
    // The case's example, by its name in the document: a document without it promises no words.
    const example = c.example === undefined ? undefined : examples?.[c.example]
    const verdict = ctx.judge({
      kind: 'http',
      operation: refusal ? undefined : c.operation,
      request,
      answer,
      expected: { statuses: [c.status], says: c.says },
      errorSchema: loaded.document.components?.schemas?.Error,
      judging,
      ...(example && 'value' in example ? { example: { status: c.status, body: example.value } } : {}),
    })
    const findings: Finding[] = []
    if (refusal && answer.status === c.status) {
      if (!answer.headers['x-request-id'])
        findings.push({
          check: kitProfileConformance.name,
          message: 'the kit profile’s X-Request-Id header is missing',
        })
      if (c.single && statuses.length > 1)
        findings.push({
          check: statusCodeConformance.name,
          message: `${statuses.length} answers on the connection: what follows a body of unknown length was read as a request`,
        })
      if (c.closes && !closed)
        findings.push({
          check: statusCodeConformance.name,
          message: `the connection was still open ${WAIT_MS} ms after the ${c.status}: the kit profile closes it`,
        })
      // RFC 9112 (9.6): a server that closes the connection says so; the kit profile's refusals do. An
      // answer written before the rest of its request broke off could not know it.
      if (
        c.closes &&
        c.afterAnswer === undefined &&
        !/(^|,)\s*close\s*(,|$)/i.test(answer.headers.connection ?? '')
      )
        findings.push({
          check: kitProfileConformance.name,
          message: `a ${c.status} that closes the connection says Connection: close, not ${answer.headers.connection ?? 'nothing'}`,
        })
      if (c.identity && !/(^|,)\s*identity\s*(;|,|$)/i.test(answer.headers['accept-encoding'] ?? ''))
        findings.push({
          check: statusCodeConformance.name,
          message: `a 415 for a content coding names identity in Accept-Encoding, not ${answer.headers['accept-encoding'] ?? 'none'}`,
        })
    }
    // The second listing spends one: more, and the refusal between them was counted too.
    if (
      typeof leftBefore === 'number' &&
      typeof leftAfter === 'number' &&
      leftBefore - leftAfter > 1 &&
      answer.headers.ratelimit === undefined
    )
      findings.push({
        check: kitProfileConformance.name,
        message: `the quota went from ${leftBefore} to ${leftAfter} over the ${answer.status} and one listing: the ${answer.status}, which carries no RateLimit, was counted against it`,
      })
    if (c.next !== undefined && answer.status === c.status && statuses[1] !== c.next)
      findings.push({
        check: statusCodeConformance.name,
        message: `what follows the request was answered ${statuses[1] ?? 'nothing'}, not ${c.next}`,
      })
    const selected = (check: string) => ctx.results.selected.has(check)
    ctx.results.record({
      layer: 'examples',
      operationId: c.operation.operationId,
      checks: [
        ...new Set(
          [...verdict.checked, kitProfileConformance.name, statusCodeConformance.name].filter(selected),
        ),
      ],
      findings: [...verdict.findings, ...findings.filter((f) => selected(f.check))],
      kinds: [refusal ? 'refused before any operation' : 'body on an operation without one'],
      ...(refusal ? {} : { status: answer.status }),
      title: c.title,
      request: text.length > 300 ? `${text.slice(0, 300)}…` : JSON.stringify(text),
      answer: describeAnswer(answer),
      document: c.says,
      replay: ctx.replay(caseArgs('examples', name)),
    })
  }
}
