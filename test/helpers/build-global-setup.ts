// Builds the kit's packages before a test run (vitest globalSetup): the tests start the server and the
// verifier's command as users run them, from dist/, so dist/ must be the code as it is. Up to date, the
// build takes about a second. package.json's build script is the one list of the packages; it is run
// here without npm, whose own start would cost more than the build.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot, runToExit } from '../../scripts/lib/processes.js'

export default async function setup(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { build: string }
  }
  const [tool = '', ...args] = pkg.scripts.build.split(/\s+/)
  const { exit, output } = await runToExit({
    name: 'npm run build',
    command: join(repoRoot, 'node_modules', '.bin', tool),
    args,
    cwd: repoRoot,
    timeoutMs: 5 * 60_000,
  })
  if (exit !== 0)
    throw new Error(`the packages do not build (npm run build), so the tests cannot run them:\n${output}`)
}
