// The verifier has teeth: an independent implementation of the document (test/fixtures/independent-store,
// plain node:http, none of the kit's code) passes it with no failure, each copy of it with one planted
// bug fails it on the check that names the broken promise, and the kit's own server, sandbox and
// stateful handlers pass it by URL too.

import { type Results, verify } from '@plant-store/verify'
import { afterAll, describe, expect, it } from 'vitest'
import * as commands from '../../../scripts/lib/commands.js'
import { INSTALL_HINT, postgresBinDir, startCluster } from '../../../scripts/lib/postgres.js'
import { repoRoot, type Started, startProcess } from '../../../scripts/lib/processes.js'

// CI always has PostgreSQL (.ci/run installs it); elsewhere its case says why it is skipped.
const postgres = postgresBinDir() !== undefined || process.env.CI === 'true'
if (!postgres) console.warn(`the verifier against the server on PostgreSQL is skipped: ${INSTALL_HINT}`)

const started: Started[] = []
afterAll(async () => {
  await Promise.allSettled(started.map((p) => p.stop()))
})

async function start(options: Parameters<typeof startProcess>[0]): Promise<Started> {
  const process = await startProcess(options)
  started.push(process)
  return process
}

function independentStore(bug = ''): Parameters<typeof startProcess>[0] {
  return {
    name: `independent store${bug ? ` (${bug})` : ''}`,
    command: process.execPath,
    args: [`${repoRoot}test/fixtures/independent-store/server.mjs`],
    env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob', BUG: bug },
    listening: /listening on (http:\/\/\S+)/,
  }
}

// Smaller than the command's defaults: enough to meet every planted bug, quick on a busy machine.
const SMALL = { requests: 400, sequences: 40, seed: 20261124 }

const summary = (results: Results) =>
  results
    .distinctFailures()
    .map((f) => results.failureText(f))
    .join('\n\n')

describe('the verifier, against an independent implementation', () => {
  it('passes the correct one with no failure', async () => {
    const store = await start(independentStore())
    const results = await verify({ baseUrl: store.url, tokens: ['token-alice', 'token-bob'], ...SMALL })
    expect(results.failures.length, summary(results)).toBe(0)
    expect(results.rows().length).toBeGreaterThan(20)
    await store.stop()
  }, 240_000)

  // A planted bug of each layer, and the checks that name its broken promise: at least one failure must
  // be one of them. Here a default run, every layer at once, so that no layer hides another's finding;
  // each of the copy's bugs with its own layer, filed under its promise, is test/planted-bugs/'s.
  const bugs: [string, string[]][] = [
    ['rounded-ids', ['create_read_back', 'store_conformance', 'status_code_conformance']],
    ['delete-answers-200', ['status_code_conformance']],
    ['no-www-authenticate', ['www_authenticate_on_401']],
    ['page-repeats-boundary', ['link_conformance']],
    ['duplicate-overwrites', ['status_code_conformance']],
    ['crossed-cursor', ['principal_isolation']],
  ]
  it.each(bugs)(
    'fails the copy with the bug %s, naming the broken promise',
    async (bug, checks) => {
      const store = await start(independentStore(bug))
      const results = await verify({ baseUrl: store.url, tokens: ['token-alice', 'token-bob'], ...SMALL })
      const found = new Set(results.failures.map((f) => f.check))
      expect(
        [...found].some((check) => checks.includes(check)),
        `${bug}: found ${[...found].join(', ') || 'nothing'}\n${summary(results)}`,
      ).toBe(true)
      await store.stop()
    },
    240_000,
  )

  // Only creates sent together meet between the check and the insert: the concurrency layer alone.
  it('fails the copy whose create checks and stores apart, by concurrent_consistency', async () => {
    const store = await start(independentStore('create-race'))
    const tokens = ['token-alice', 'token-bob'] as const
    const results = await verify({ baseUrl: store.url, tokens, only: ['concurrency'], ...SMALL })
    expect(new Set(results.failures.map((f) => f.check)), summary(results)).toContain(
      'concurrent_consistency',
    )
    await store.stop()
  }, 60_000)
})

describe('the verifier, the kit profile apart from the interface', () => {
  it('passes a store whose body limit is higher than the kit’s, and holds the kit’s server to its exact limit with --profile kit', async () => {
    const store = await start(independentStore('body-limit-too-high'))
    const tokens = ['token-alice', 'token-bob'] as const
    const interfaceRun = await verify({ baseUrl: store.url, tokens, ...SMALL })
    expect(interfaceRun.failures.length, summary(interfaceRun)).toBe(0)
    const kitRun = await verify({ baseUrl: store.url, tokens, profile: 'kit', only: ['examples'], ...SMALL })
    const tooLarge = kitRun.failures.filter((f) => f.title === 'tooLarge')
    expect(
      tooLarge.map((f) => f.check),
      summary(kitRun),
    ).toContain('status_code_conformance')
    await store.stop()
  }, 240_000)
})

describe('the verifier, against the kit by URL', () => {
  const tokens = ['verify-token-a', 'verify-token-b'] as const
  it.each([
    [
      'the real server, held to the kit profile',
      commands.server({
        env: { AUTH_TOKENS: `a:${tokens[0]},b:${tokens[1]}`, NODE_ENV: 'test', ...commands.generousLimits },
      }),
    ],
    [
      'the sandbox, whose principals start with its seeded plants',
      commands.sandbox({ env: { NODE_ENV: 'test', ...commands.generousLimits } }),
    ],
    ['the stateful handlers served over HTTP', commands.handlers('stateful')],
  ] as const)(
    '%s passes',
    async (name, command) => {
      const target = await start(command)
      // The sandbox and the handlers make a principal of any token.
      const anyToken = !name.startsWith('the real server')
      const profile = name.startsWith('the real server') ? 'kit' : 'interface'
      const results = await verify({ baseUrl: target.url, tokens, anyToken, profile, ...SMALL })
      expect(results.failures.length, summary(results)).toBe(0)
      await target.stop()
    },
    240_000,
  )

  // The same server on its other store, where creates sent together meet in the database, not in Node.
  it.skipIf(!postgres)(
    'the real server on PostgreSQL, held to the kit profile, passes',
    async () => {
      const cluster = await startCluster()
      try {
        const target = await start(
          commands.server({
            name: 'real server on PostgreSQL',
            env: {
              AUTH_TOKENS: `a:${tokens[0]},b:${tokens[1]}`,
              NODE_ENV: 'test',
              ...commands.generousLimits,
              DATABASE_URL: await cluster.createDatabase(),
            },
          }),
        )
        const results = await verify({ baseUrl: target.url, tokens, profile: 'kit', ...SMALL })
        expect(results.failures.length, summary(results)).toBe(0)
        expect(results.stopped).toEqual([])
        await target.stop()
      } finally {
        await cluster.destroy()
      }
    },
    240_000,
  )
})
