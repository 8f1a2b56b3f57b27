// The plant-store-verify command as the tests run it (from its sources, through tsx), the independent
// store it runs against, and a scratch directory for its reports: each started for a test file and
// stopped after it.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'

/** The command as users run it (test runs build it first: test/helpers/build-global-setup.ts). */
export const cli = [join(repoRoot, 'src/verify/bin/plant-store-verify.js')]
const TOKENS = 'alice=token-alice,bob=token-bob'

/** The built-in checks of these names, for Results made by hand. */
export const checksNamed = (...names: string[]) => BUILT_IN_CHECKS.filter((c) => names.includes(c.name))

/** Registers the file's set-up and clean-up; returns how to start a store, run the command, and where to write. */
export function commandTests() {
  const started: Started[] = []
  let work = ''
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'plant-store-verify-'))
  })
  afterAll(async () => {
    await Promise.allSettled(started.map((s) => s.stop()))
    if (work) await rm(work, { recursive: true, force: true })
  })
  return {
    /** The independent store, with a bug planted when one is named. */
    store(bug = '') {
      return startProcess({
        name: `independent store${bug ? ` (${bug})` : ''}`,
        command: process.execPath,
        args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
        env: { PORT: '0', TOKENS, BUG: bug },
        listening: /listening on (http:\/\/\S+)/,
      }).then((s) => {
        started.push(s)
        return s
      })
    },
    /** The command with these arguments; what it printed, and its standard error apart. */
    run(args: string[], env: Record<string, string> = {}) {
      let stderr = ''
      return runToExit({
        name: 'plant-store-verify',
        command: process.execPath,
        args: [...cli, ...args],
        // Not in GitHub Actions unless a test says so, wherever the tests run.
        env: { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined, GITHUB_ACTIONS: undefined, ...env },
        timeoutMs: 240_000,
        onOutput: (chunk, stream) => {
          if (stream === 'stderr') stderr += chunk
        },
      }).then((result) => ({ ...result, stderr }))
    },
    /** The scratch directory, once the file's set-up has made it. */
    work: () => work,
  }
}
