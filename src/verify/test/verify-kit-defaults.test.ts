// The verifier's default run against the kit's server as `npm start` runs it: built, its SQLite store in
// a file, two principals in AUTH_TOKENS, and every limit at its default (a principal's requests, the
// failed authentications an address may make, the overload guard). The run ends, passes, sends each
// refused-token case once per operation, waits out each quota the server declares instead of being
// refused for it, and says how long it waited in all.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { server } from '../../../scripts/lib/commands.js'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadDocument } from '../document.js'
import type { JsonReport } from '../report/json.js'
import { refusedCases } from '../requests/refused-tokens.js'

let work = ''
let kit: Started | undefined
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-store-verify-defaults-'))
})
afterAll(async () => {
  await kit?.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('a default run against the kit’s server with every default', () => {
  it('ends, passes, and says how long it waited for the server’s rate limits', async () => {
    const log = join(work, 'server.log')
    // Only what `npm start` is given: its port, its store's file, the two principals.
    kit = await startProcess({
      ...server({
        built: true,
        cleanEnv: true,
        logFile: log,
        env: { DATABASE_URL: `sqlite:${join(work, 'plants.db')}`, AUTH_TOKENS: 'alice:token-a,bob:token-b' },
      }),
      timeoutMs: 15_000,
    })
    const json = join(work, 'verify.json')
    const run = await runToExit({
      name: 'plant-store-verify',
      command: process.execPath,
      args: ['--import', 'tsx', join(repoRoot, 'src/verify/cli.ts'), '--base-url', kit.url, '--json', json],
      env: { VERIFY_TOKENS: 'token-a,token-b', VERIFY_BASE_URL: undefined, GITHUB_ACTIONS: undefined },
      timeoutMs: 540_000,
    })
    expect(run.exit, run.output.slice(-3000)).toBe(0)
    expect(run.output).toMatch(
      /^Every answer agreed with the document: \d+ requests in \d+\.\d s, \d+\.\d s of it waiting for the server’s rate limits \(seed -?\d+\)\.$/m,
    )
    const report = JSON.parse(await readFile(json, 'utf8')) as JsonReport
    expect(report.passed).toBe(true)
    expect(report.waitedMs).toBeGreaterThanOrEqual(0)
    if (report.waitedMs > 0) expect(report.notes.join('\n')).toMatch(/^the run waited \d+\.\d s in all/m)
    // The server's own log: each refused-token case of each operation answered 401 once, and no
    // request refused with 429, the run having waited out each quota the server declared.
    const answers = (await readFile(log, 'utf8')).match(/"statusCode":\d+/g) ?? []
    const { operations } = await loadDocument(undefined, 'interface')
    expect(answers.filter((a) => a.endsWith(':401'))).toHaveLength(refusedCases(operations).length)
    expect(answers.filter((a) => a.endsWith(':429'))).toEqual([])
    expect(answers.length).toBe(report.requests)
  }, 600_000)
})
