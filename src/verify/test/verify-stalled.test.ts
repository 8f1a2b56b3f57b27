// A request whose headers stop arriving: sent only with --headers-timeout, judged by the 408 the server
// writes once its own headers timeout is up, and a failure when that answer does not come in time.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { server } from '../../../scripts/lib/commands.js'
import { runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import type { JsonReport } from '../report/json.js'
import { cli } from './command.js'

const PROMISE = 'kit.limits-exactly.a-client-must-send-its'
const CASE = 'listPlants · requestTimeout'

let work = ''
const started: Started[] = []
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-store-verify-stalled-'))
})
afterAll(async () => {
  for (const s of started) await s.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

async function kitServer(headersTimeoutMs: number): Promise<string> {
  const s = await startProcess({
    ...server({
      built: true,
      env: { AUTH_TOKENS: 'alice:token-a,bob:token-b', HEADERS_TIMEOUT_MS: String(headersTimeoutMs) },
    }),
    timeoutMs: 15_000,
  })
  started.push(s)
  return s.url
}

async function verifyStalled(url: string, name: string, extra: string[]) {
  const json = join(work, `${name}.json`)
  const run = await runToExit({
    name: 'plant-store-verify',
    command: process.execPath,
    args: [...cli, '--base-url', url, '--profile', 'kit', '--only', 'examples', '--case', CASE, ...extra],
    env: { VERIFY_TOKENS: 'token-a,token-b', VERIFY_BASE_URL: undefined, GITHUB_ACTIONS: undefined },
    timeoutMs: 60_000,
  })
  return { run, json }
}

describe('a stalled request', () => {
  it('is judged with --headers-timeout, and left out, with its reason, without it', async () => {
    const url = await kitServer(1_000)
    const sent = await verifyStalled(url, 'sent', [
      '--headers-timeout',
      '1',
      '--json',
      join(work, 'sent.json'),
    ])
    expect(sent.run.exit, sent.run.output.slice(-3000)).toBe(0)
    const report = JSON.parse(await readFile(join(work, 'sent.json'), 'utf8')) as JsonReport
    expect(report.promises.find((p) => p.id === PROMISE)?.requests).toBeGreaterThan(0)

    const left = await verifyStalled(url, 'left', ['--json', join(work, 'left.json')])
    expect(left.run.exit, left.run.output.slice(-3000)).toBe(0)
    const without = JSON.parse(await readFile(join(work, 'left.json'), 'utf8')) as JsonReport
    expect(without.promises.find((p) => p.id === PROMISE)?.requests).toBe(0)
    expect(without.promises.find((p) => p.id === PROMISE)?.reason).toMatch(/--headers-timeout says how long/)
  }, 90_000)

  it('fails when the server does not answer within the timeout it is said to have, and its margin', async () => {
    // The server waits 20 s; the run is told 1 s, and waits 1 s and its margin of 5 s.
    const url = await kitServer(20_000)
    const { run } = await verifyStalled(url, 'late', ['--headers-timeout', '1'])
    expect(run.exit).toBe(1)
    expect(run.output).toMatch(/no answer to a stalled request within 6000 ms/)
  }, 90_000)
})
