// The log's form: JSON lines whenever stdout is not a terminal or NODE_ENV is production; readable
// lines (pino-pretty) only on a terminal in development.
import { afterAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServer } from '../../../test/helpers/server-process.js'
import { readableDestination, wantsReadableLog } from '../lib/log-format.js'

const started: ServerProcess[] = []
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()))
})

describe('the log', { timeout: 60_000 }, () => {
  it('is readable only on a terminal, and never in production', () => {
    expect(wantsReadableLog(true, 'development')).toBe(true)
    expect(wantsReadableLog(true, 'test')).toBe(true)
    expect(wantsReadableLog(true, 'production')).toBe(false)
    expect(wantsReadableLog(false, 'development')).toBe(false)
    expect(wantsReadableLog(undefined, 'development')).toBe(false)
  })

  it('has pino-pretty at hand in this repository', async () => {
    expect(await readableDestination()).toBeDefined()
  })

  it('is JSON, one object a line, when stdout is not a terminal, in development too', async () => {
    const server = await startServer({
      NODE_ENV: 'development',
      DATABASE_URL: 'sqlite::memory:',
      AUTH_TOKENS: 'alice:token-a',
    })
    started.push(server)
    const answer = await fetch(`${server.url}/plants/1`, { headers: { authorization: 'Bearer token-a' } })
    expect(answer.status).toBe(404)
    await server.stop()
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '')
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events.some((event) => String(event.msg).startsWith('Server listening at'))).toBe(true)
    expect(events).toContainEqual(
      expect.objectContaining({ method: 'GET', url: '/plants/1', statusCode: 404, msg: 'request completed' }),
    )
  })
})
