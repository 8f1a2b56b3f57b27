// One answer to one request, on every front that stands before the store (the server, the mock's
// front, the handlers over HTTP): a request whose end cannot be known is refused with 400 in the Error
// shape and its connection closed, so that what follows it on the connection is never read as a
// request; one whose end is known is refused and the connection kept, the next request answered.
import { describe, expect, it } from 'vitest'
import { answersTo, type RawAnswer } from './raw-http.js'

export interface Front {
  port: number
  host?: string
  /** A token the front takes, for the request that follows. */
  token: string
}

const body = '{"id":1,"name":"Basil"}'
const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`

/** Each request whose end no server can know (RFC 9112, 6.3), and what its refusal says. */
const unframed: [string, (auth: string) => string, RegExp][] = [
  [
    'a Transfer-Encoding of gzip alone',
    (auth) => `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: gzip\r\n\r\n${body}`,
    /^the length of the body cannot be known: Transfer-Encoding must end in chunked/,
  ],
  [
    'a Transfer-Encoding that does not end in chunked',
    (auth) => `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked, gzip\r\n\r\n${chunked}`,
    /^the length of the body cannot be known: Transfer-Encoding must end in chunked/,
  ],
  [
    'Content-Length and Transfer-Encoding',
    (auth) =>
      `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    /^the length of the body cannot be known: /,
  ],
  [
    'Transfer-Encoding and then Content-Length',
    (auth) =>
      `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\nContent-Length: ${body.length}\r\n\r\n${chunked}`,
    /^the length of the body cannot be known: /,
  ],
  [
    'two Content-Length values',
    (auth) =>
      `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: ${body.length}\r\nContent-Length: 2\r\n\r\n${body}`,
    /^the length of the body cannot be known: Content-Length must be given once/,
  ],
  ['a request line that is not HTTP', () => 'NOT HTTP AT ALL\r\n\r\n', /^the request is not valid HTTP$/],
]

/** Each request refused whose end is known, and its status: its body is read past. */
const framed: [string, (auth: string) => string, number][] = [
  [
    'a body in a content coding, with its length',
    (auth) =>
      `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    415,
  ],
  [
    'a transfer coding it does not know before chunked',
    (auth) =>
      `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunked}`,
    501,
  ],
]

const list = (auth: string, close = true) =>
  `GET /plants HTTP/1.1\r\nHost: x\r\n${auth}${close ? 'Connection: close\r\n' : ''}\r\n`
const said = (answers: RawAnswer[]) => answers.map((answer) => `${answer.status} ${answer.body}`)

/** The answer is `status` in the Error shape, its message matching `message`. */
function expectError(answer: RawAnswer | undefined, status: number, message: RegExp = /./) {
  expect(answer?.status).toBe(status)
  expect(answer?.headers['content-type']).toMatch(/^application\/json\b/)
  expect(JSON.parse(answer?.body ?? '')).toEqual({ error: status, message: expect.stringMatching(message) })
}

/**
 * The cases above on one front, given once it listens; `answersBeforeBody`: it answers a path no
 * operation takes before it reads the body (the handlers read every body first).
 */
export function describeOneAnswer(name: string, front: () => Front, answersBeforeBody: boolean): void {
  const send = (request: string, next?: string) => {
    const { port, host } = front()
    return answersTo(port, request, next, host)
  }
  const auth = () => `Authorization: Bearer ${front().token}\r\n`

  describe(`${name}: one answer to one request`, () => {
    it.each(unframed)('refuses %s with 400, once, and closes the connection', async (_, request, message) => {
      const answers = await send(request(auth()) + list(auth()))
      expect(answers, said(answers).join('\n')).toHaveLength(1)
      expectError(answers[0], 400, message)
      expect(answers[0]?.headers.connection).toBe('close')
    })

    it.each(framed)(
      'refuses %s, reads past its body and answers the next request',
      async (_, request, status) => {
        const answers = await send(request(auth()) + list(auth()))
        expect(answers, said(answers).join('\n')).toHaveLength(2)
        expectError(answers[0], status)
        expect(answers[0]?.headers.connection).not.toBe('close')
        expect(answers[1]?.status).toBe(200)
        expect(JSON.parse(answers[1]?.body ?? '')).toEqual(expect.any(Array))
      },
    )

    it('answers what it read whole before a request it cannot parse, then refuses that one', async () => {
      const answers = await send(`${list(auth(), false)}NOT HTTP AT ALL\r\n\r\n`)
      expect(said(answers)).toEqual([expect.stringMatching(/^200 \[/), expect.stringMatching(/^400 /)])
      expectError(answers[1], 400, /^the request is not valid HTTP$/)
    })

    const broken = (auth: string) =>
      `POST /nowhere HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
    const rest = (auth: string) => `zz\r\n${body}\r\n0\r\n\r\n${list(auth)}`

    it('gives a request whose chunks break off one answer', async () => {
      const answers = await send(broken(auth()) + rest(auth()))
      expect(answers, said(answers).join('\n')).toHaveLength(1)
      expect(answers[0]?.status).toBeGreaterThanOrEqual(400)
    })

    if (answersBeforeBody)
      it('gives a request whose chunks break off after it was answered no second answer', async () => {
        const answers = await send(broken(auth()), rest(auth()))
        expect(said(answers)).toEqual([expect.stringMatching(/^404 /)])
      })
  })
}
