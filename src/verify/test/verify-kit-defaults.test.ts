// The verifier's default run against the kit's server as `npm start` runs it: built, its SQLite store in
// a file, two principals in AUTH_TOKENS, and every limit at its default (a principal's requests, the
// failed authentications an address may make, the overload guard). The run fits within the quotas the
// server declares: it sizes its generated requests and sequences to a principal's, says so, sends the
// refused-token cases the failed authentications' quota holds and says which it left out, and passes
// without waiting for either quota or being refused for it.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { server } from '../../../scripts/lib/commands.js'
import { runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { loadConfig } from '../../server/config.js'
import { refusedCases } from '../cases/refused-tokens.js'
import { loadDocument } from '../document.js'
import type { JsonReport } from '../report/json.js'
import { cli } from './command.js'

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
  it('fits within the server’s quotas: it passes without waiting, and says what it sent', async () => {
    const log = join(work, 'server.log')
    const principals = 'alice:token-a,bob:token-b'
    // Only what `npm start` is given: its port, its store's file, the two principals.
    kit = await startProcess({
      ...server({
        built: true,
        cleanEnv: true,
        logFile: log,
        env: { DATABASE_URL: `sqlite:${join(work, 'plants.db')}`, AUTH_TOKENS: principals },
      }),
      timeoutMs: 15_000,
    })
    const json = join(work, 'verify.json')
    const run = await runToExit({
      name: 'plant-store-verify',
      command: process.execPath,
      args: [...cli, '--base-url', kit.url, '--json', json],
      env: { VERIFY_TOKENS: 'token-a,token-b', VERIFY_BASE_URL: undefined, GITHUB_ACTIONS: undefined },
      timeoutMs: 300_000,
    })
    expect(run.exit, run.output.slice(-3000)).toBe(0)
    expect(run.output).toMatch(
      /^Every answer agreed with the document: \d+ requests in \d+\.\d s, 0\.0 s of it waiting for the server’s rate limits \(seed -?\d+\)\.$/m,
    )
    const report = JSON.parse(await readFile(json, 'utf8')) as JsonReport
    expect(report.passed).toBe(true)
    expect(report.waitedMs).toBe(0)
    expect(report.notes.join('\n')).not.toMatch(/the run waited/)
    // The sizes it fitted to a principal's quota, said at once on the progress output and in the report.
    const { max, authFailures } = loadConfig({ AUTH_TOKENS: principals }).rateLimit
    const fitted = new RegExp(
      `the server allows ${max} requests a minute per principal \\(RateLimit-Policy "default";q=${max};w=60\\): this run sends (\\d+) generated requests and (\\d+) sequences; give --requests and --sequences to send more, waiting for the quota`,
    )
    expect(run.output).toMatch(new RegExp(`^verify: ${fitted.source}$`, 'm'))
    const sizes = report.notes.map((note) => fitted.exec(note)).find(Boolean)
    expect(Number(sizes?.[1])).toBeLessThan(2000)
    expect(Number(sizes?.[2])).toBeLessThan(200)
    // The server's own log: as many refused tokens answered 401 as the quota for failed
    // authentications holds, each a distinct case, the rest said to be left out; no request refused
    // with 429; every request the run counted that reached the server's code.
    const answers = (await readFile(log, 'utf8')).match(/"statusCode":\d+/g) ?? []
    const refusals = answers.filter((a) => a.endsWith(':401'))
    expect(refusals).toHaveLength(authFailures)
    const { operations } = await loadDocument(undefined, 'interface')
    const left = refusedCases(operations).length - authFailures
    expect(report.notes.join('\n')).toMatch(
      new RegExp(
        `^refused-token cases: ${authFailures} sent, ${left} left out to keep to the server’s quota for failed authentications`,
        'm',
      ),
    )
    expect(answers.filter((a) => a.endsWith(':429'))).toEqual([])
    // All but the methods Node's HTTP layer refuses before the server's request log (FOO and `get`, to
    // each path), which the run sends with a principal's token.
    const unknownMethods = new Set(operations.map((e) => e.path)).size * 2
    expect(answers.length).toBe(report.requests - unknownMethods)
  }, 360_000)
})
