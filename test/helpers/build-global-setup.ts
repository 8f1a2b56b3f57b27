// Builds the kit's packages before a test run (vitest globalSetup): the tests start the server and the
// verifier's command as users run them, from dist/, so dist/ must be the code as it is. Up to date, the
// build takes about a second.
import { repoRoot, runToExit } from '../../scripts/lib/processes.js'

export default async function setup(): Promise<void> {
  const { exit, output } = await runToExit({
    name: 'npm run build',
    command: 'npm',
    args: ['run', '--silent', 'build'],
    cwd: repoRoot,
    timeoutMs: 5 * 60_000,
  })
  if (exit !== 0)
    throw new Error(`the packages do not build (npm run build), so the tests cannot run them:\n${output}`)
}
