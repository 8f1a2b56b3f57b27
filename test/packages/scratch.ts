// Scratch apps outside the repository: the packages packed by `npm pack`, and commands run in an app with
// this machine's environment (its proxy and certificates reach the registry) but not this run's npm,
// vitest or Node settings.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { repoRoot, runToExit } from '../../scripts/lib/processes.js'
import { readVitestReport } from '../helpers/vitest-report.js'

const rootManifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>
}

/** The range the kit itself develops against, so that an app gets the versions the kit is tested with. */
export const range = (name: string): string => rootManifest.devDependencies[name] ?? 'latest'

export const ownEnv: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_|vitest|vite_|node_options$|node_env$|test$)/i.test(key),
  ),
)

/** Runs a command of a scratch app; resolves with how it ended, what it printed and how long it took. */
export async function run(
  cwd: string,
  command: string,
  args: string[],
  timeoutMs = 240_000,
  env: Record<string, string> = {},
) {
  const began = performance.now()
  const result = await runToExit({
    name: `${command} ${args.join(' ')}`,
    command,
    args,
    cwd,
    cleanEnv: true,
    env: { ...ownEnv, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env },
    timeoutMs,
  })
  return { ...result, seconds: (performance.now() - began) / 1000 }
}

/** A scratch app's own vitest run, read from its JSON report: how it ended, its counts, and what to show. */
export async function runVitest(cwd: string, env: Record<string, string> = {}, args: string[] = []) {
  const report = join(cwd, 'report.json')
  const { exit, output } = await run(
    cwd,
    'npx',
    ['vitest', 'run', '--reporter=json', `--outputFile=${report}`, ...args],
    undefined,
    env,
  )
  return { exit, ...(await readVitestReport(report, output)) }
}

export const npmInstall = (cwd: string, specs: string[] = []) =>
  run(cwd, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs])

/**
 * A scratch app in the stage's folder (test/packages/packed.ts), made by `prepare` (its files written and
 * its packages installed) unless an earlier Node line of this run made it there: then it is used as it is.
 */
export async function scratchApp(dir: string, prepare: (dir: string) => Promise<void>): Promise<void> {
  const ready = join(dir, '.made-by-an-earlier-line')
  if (existsSync(ready)) {
    console.log(`${basename(dir)}: installed by an earlier Node line of this run, used as it is`)
    return
  }
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  await prepare(dir)
  await writeFile(ready, '')
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), text)
  }
}

/** Packs workspaces (their folders) into `destination`; resolves with each tarball's path by package name. */
export async function pack(destination: string, folders: string[]): Promise<Record<string, string>> {
  const packed = await run(repoRoot, 'npm', [
    'pack',
    '--json',
    '--loglevel=error',
    `--pack-destination=${destination}`,
    ...folders.map((folder) => `--workspace=${folder}`),
  ])
  if (packed.exit !== 0) throw new Error(`npm pack failed:\n${packed.output}`)
  const list = JSON.parse(packed.output.slice(packed.output.indexOf('['))) as {
    name: string
    filename: string
  }[]
  return Object.fromEntries(list.map(({ name, filename }) => [name, join(destination, filename)]))
}
