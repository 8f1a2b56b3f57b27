// The batched log destination: one write per event-loop turn, nothing lost at flushSync, pino on top.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { build } from '../../../test/helpers/build.js'
import { BatchedDestination } from '../lib/log-destination.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('BatchedDestination', () => {
  it('writes the lines of one turn together at the end of the turn', async () => {
    const file = join(dir, 'turn.log')
    const fd = openSync(file, 'w')
    const destination = new BatchedDestination(fd)
    destination.write('one\n')
    destination.write('zwei ü\n')
    expect(readFileSync(file, 'utf8')).toBe('')
    await turn()
    expect(readFileSync(file, 'utf8')).toBe('one\nzwei ü\n')
    closeSync(fd)
  })

  it('writes what is pending at once on flushSync', () => {
    const file = join(dir, 'flush.log')
    const fd = openSync(file, 'w')
    const destination = new BatchedDestination(fd)
    destination.write('last words\n')
    destination.flushSync()
    expect(readFileSync(file, 'utf8')).toBe('last words\n')
    destination.flushSync()
    expect(readFileSync(file, 'utf8')).toBe('last words\n')
    closeSync(fd)
  })

  it('carries the request log lines of the app, flushed when it closes', async () => {
    const file = join(dir, 'app.log')
    const fd = openSync(file, 'w')
    const destination = new BatchedDestination(fd)
    const app = await build({}, { level: 'info', stream: destination })
    await app.inject({ method: 'GET', url: '/plants', headers: { authorization: 'Bearer token-a' } })
    await app.close()
    destination.flushSync()
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toContainEqual(
      expect.objectContaining({ method: 'GET', url: '/plants', statusCode: 200, msg: 'request completed' }),
    )
    closeSync(fd)
  })
})
