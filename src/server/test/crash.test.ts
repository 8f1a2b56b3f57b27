// kill -9 of the real server in the middle of concurrent creates, ten times on one file: every create
// answered 200 is there after each restart, and SQLite finds the file sound.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { checkDurability } from '../../../bench/durability.js'
import { startServer } from '../../../test/helpers/server-process.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-store-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('keeps every acknowledged create and a sound file across 10 kill -9 under concurrent creates', async () => {
  const file = join(dir, 'plants.db')
  const result = await checkDurability({
    start: () => startServer({ DATABASE_URL: `sqlite:${file}`, AUTH_TOKENS: 'writer:token-w' }),
    authorization: 'Bearer token-w',
    connections: 8,
    cycles: 10,
    // Load for 0.4 s before each kill: bounded, and long enough for creates to be in flight.
    killAfter: 0.4,
    file,
  })
  console.log(
    `kill -9 x${result.cycles}: ${result.acknowledged} creates acknowledged, ${result.stored} stored, ` +
      `${result.missing} missing, ${result.unanswered} unanswered at the kills; integrity_check: ${result.integrity}`,
  )
  expect(result.acknowledged).toBeGreaterThan(0)
  expect(result.missingSample).toEqual([])
  expect(result.non200).toBe(0)
  expect(result.integrity).toBe('ok')
  // Eleven starts of the server as a process, each allowed 15 s on a busy machine.
}, 240_000)
