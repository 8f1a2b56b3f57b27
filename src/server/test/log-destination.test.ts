// The batched log destination: lines written together (at 16 KiB, or within 10 ms), nothing lost at
// flushSync, pino on top.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { build } from '../../../test/helpers/build.js'
import { BatchedDestination } from '../lib/log-destination.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('BatchedDestination', () => {
  it('writes the lines it gathers together, within 10 ms of the first', async () => {
    const file = join(dir, 'turn.log')
    const fd = openSync(file, 'w')
    const destination = new BatchedDestination(fd)
    destination.write('one\n')
    destination.write('zwei ü\n')
    expect(readFileSync(file, 'utf8')).toBe('')
    // The wait is a lower bound: a slow machine only makes it longer.
    await wait(60)
    expect(readFileSync(file, 'utf8')).toBe('one\nzwei ü\n')
    closeSync(fd)
  })

  it('writes at once when 16 KiB have gathered', () => {
    const file = join(dir, 'full.log')
    const fd = openSync(file, 'w')
    const destination = new BatchedDestination(fd)
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 15; i++) destination.write(line)
    expect(readFileSync(file, 'utf8')).toBe('')
    destination.write(line)
    expect(readFileSync(file, 'utf8')).toBe(line.repeat(16))
    destination.write('after\n')
    destination.flushSync()
    expect(readFileSync(file, 'utf8')).toBe(`${line.repeat(16)}after\n`)
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
