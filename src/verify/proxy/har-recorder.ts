// The proxy's recording: every exchange written as a HAR 1.2 entry the moment it ends, bodies as text
// exactly as they passed (never re-serialized, so ids keep every digit), each bearer token replaced by
// a pseudonym, and the document's verdict in `_contract`. The file is a whole HAR after every entry:
// each is written together with the closing `]}}` over the previous closing bytes, in one write.
import { closeSync, openSync, writeSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import type { ContractVerdict, HarEntry, HarHeader } from '@plant-store/core'
import type { Finding } from '../checks/check.js'
import { decodedBody } from './decoded-body.js'

export interface RecordOptions {
  /** The HAR file to write (replaced if it exists). */
  file: string
  /** Header names whose values are written as `[redacted]` (Authorization gets a pseudonym instead). */
  redactHeaders?: string[]
}

/** What a redacted header's value is written as. */
export const REDACTED = '[redacted]'

const CLOSING = ']}}\n'

interface Pending {
  started: Date
  chunks: Buffer[]
}

export class HarRecorder {
  private readonly fd: number
  /** Where the closing bytes begin: the next entry is written there. */
  private end: number
  private entries = 0
  private readonly redacted: Set<string>
  /** Credentials → pseudonym, in the order first seen: `principal-1`, `principal-2`… */
  private readonly pseudonyms = new Map<string, string>()
  private readonly pending = new WeakMap<IncomingMessage, Pending>()
  private failed = false

  constructor({ file, redactHeaders = [] }: RecordOptions) {
    this.redacted = new Set(redactHeaders.map((name) => name.toLowerCase()))
    this.fd = openSync(file, 'w')
    const head = `{"log":{"version":"1.2","creator":{"name":"@plant-store/verify proxy","version":"1.0.0"},"pages":[],"entries":[\n`
    writeSync(this.fd, head + CLOSING, 0)
    this.end = Buffer.byteLength(head)
  }

  /** Called as a request arrives: keeps its start and its body as it streams through. */
  begin(req: IncomingMessage): void {
    const pending: Pending = { started: new Date(), chunks: [] }
    this.pending.set(req, pending)
    req.on('data', (chunk: Buffer) => pending.chunks.push(chunk))
  }

  /** Called once the answer is whole: writes the exchange, with the findings of its judging. */
  record(
    req: IncomingMessage,
    from: IncomingMessage,
    body: Buffer,
    judged: { operation: string | undefined; findings: Finding[] },
  ): void {
    try {
      this.write(this.entryOf(req, from, body, judged))
    } catch (error) {
      // The recording is the proxy's extra: a full disk must not keep answers from the client.
      if (!this.failed) console.error(`the proxy cannot write its recording: ${(error as Error).message}`)
      this.failed = true
    }
  }

  close(): void {
    closeSync(this.fd)
  }

  private write(entry: HarEntry): void {
    const text = `${this.entries === 0 ? '' : ',\n'}${JSON.stringify(entry)}\n`
    writeSync(this.fd, text + CLOSING, this.end)
    this.end += Buffer.byteLength(text)
    this.entries++
  }

  private entryOf(
    req: IncomingMessage,
    from: IncomingMessage,
    body: Buffer,
    judged: { operation: string | undefined; findings: Finding[] },
  ): HarEntry {
    const pending = this.pending.get(req) ?? { started: new Date(), chunks: [] }
    const sent = Buffer.concat(pending.chunks)
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
    const requestHeaders = this.headersOf(req.rawHeaders)
    const responseHeaders = this.headersOf(from.rawHeaders)
    const requestType = req.headers['content-type'] ?? ''
    const time = Date.now() - pending.started.getTime()
    const content = bodyOf(decodedBody(body, from.headers['content-encoding']))
    const verdict: ContractVerdict = {
      ok: judged.findings.length === 0,
      operation: judged.operation ?? null,
      findings: judged.findings.map(({ check, message }) => ({ check, message })),
    }
    return {
      startedDateTime: pending.started.toISOString(),
      time,
      request: {
        method: req.method ?? 'GET',
        url: url.href,
        httpVersion: `HTTP/${req.httpVersion}`,
        headers: requestHeaders,
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        ...(sent.length === 0 ? {} : { postData: { mimeType: requestType, ...bodyOf(sent).body } }),
        headersSize: -1,
        bodySize: sent.length,
      },
      response: {
        status: from.statusCode ?? 0,
        statusText: from.statusMessage ?? '',
        httpVersion: `HTTP/${from.httpVersion}`,
        headers: responseHeaders,
        cookies: [],
        content: { size: content.size, mimeType: from.headers['content-type'] ?? '', ...content.body },
        redirectURL: from.headers.location ?? '',
        headersSize: -1,
        bodySize: body.length,
      },
      cache: {},
      timings: { send: 0, wait: time, receive: 0 },
      _contract: verdict,
    }
  }

  private headersOf(raw: string[]): HarHeader[] {
    const headers: HarHeader[] = []
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as string
      const key = name.toLowerCase()
      const value = key === 'authorization' ? this.pseudonym(raw[i + 1] as string) : (raw[i + 1] as string)
      headers.push({ name, value: this.redacted.has(key) ? REDACTED : value })
    }
    return headers
  }

  /** `Bearer <token>` → `Bearer principal-N`: the same credentials, the same pseudonym, all recording long. */
  private pseudonym(value: string): string {
    const [scheme, ...rest] = value.trim().split(/ +/)
    const credentials = rest.length ? rest.join(' ') : (scheme ?? '')
    let name = this.pseudonyms.get(credentials)
    if (!name) {
      name = `principal-${this.pseudonyms.size + 1}`
      this.pseudonyms.set(credentials, name)
    }
    return rest.length ? `${scheme} ${name}` : name
  }
}

/** The body as HAR keeps it: the text when it is UTF-8, else base64; bytes unchanged either way. */
function bodyOf(bytes: Buffer): { size: number; body: { text: string; encoding?: string } } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
    return { size: bytes.length, body: { text } }
  } catch {
    return { size: bytes.length, body: { text: bytes.toString('base64'), encoding: 'base64' } }
  }
}
