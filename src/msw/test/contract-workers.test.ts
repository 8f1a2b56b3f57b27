// A consumer contract recorded by a frontend's own vitest run, its test files spread over several
// workers (forks, then threads), all writing one file: the file holds what each test file records alone,
// joined, the same on every run; a new run starts the file afresh, so that what the tests no longer
// do leaves it. The app's packages are the kit's sources, bundled as readme-frontend.test.ts does.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { joinContracts, parseContract, serializeContract } from '@plant-store/core'
import { build } from 'esbuild'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { repoRoot, runToExit } from '../../../scripts/lib/processes.js'
import { readVitestReport } from '../../../test/helpers/vitest-report.js'

const base = 'http://shop.test/api'

/** The app: its handlers, its client, and three test files, each calling the store its own way. */
const files: Record<string, string> = {
  'package.json': '{ "name": "shop-app", "private": true, "type": "module" }',
  'vitest.config.ts': `import { defineConfig } from 'vitest/config'
export default defineConfig({ test: { setupFiles: ['./vitest.setup.ts'] } })
`,
  'vitest.setup.ts': `import { writeFileSync } from 'node:fs'
import { threadId } from 'node:worker_threads'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { plantStore, server } from './src/mocks'

// Which worker ran a test file, so that the kit's test knows the files were spread.
writeFileSync(\`workers/\${process.pid}-\${threadId}\`, '')
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => plantStore.store.reset())
afterAll(() => server.close())
`,
  'src/mocks.ts': `import { createPlantStoreClient } from '@plant-store/client'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupServer } from 'msw/node'

export const plantStore = createPlantStoreHandlers({ baseUrl: '${base}' })
export const server = setupServer(...plantStore.handlers)
export const api = createPlantStoreClient({ baseUrl: '${base}', token: 'shop' })
`,
  'src/details.test.ts': `import { ok } from '@plant-store/client'
import { expect, it } from 'vitest'
import { api } from './mocks'

it('shows a plant by its name', async () => {
  expect(ok(await api.GET('/plants/{id}', { params: { path: { id: 1n } } })).name).toBe('Basil')
})
`,
  'src/list.test.ts': `import { expect, it } from 'vitest'

it('lists the herbs, a page of two then one of five', async () => {
  const headers = { authorization: 'Bearer shop' }
  expect((await fetch('${base}/plants?limit=2&tag=herb', { headers })).status).toBe(200)
  expect((await fetch('${base}/plants?limit=5', { headers })).status).toBe(200)
})
`,
  'src/add.test.ts': `import { ok, PlantStoreError } from '@plant-store/client'
import { expect, it } from 'vitest'
import { api } from './mocks'

it('adds a plant with an id past 2^53, and shows why a second is refused', async () => {
  const id = 9007199254740993n
  ok(await api.POST('/plants', { body: { id, name: 'Giant fern', tag: 'fern' } }))
  const again = await api.POST('/plants', { body: { id, name: 'Fern' } }).then(ok).catch((e: unknown) => e)
  expect((again as PlantStoreError).body.message).toContain('already exists')
})
`,
}

let app = ''

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'contract-workers-'))
  await mkdir(join(app, 'tmp'))
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(app, name)), { recursive: true })
    await writeFile(join(app, name), text)
  }
  const modules = join(app, 'node_modules')
  for (const name of ['msw', 'vitest']) {
    await mkdir(dirname(join(modules, name)), { recursive: true })
    await symlink(join(repoRoot, 'node_modules', name), join(modules, name), 'dir')
  }
  // The kit's packages from this checkout's sources, each bundled with what it imports of the kit.
  for (const name of ['msw', 'client']) {
    const folder = join(modules, '@plant-store', name)
    await mkdir(folder, { recursive: true })
    await writeFile(
      join(folder, 'package.json'),
      `{ "name": "@plant-store/${name}", "type": "module", "exports": "./index.js" }`,
    )
    await build({
      entryPoints: [join(repoRoot, `src/${name}/index.ts`)],
      outfile: join(folder, 'index.js'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      external: ['msw'],
      logLevel: 'error',
    })
  }
}, 60_000)

afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true })
})

/** The app's own vitest run of `tests` (all by default) with PLANT_STORE_CONTRACT set: the file it leaves. */
async function record(
  pool: 'forks' | 'threads',
  tests: string[] = [],
): Promise<{ text: string; workers: number }> {
  await rm(join(app, 'workers'), { recursive: true, force: true })
  await mkdir(join(app, 'workers'))
  const report = join(app, 'report.json')
  const { exit, output } = await runToExit({
    name: 'the app tests',
    command: process.execPath,
    args: [
      join(repoRoot, 'node_modules/vitest/vitest.mjs'),
      'run',
      `--pool=${pool}`,
      '--maxWorkers=3',
      '--reporter=json',
      `--outputFile=${report}`,
      ...tests,
    ],
    cwd: app,
    cleanEnv: true,
    // The contract's lock and run marker go to the temporary folder: the app's own, removed with it.
    env: { HOME: process.env.HOME, TMPDIR: join(app, 'tmp'), PLANT_STORE_CONTRACT: 'contracts/shop.json' },
    timeoutMs: 90_000,
  })
  const { total, passed, shown } = await readVitestReport(report, output)
  expect(exit, shown).toBe(0)
  expect(passed, shown).toBe(total)
  const text = await readFile(join(app, 'contracts/shop.json'), 'utf8')
  return { text, workers: (await readdir(join(app, 'workers'))).length }
}

it('joins what each worker records into one file, the same on every run, and starts it afresh each run', async () => {
  const forks = await record('forks')
  expect(forks.workers, 'the three test files ran in several processes').toBeGreaterThan(1)
  const contract = parseContract(forks.text)
  expect(contract.consumer).toBe('shop-app')
  expect(Object.keys(contract.paths).sort()).toEqual(['/plants', '/plants/{id}'])

  // Each file alone: a run of its own replaces what the run before wrote.
  const alone: string[] = []
  for (const test of ['src/details.test.ts', 'src/list.test.ts', 'src/add.test.ts']) {
    const { text } = await record('forks', [test])
    expect(text).not.toBe(forks.text)
    alone.push(text)
  }
  const joined = alone.map((text) => parseContract(text)).reduce((a, b) => joinContracts(a, b))
  expect(forks.text).toBe(serializeContract(joined))

  const threads = await record('threads')
  expect(threads.workers, 'the three test files ran in several threads').toBeGreaterThan(1)
  // Another run, another pool: the same file.
  expect(threads.text).toBe(forks.text)
}, 240_000)
