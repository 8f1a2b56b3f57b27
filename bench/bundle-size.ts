// What the handlers and the client add to a web page: builds small apps with Vite, from the packages as
// an app imports them, and prints each app's JavaScript, minified and gzipped, and the differences.
// src/msw/test/bundle-size.test.ts measures the same apps from the sources, to hold the handlers to a budget.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, version } from 'vite'

const repoRoot = new URL('..', import.meta.url).pathname

/** Each app's main module: what a page of a frontend team would write. */
const apps = {
  empty: `document.body.append('plants')\n`,
  msw: `import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'

await setupWorker(http.get('/api/plants', () => HttpResponse.json([]))).start()
`,
  handlers: `import { setupWorker } from 'msw/browser'
import { createPlantStoreHandlers } from '@plant-store/msw'

await setupWorker(...createPlantStoreHandlers({ baseUrl: '/api' }).handlers).start()
`,
  client: `import { createPlantStoreClient, ok } from '@plant-store/client'

const plants = createPlantStoreClient({ baseUrl: '/api', token: 'token-a' })
for await (const plant of plants.plants({ tag: 'herb' })) document.body.append(plant.name)
document.body.append(ok(await plants.GET('/plants/{id}', { params: { path: { id: 1n } } })).name)
`,
} as const
export type App = keyof typeof apps

export interface Size {
  /** Bytes of the JavaScript the page loads at start: the entry chunk and what it imports statically. */
  minified: number
  gzip: number
  /** Bytes of chunks only a dynamic import() loads, which a page fetches only if it runs that import. */
  lazyMinified: number
  lazyGzip: number
}

// Vite's own report gzips at level 9; so does this one, so that the figures compare with it.
const gzipped = (code: string) => gzipSync(code, { level: 9 }).length

interface Chunk {
  type: 'chunk'
  fileName: string
  code: string
  isEntry: boolean
  imports: string[]
}

/** The packages' sources, for a build that needs no `npm run build` first (the test's). */
const sources = [
  ['@plant-store/core/validation', 'src/core/lib/validation.ts'],
  ['@plant-store/core/contract', 'src/core/contract.ts'],
  ['@plant-store/core', 'src/core/index.ts'],
  ['@plant-store/msw', 'src/msw/index.ts'],
  ['@plant-store/client', 'src/client/index.ts'],
].map(([name, path]) => ({ find: new RegExp(`^${name}$`), replacement: join(repoRoot, path as string) }))

async function measure(work: string, app: App, fromSources: boolean): Promise<Size> {
  const root = join(work, app)
  await mkdir(root, { recursive: true })
  await writeFile(
    join(root, 'index.html'),
    '<!doctype html>\n<script type="module" src="./main.ts"></script>\n',
  )
  await writeFile(join(root, 'main.ts'), apps[app])
  const result = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    resolve: fromSources ? { alias: sources } : {},
    build: { write: false, reportCompressedSize: false, modulePreload: { polyfill: false } },
  })
  const outputs = (Array.isArray(result) ? result : [result]) as { output: (Chunk | { type: 'asset' })[] }[]
  const chunks = new Map<string, Chunk>()
  for (const { output } of outputs)
    for (const item of output) if (item.type === 'chunk') chunks.set(item.fileName, item)
  // The chunks a page loads at start: the entry and, transitively, its static imports.
  const initial = new Set<string>()
  const visit = (name: string) => {
    if (initial.has(name)) return
    initial.add(name)
    for (const next of chunks.get(name)?.imports ?? []) visit(next)
  }
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName)
  const size: Size = { minified: 0, gzip: 0, lazyMinified: 0, lazyGzip: 0 }
  for (const chunk of chunks.values()) {
    const bytes = Buffer.byteLength(chunk.code)
    if (initial.has(chunk.fileName)) {
      size.minified += bytes
      size.gzip += gzipped(chunk.code)
    } else {
      size.lazyMinified += bytes
      size.lazyGzip += gzipped(chunk.code)
    }
  }
  return size
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

/** One line of the table: what a page loads at start, and what only a dynamic import() loads. */
function row(label: string, size: Size): string {
  const lazy = size.lazyMinified > 0 ? `${kB(size.lazyMinified)} / ${kB(size.lazyGzip)}` : '–'
  return `${label.padEnd(40)} ${kB(size.minified).padStart(9)} ${kB(size.gzip).padStart(9)}   ${lazy}`
}

export const minus = (a: Size, b: Size): Size => ({
  minified: a.minified - b.minified,
  gzip: a.gzip - b.gzip,
  lazyMinified: a.lazyMinified - b.lazyMinified,
  lazyGzip: a.lazyGzip - b.lazyGzip,
})

/**
 * Each app's JavaScript. By default from the packages as built (`npm run build`), resolved as an installed
 * app resolves them; `fromSources` builds the packages' TypeScript sources instead.
 */
export async function measureApps({ fromSources = false } = {}): Promise<Record<App, Size>> {
  // Inside the kit's node_modules, so that the apps resolve msw and the packages as an installed app does.
  const cache = join(repoRoot, 'node_modules/.cache')
  await mkdir(cache, { recursive: true })
  const work = await mkdtemp(join(cache, 'bundle-size-'))
  try {
    if (!fromSources)
      for (const name of ['core', 'msw', 'client'])
        await readFile(join(repoRoot, `src/${name}/dist/index.js`)).catch(() => {
          throw new Error(
            `src/${name} is not built: run \`npm run build\` first (\`npm run bench:bundle\` does)`,
          )
        })
    const sizes = {} as Record<App, Size>
    for (const app of Object.keys(apps) as App[]) sizes[app] = await measure(work, app, fromSources)
    return sizes
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isMain) {
  const sizes = await measureApps()
  console.log(`JavaScript of a page built by Vite ${version}, minified and gzipped (level 9):\n`)
  console.log(`${''.padEnd(40)} ${'minified'.padStart(9)} ${'gzip'.padStart(9)}   only on demand (import())`)
  console.log(row('an empty app', sizes.empty))
  console.log(row('msw/browser with one handler', sizes.msw))
  console.log(row('msw/browser with @plant-store/msw', sizes.handlers))
  console.log(row('@plant-store/client', sizes.client))
  console.log('')
  console.log(row('what the handlers add beyond MSW', minus(sizes.handlers, sizes.msw)))
  console.log(row('what the client adds', minus(sizes.client, sizes.empty)))
}
