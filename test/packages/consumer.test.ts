// A frontend team's first week with the packed packages: a Vite + React + TypeScript app
// (test/packages/consumer-app/) installed from the tarballs and the registry, type-checked strict, and
// used in Chromium against the plant store three ways: MSW's service worker in the page (Vite's dev
// server, and a preview of its build), the sandbox behind Vite's proxy, and the sandbox over CORS. In each
// the app reads one plant, pages through the list, adds plants and shows a refusal's message. Its own
// vitest run records its consumer contract, which the compatibility gate then judges drafts against; its
// own test in vitest's browser mode records one too, through @plant-store/msw/vitest.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JSON_SCHEMA, load } from 'js-yaml'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { generousLimits, sandbox } from '../../scripts/lib/commands.js'
import { freePort, repoRoot, runToExit, type Started, startProcess } from '../../scripts/lib/processes.js'
import {
  joinContracts,
  parseContract,
  readPaths,
  serializeContract,
  specPath,
} from '../../scripts/lib/spec.js'
import { chromiumMissing, chromiumPath, launchChromium } from '../helpers/chromium.js'
import { npmInstall, ownEnv, range, run, runVitest } from './scratch.js'

const missing = chromiumMissing()
const bigId = '9007199254740993' // 2^53 + 1: a JavaScript number would show it as …992

let work = ''
let app = ''

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plant-store-consumer-'))
  const packed = inject('tarballs')
  const tarballs = ['core', 'client', 'msw'].map((name) => packed[`@plant-store/${name}`] as string)
  app = join(work, 'consumer-app')
  await cp(join(repoRoot, 'test/packages/consumer-app'), app, { recursive: true })
  const tools = [
    'vite',
    '@vitejs/plugin-react',
    'react',
    'react-dom',
    '@tanstack/react-query',
    'msw',
    'typescript',
    'vitest',
    'jsdom',
    '@types/react',
    '@types/react-dom',
    '@types/node',
  ]
  const installed = await npmInstall(app, [
    ...tarballs,
    // jsdom is the app's alone (the kit has none): the major its tests were written against.
    ...tools.map((name) => `${name}@${name === 'jsdom' ? '^31.0.1' : range(name)}`),
    // Vitest's browser mode, driving the machine's Chromium: its provider goes with vitest's version.
    `@vitest/browser-playwright@${range('vitest')}`,
    `playwright@${range('playwright-core')}`,
  ])
  expect(installed.exit, installed.output).toBe(0)
  console.log(
    `the app's packages installed from the tarballs and the registry in ${installed.seconds.toFixed(1)} s`,
  )
  // MSW's worker script into the app's public folder, as its docs have a team do.
  const init = await run(app, 'npx', ['msw', 'init', 'public', '--save'])
  expect(init.exit, init.output).toBe(0)
}, 300_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

// The client README's React code, marked `<!-- consumer-app: FILE -->`: each run of lines between `// …`
// lines is in the app's file as it is written, so the README shows code this test runs.
it("holds the client README's React code as the README shows it", async () => {
  const readme = await readFile(join(repoRoot, 'src/client/README.md'), 'utf8')
  const blocks = [...readme.matchAll(/<!-- consumer-app: (\S+) -->\n```tsx?\n([\s\S]*?)```/g)]
  expect(blocks.map((block) => block[1])).toEqual(['src/app.tsx', 'vite.config.ts'])
  for (const [, file = '', code = ''] of blocks) {
    const source = await readFile(join(repoRoot, 'test/packages/consumer-app', file), 'utf8')
    for (const excerpt of code.split(/^\/\/ …\n/m)) expect(source, file).toContain(excerpt)
  }
})

it('type-checks strict with tsc --noEmit against the installed packages', async () => {
  const { exit, output } = await run(app, 'npx', ['tsc', '--noEmit'])
  expect(exit, output).toBe(0)
})

/**
 * The environment of an app's test run recording its contract to `file`: the contract's lock and run
 * marker go to the temporary folder, here one in the app rather than the machine's.
 */
async function recording(file: string): Promise<Record<string, string>> {
  await mkdir(join(app, '.tmp'), { recursive: true })
  return { PLANT_STORE_CONTRACT: file, TMPDIR: join(app, '.tmp') }
}

// The app's consumer contract, as its own test run records it, kept in the repository's folder of them.
const committed = join(repoRoot, 'contracts/consumers/plant-store-consumer-app.json')
let contract = ''

it('runs its own tests under vitest with jsdom, recording its consumer contract', async () => {
  const { exit, total, passed, shown } = await runVitest(app, await recording('plant-store-contract.json'))
  expect(exit, shown).toBe(0)
  expect(total, shown).toBe(3)
  expect(passed, shown).toBe(total)
  contract = await readFile(join(app, 'plant-store-contract.json'), 'utf8')
  const recorded = parseContract(contract)
  expect(recorded.consumer).toBe('plant-store-consumer-app')
  expect(
    Object.values(recorded.paths)
      .flatMap((item) => Object.values(item).map((op) => op?.operationId))
      .sort(),
  ).toEqual(['createPlant', 'getPlant', 'listPlants'])
  // The same tests, the same file: the one in contracts/consumers/ is this app's as it stands
  // (`npx vitest run --config test/packages/vitest.config.ts consumer -u` records it again).
  await expect(contract).toMatchFileSnapshot(committed)
})

describe.skipIf(missing)("the app's own test in Chromium, in vitest's browser mode", () => {
  it('records its contract through @plant-store/msw/vitest, what it does under jsdom', async () => {
    const env = { ...(await recording('browser-contract.json')), CHROMIUM_PATH: chromiumPath() ?? '' }
    const { exit, total, passed, shown } = await runVitest(app, env, ['--config', 'vitest.browser.config.ts'])
    expect(exit, shown).toBe(0)
    expect(total, shown).toBe(1)
    expect(passed, shown).toBe(total)
    const recorded = parseContract(await readFile(join(app, 'browser-contract.json'), 'utf8'))
    expect(recorded.consumer).toBe('plant-store-consumer-app')
    const reads = (path: string, method: 'get' | 'post', status: string) =>
      readPaths(
        recorded.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema,
      ).sort()
    // What the app's code reads: a plant's id, name and tag, a refusal's message.
    expect(reads('/plants/{id}', 'get', '200')).toEqual(['id', 'name', 'tag'])
    expect(reads('/plants', 'get', '200')).toEqual(['[].id', '[].name', '[].tag'])
    expect(reads('/plants/{id}', 'get', '404')).toEqual(['message'])
    expect(reads('/plants', 'post', '409')).toEqual(['message'])
    // Nothing the same app test does not do under jsdom, whose contract holds the other test's calls too.
    expect(contract, 'the app recorded its contract under jsdom').not.toBe('')
    expect(serializeContract(joinContracts(parseContract(contract), recorded))).toBe(contract)
  })
})

describe("the compatibility gate on drafts, with the app's recorded contract", () => {
  let work = ''
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'plant-store-consumer-compat-'))
    await mkdir(join(work, 'consumers'))
    await writeFile(join(work, 'consumers', 'app.json'), contract)
  })
  afterAll(() => rm(work, { recursive: true, force: true }))

  /** `npm run compat -- --no-replay` on spec/openapi.yaml edited by `edit`, against the app's contract. */
  async function judge(name: string, edit: (plant: Record<string, Record<string, unknown>>) => void) {
    expect(contract, 'the app recorded its contract').not.toBe('')
    const doc = load(await readFile(specPath, 'utf8'), { schema: JSON_SCHEMA }) as {
      components: { schemas: { Plant: { properties: Record<string, Record<string, unknown>> } } }
    }
    edit(doc.components.schemas.Plant.properties)
    // JSON is YAML: the draft needs no YAML writer.
    await writeFile(join(work, `${name}.yaml`), JSON.stringify(doc, null, 2))
    const args = ['--no-replay', '--spec', join(work, `${name}.yaml`), '--consumers', join(work, 'consumers')]
    return runToExit({
      name: `compat ${name}`,
      command: process.execPath,
      args: ['--import', 'tsx', 'contracts/compat/run-compat.ts', '--reports', join(work, name), ...args],
      cwd: repoRoot,
      env: { NO_COLOR: '1' },
      timeoutMs: 60_000,
    })
  }
  const line = 'plant-store-consumer-app \\(recorded against Plant Store [\\d.]+\\)'

  it('breaks the app when a property it reads is renamed', async () => {
    const { exit, output } = await judge('renamed', (plant) => {
      plant.label = plant.tag as Record<string, unknown>
      delete plant.tag
    })
    expect(exit, output).toBe(1)
    expect(output).toMatch(new RegExp(`^  ${line}: BREAKS$`, 'm'))
    expect(output).toMatch(
      /^ {4}breaking {2}getPlant \(GET \/plants\/\{id\}\) response 200: tag {2}response-property-removed/m,
    )
    expect(output).toMatch(
      /^ {4}breaking {2}listPlants \(GET \/plants\) response 200: \[\]\.tag {2}response-property-removed/m,
    )
  })

  it('breaks the app when a bound is narrowed below a value it sends', async () => {
    const { exit, output } = await judge('narrowed', (plant) => {
      if (plant.name) plant.name.maxLength = 5
    })
    expect(exit, output).toBe(1)
    expect(output).toMatch(new RegExp(`^  ${line}: BREAKS$`, 'm'))
    expect(output).toMatch(
      /^ {4}breaking {2}createPlant \(POST \/plants\) request body: name {2}request-bound-narrowed — it sends values up to \d+ characters long; the draft's maxLength is 5$/m,
    )
  })

  it('serves the app when a bound is narrowed above what it sends, though the general gate says breaking', async () => {
    const { exit, output } = await judge('narrowed-above', (plant) => {
      if (plant.name) plant.name.maxLength = 100
    })
    expect(exit, output).toBe(1)
    expect(output).toMatch(new RegExp(`^  ${line}: served: no change touches what it sends or reads$`, 'm'))
    expect(output).toMatch(
      /maxLength \(none\) → 100; NOT ALLOWED: [^\n]+; safe for every recorded consumer \(plant-store-consumer-app\)$/m,
    )
  })

  it('serves the app when an optional property is added, and passes', async () => {
    const { exit, output } = await judge('added', (plant) => {
      plant.colour = { type: 'string', maxLength: 32 }
    })
    expect(exit, output).toBe(0)
    expect(output).toMatch(new RegExp(`^  ${line}: served: no change touches what it sends or reads$`, 'm'))
  })
})

/** Vite's dev server or preview, on the free port it got (its "Local:" line). */
function vite(args: string[], env: Record<string, string> = {}): Promise<Started> {
  return startProcess({
    name: `vite ${args.join(' ')}`,
    command: join(app, 'node_modules/.bin/vite'),
    args,
    cwd: app,
    cleanEnv: true,
    env: { ...ownEnv, NO_COLOR: '1', ...env },
    listening: /Local:\s+(http:\/\/\S+?)\/?$/,
    timeoutMs: 60_000,
  })
}

const items = (page: Page, testId: string) => () => page.getByTestId(testId).locator('li').allTextContents()
const within = { timeout: 15_000 }

/** What a user does in the app, against whichever store it was opened on, checked as it goes. */
async function useTheApp(page: Page): Promise<void> {
  const plants = items(page, 'plants')
  const more = page.getByRole('button', { name: 'More plants' })
  const pages = page.getByTestId('pages')
  const plant = page.getByTestId('plant')

  // The example plants, two a page, every page loaded.
  await expect.poll(plants, within).toEqual(['1: Basil (herb)', '2: Fern'])
  await more.click()
  await expect.poll(() => pages.textContent(), within).toBe('2 pages')
  expect(await plants()).toEqual(['1: Basil (herb)', '2: Fern', '3: Mint (herb)'])
  expect(await more.count()).toBe(0)

  // A plant not there yet: the store's 404 message.
  await page.getByLabel('Plant id', { exact: true }).fill(bigId)
  await page.getByRole('button', { name: 'Look up' }).click()
  await expect.poll(() => plant.textContent(), within).toBe(`plant ${bigId} not found`)

  const add = async (id: string, name: string, tag: string) => {
    await page.getByLabel('New plant id').fill(id)
    await page.getByLabel('New plant name').fill(name)
    await page.getByLabel('New plant tag').fill(tag)
    await page.getByRole('button', { name: 'Add plant' }).click()
  }
  await add(bigId, 'Giant fern', 'fern')
  await expect.poll(items(page, 'added'), within).toEqual(['Giant fern (fern)'])
  // The invalidated plant is read again, digit for digit.
  await expect.poll(() => plant.textContent(), within).toBe(`${bigId}: Giant fern (fern)`)
  await add('4', 'Sage', 'herb')
  await expect.poll(items(page, 'added'), within).toEqual(['Giant fern (fern)', 'Sage (herb)'])
  // The invalidated list is read again: its two pages now hold four plants, and a third follows.
  await expect
    .poll(plants, within)
    .toEqual(['1: Basil (herb)', '2: Fern', '3: Mint (herb)', '4: Sage (herb)'])
  await more.click()
  await expect.poll(() => pages.textContent(), within).toBe('3 pages')
  expect(await plants()).toEqual([
    '1: Basil (herb)',
    '2: Fern',
    '3: Mint (herb)',
    '4: Sage (herb)',
    `${bigId}: Giant fern (fern)`,
  ])
  expect(await more.count()).toBe(0)

  // Refused: the id is taken; the store's own message is shown, and nothing is added.
  await add(bigId, 'Another fern', '')
  await expect.poll(() => page.getByRole('alert').textContent(), within).toBe(`plant ${bigId} already exists`)
  expect(await items(page, 'added')()).toEqual(['Giant fern (fern)', 'Sage (herb)'])
}

describe.skipIf(missing)('the app in Chromium', () => {
  let browser: Browser
  let sandboxUrl = ''
  let dev: Started | undefined
  let store: Started | undefined
  let preview: Started | undefined

  beforeAll(async () => {
    // The sandbox's address is fixed first, so that Vite's proxy and the page know it, and the sandbox
    // then allows the dev server's origin alone. The port is free when picked, but another test file's
    // process may take it before the sandbox listens: then both start again on another, three times at most.
    for (let attempt = 1; ; attempt++) {
      sandboxUrl = `http://127.0.0.1:${await freePort()}`
      dev = await vite([], { SANDBOX_URL: sandboxUrl, VITE_SANDBOX_URL: sandboxUrl })
      try {
        store = await startProcess({
          ...sandbox({
            listen: { host: '127.0.0.1', port: Number(new URL(sandboxUrl).port) },
            env: { ...generousLimits, CORS_ORIGIN: new URL(dev.url).origin },
            cleanEnv: true,
          }),
          timeoutMs: 30_000,
        })
        break
      } catch (error) {
        await dev.stop()
        if (attempt === 3 || !/ is in use: /.test((error as Error).message)) throw error
      }
    }
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([dev?.stop(), store?.stop(), preview?.stop()])
  })

  /** A fresh browser context (its own service workers and storage) on a page of the app. */
  async function open(url: string): Promise<Page> {
    const context = await browser.newContext()
    const page = await context.newPage()
    // What the page throws is what a failed step would need to be understood.
    page.on('pageerror', (error) => console.error(`page error at ${url}: ${error.message}`))
    await page.goto(url)
    return page
  }

  it('through MSW in the page, served by the dev server', async () => {
    const page = await open(`${dev?.url}/?store=msw`)
    await useTheApp(page)
    await page.context().close()
  }, 60_000)

  it("through Vite's proxy to the sandbox, Link's next page staying below /api", async () => {
    const page = await open(`${dev?.url}/?store=proxy&token=through-the-proxy`)
    await useTheApp(page)
    // Link followed as the page's fetch resolves it: the next page is the sandbox's, not Vite's index.html.
    const next = await page.evaluate(async () => {
      const headers = { authorization: 'Bearer link-follower' }
      const first = await fetch('/api/plants?limit=2', { headers })
      const link = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? ''
      const address = new URL(link, first.url)
      const second = await fetch(address, { headers })
      return { path: address.pathname, type: second.headers.get('content-type'), body: await second.text() }
    })
    expect(next.path).toBe('/api/plants')
    expect(next.type).toMatch(/^application\/json/)
    expect(JSON.parse(next.body)).toEqual([{ id: 3, name: 'Mint', tag: 'herb' }])
    await page.context().close()
  }, 60_000)

  it('over CORS to the sandbox, which allows the dev server origin', async () => {
    const page = await open(`${dev?.url}/?store=cors&token=over-cors`)
    await useTheApp(page)
    await page.context().close()
  }, 60_000)

  it('through MSW in the page, served by a preview of the build; another origin is refused by the sandbox', async () => {
    const built = await run(app, 'npx', ['vite', 'build'])
    expect(built.exit, built.output).toBe(0)
    preview = await vite(['preview'])
    const page = await open(`${preview.url}/?store=msw`)
    await useTheApp(page)
    // The preview's origin is not the one CORS_ORIGIN names: the browser refuses the sandbox's answer.
    const refused = await page.evaluate(
      (url) =>
        fetch(`${url}/plants`, { headers: { authorization: 'Bearer elsewhere' } }).then(
          (answer) => `answered ${answer.status}`,
          (error: unknown) => String(error),
        ),
      sandboxUrl,
    )
    expect(refused).toMatch(/^TypeError/)
    await page.context().close()
  }, 90_000)
})
