// The request log: one line per request, the request's id first among its fields, and that id bound to
// any other line logged for the request.
import { describe, expect, it } from 'vitest'
import { build } from '../../../test/helpers/build.js'

function capture() {
  const lines: string[] = []
  return { lines, stream: { write: (line: string) => void lines.push(line) } }
}

describe('the request log', () => {
  it('writes one line per request, the request id first among its fields, as its child logger binds it', async () => {
    const { lines, stream } = capture()
    const app = await build({}, { level: 'info', stream })
    const res = await app.inject({
      method: 'GET',
      url: '/plants?limit=3',
      headers: { authorization: 'Bearer token-a' },
    })
    await app.close()
    const mine = lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.reqId === res.headers['x-request-id'])
    expect(mine).toHaveLength(1)
    expect(Object.keys(mine[0])).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'url',
      'statusCode',
      'ms',
      'msg',
    ])
    expect(mine[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/plants?limit=3',
      statusCode: 200,
      msg: 'request completed',
    })
  })

  it('binds the request id to any other line logged for the request', async () => {
    const { lines, stream } = capture()
    const app = await build({}, { level: 'debug', stream })
    app.get('/log-twice', async (request) => {
      request.log.warn({ step: 1 }, 'first')
      request.log.child({ part: 'inner' }).debug('second')
      return { ok: true }
    })
    const res = await app.inject({ method: 'GET', url: '/log-twice' })
    await app.close()
    const id = res.headers['x-request-id']
    const mine = lines.map((line) => JSON.parse(line)).filter((line) => line.reqId === id)
    expect(mine.map((line) => line.msg)).toEqual(['first', 'second', 'request completed'])
    expect(mine[1]).toMatchObject({ part: 'inner', level: 20 })
  })
})
