// The vitest setup for frontend teams in @plant-store/msw's README (src/msw/README.md), run as it is
// written: its marked code blocks become the files of a small app in a temporary folder, and vitest runs
// that app's tests with its own config alone, so a README that drifts (globals, no exported server, a
// wrong import) fails here.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, expect, it } from 'vitest'
import { repoRoot, runToExit } from '../../../scripts/lib/processes.js'
import { readVitestReport } from '../../../test/helpers/vitest-report.js'

const marker = /<!-- frontend-example: (\S+) -->\n```ts\n([\s\S]*?)```/g
let app: string | undefined

afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true })
})

it("runs the README's setup, config and test under vitest's default configuration", async () => {
  const readme = await readFile(join(repoRoot, 'src', 'msw', 'README.md'), 'utf8')
  const files = new Map([...readme.matchAll(marker)].map((m) => [m[1] as string, m[2] as string]))
  expect([...files.keys()]).toEqual(
    expect.arrayContaining(['vitest.config.ts', 'vitest.setup.ts', 'src/plants.test.ts']),
  )
  app = await mkdtemp(join(tmpdir(), 'frontend-app-'))
  const dir = app
  for (const [name, text] of files) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), text)
  }
  await writeFile(join(dir, 'package.json'), '{ "name": "frontend-app", "private": true, "type": "module" }')
  // The app's dependencies: msw and vitest as installed here, and @plant-store/msw from this checkout's
  // sources, bundled with @plant-store/core (its package export is the built dist/, which a test should
  // not have to build first; test/packages/ installs the packed packages themselves).
  const modules = join(dir, 'node_modules')
  const handlers = join(modules, '@plant-store', 'msw')
  await mkdir(handlers, { recursive: true })
  for (const name of ['msw', 'vitest'])
    await symlink(join(repoRoot, 'node_modules', name), join(modules, name), 'dir')
  await writeFile(
    join(handlers, 'package.json'),
    '{ "name": "@plant-store/msw", "type": "module", "exports": "./index.js" }',
  )
  await build({
    entryPoints: [join(repoRoot, 'src/msw/index.ts')],
    outfile: join(handlers, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    // The app's own msw, as the package's peer dependency would be.
    external: ['msw'],
    logLevel: 'error',
  })

  const report = join(dir, 'report.json')
  const { exit, output } = await runToExit({
    name: 'frontend app tests',
    command: process.execPath,
    args: [
      join(repoRoot, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    cwd: dir,
    // An app's own shell: none of this run's vitest variables.
    cleanEnv: true,
    env: {
      HOME: process.env.HOME,
      NODE_OPTIONS: `--import ${join(repoRoot, 'node_modules/tsx/dist/loader.mjs')}`,
    },
    timeoutMs: 90_000,
  })
  const { total, passed, shown } = await readVitestReport(report, output)
  expect(exit, shown).toBe(0)
  expect(total, shown).toBeGreaterThanOrEqual(2)
  expect(passed, shown).toBe(total)
}, 120_000)
