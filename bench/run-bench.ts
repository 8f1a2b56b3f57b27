// `npm run bench [-- --quick]`: loads the real server (dist/) and a bare-Fastify baseline in alternation,
// plus Prism for reference, and the server again with 1,000,000 plants stored; the webhook scenario
// (webhook-scenario.ts); the cost ledger, the server with each layer taken away (ledger.ts); then
// kill -9 under writes must lose no acknowledged plant; and PostgreSQL where it is installed
// (postgres-scenarios.ts). Prints Markdown tables and writes the full figures to reports/.
// Options are listed in parseArgs below; bench/README.md explains the run and its columns.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { RequestEntry } from 'autocannon'
import * as commands from '../scripts/lib/commands.js'
import { claims, KeySet, sign, signingKey } from '../scripts/lib/key-set.js'
import { type Cluster, findPostgres, INSTALL_HINT, startCluster } from '../scripts/lib/postgres.js'
import { killAllNow, repoRoot, type Started, startProcess } from '../scripts/lib/processes.js'
import { checkDurability, type DurabilityResult } from './durability.js'
import { type HandlersResult, measureHandlers } from './handlers.js'
import { type Ledger, ledgerTable, runLedger } from './ledger.js'
import { runPostgres, scalingLine } from './postgres-scenarios.js'
import { type Growth, growthOf, growthTable, type Row, resultsTable } from './report.js'
import { collectPages, createPlant, getPlant, listPages } from './requests.js'
import { runScenario, type Scenario, type Target } from './scenarios.js'
import { benchSettings } from './settings.js'
import { fillStore } from './store.js'
import {
  durabilityLine,
  failureOf,
  fsType,
  handlersLine,
  startsLine,
  verifyLine,
  webhookLine,
} from './summary.js'
import { measureVerify, type VerifyResult } from './verify.js'
import { runWebhookScenario, WEBHOOK_CPU_RATE } from './webhook-scenario.js'
import type { WebhookResult } from './webhooks.js'

const root = repoRoot
const began = performance.now()

// A mistyped option is told in one line, not as a stack.
const { args, settings, only } = (() => {
  try {
    return benchSettings()
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`)
    process.exit(2)
  }
})()
const quick = settings.quick

const READER = { principal: 'alice', token: 'token-a' }
const WRITER = { principal: 'bob', token: 'token-b' }
// Tokens from an identity provider too: the getPlant scenario reads as READER with a JWT, to measure
// what verifying one on every request costs beside a static token.
const keySet = new KeySet()
const readerKey = await signingKey('bench')
await keySet.publish(readerKey)
await keySet.start()
const readerJwt = await sign(
  readerKey,
  claims({ sub: READER.principal, exp: Math.floor(Date.now() / 1000) + 86_400 }),
)

if (!existsSync(join(root, 'src', 'server', 'dist', 'server.js'))) {
  throw new Error('src/server/dist/server.js is missing: run `npm run build` first')
}

const dir = await mkdtemp(join(tmpdir(), 'plant-bench-'))
// Removed however the run ends (Ctrl-C included), unless asked to keep it or a failure needs its logs.
let keepDir = args.keep === true
process.once('exit', () => {
  if (!keepDir) rmSync(dir, { recursive: true, force: true })
})
const reportsDir = join(root, 'reports')
const stamp = new Date().toISOString().replaceAll(':', '-').replace(/\..*/, '')
const profileDir = join(reportsDir, `profiles-${stamp}`)
const started: Started[] = []
const serverStarts: { store: string; ms: number }[] = []
let logCount = 0

// The real server as production runs it: file storage, auth, info logging (to a file in `dir`).
async function startServer(
  databaseUrl: string,
  store: string,
  profiled: boolean,
  /** What node runs in place of dist/server.js: another build, or the ledger's server-less-a-layer. */
  script?: string[],
  env: Record<string, string> = {},
): Promise<Started> {
  const profile = profiled && args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const command = commands.server({
    name: `server (${store})`,
    built: true,
    env: {
      NODE_ENV: 'production',
      ...commands.generousLimits,
      DATABASE_URL: databaseUrl,
      AUTH_TOKENS: `${READER.principal}:${READER.token},${WRITER.principal}:${WRITER.token}`,
      ...keySet.env(),
      ...env,
    },
    logFile: join(dir, `server-${++logCount}.log`),
  })
  const [, ...rest] = command.args
  const server = await startProcess({
    ...command,
    args: [...profile, ...(script ?? [command.args[0] ?? '']), ...rest],
  })
  serverStarts.push({ store, ms: server.startMs })
  started.push(server)
  return server
}

/**
 * A candidate is named after the checkout it was built in (/work/try-x/src/server/dist/server.js →
 * try-x), or else the directory that holds its dist/ (/tmp/exp-nocors/dist/server.js → exp-nocors).
 */
function candidateName(script: string, i: number): string {
  const path = resolve(script)
  return (
    /([^/]+)\/src\/server\/dist\/[^/]+$/.exec(path)?.[1] ??
    /([^/]+)\/dist\/[^/]+$/.exec(path)?.[1] ??
    `candidate ${i + 1}`
  )
}

async function startOther(options: Parameters<typeof startProcess>[0]): Promise<Started> {
  const other = await startProcess({ ...options, logFile: join(dir, `${options.name}.log`) })
  started.push(other)
  return other
}

const rows: Row[] = []
const rowOf = (scenario: string, target: string) =>
  rows.find((r) => r.scenario === scenario && r.target === target)

// ---- The run -----------------------------------------------------------------------------------------

const wanted = (name: string) =>
  only === undefined || only.some((prefix) => name.toLowerCase().startsWith(prefix.toLowerCase()))

let durability: DurabilityResult | undefined
let inProcess: HandlersResult | undefined
let verified: VerifyResult | undefined
let webhooks: WebhookResult | undefined
let sendingCpuUsPerEvent = Number.NaN
let ledger: Ledger | undefined
let cluster: Cluster | undefined
let postgresGrowth: Growth[] = []
let failure: unknown
const loadBefore = loadavg()[0] ?? 0
try {
  console.error(`bench: ${quick ? 'quick' : 'full'} run in ${dir}`)
  const smallDb = join(dir, 'small.db')
  const largeDb = join(dir, 'large.db')
  let fillMs = performance.now()
  await fillStore(smallDb, READER.principal, settings.smallStore)
  if (settings.largeStore) await fillStore(largeDb, READER.principal, settings.largeStore)
  fillMs = performance.now() - fillMs
  console.error(`  stores filled in ${(fillMs / 1000).toFixed(1)} s`)

  const baseline = await startOther({
    name: 'baseline',
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'bench', 'baseline-server.ts')],
    listening: commands.serverListening,
  })
  const server = await startServer(`sqlite:${smallDb}`, 'small', true)
  const serverLarge = settings.largeStore ? await startServer(`sqlite:${largeDb}`, 'large', true) : undefined
  const candidates: { name: string; process: Started }[] = []
  for (const [i, script] of (args.candidate ?? []).entries()) {
    const name = candidateName(script, i)
    const db = join(dir, `candidate-${i + 1}.db`)
    await fillStore(db, READER.principal, settings.smallStore)
    candidates.push({
      name,
      process: await startServer(`sqlite:${db}`, 'candidate', true, [resolve(script)]),
    })
  }
  const prism = settings.prism ? await startOther({ ...commands.prismMock(), name: 'prism' }) : undefined

  const small = `${settings.smallStore.toLocaleString('en-US')} plants`
  const large = `${(settings.largeStore ?? 0).toLocaleString('en-US')} plants`
  const pagesSmall = await collectPages(server.url, READER.token)
  const pagesLarge = serverLarge ? await collectPages(serverLarge.url, READER.token) : []

  // Each scenario: the baseline first, then the server (and the candidates) on the small store, then the
  // server on the large one. `requests` is told which store, by its size and its pages.
  type Make = (size: number, pages: string[]) => RequestEntry[]
  const targets = (make: Make, named: boolean): Target[] => {
    const label = (who: string, size: string) => (named ? `${who}, ${size}` : who)
    const list: Target[] = [
      { name: 'baseline', process: baseline, requests: () => make(settings.smallStore, pagesSmall) },
      {
        name: label('server', small),
        process: server,
        requests: () => make(settings.smallStore, pagesSmall),
      },
    ]
    for (const candidate of candidates) {
      list.push({
        name: label(candidate.name, small),
        process: candidate.process,
        requests: () => make(settings.smallStore, pagesSmall),
      })
    }
    if (serverLarge && settings.largeStore && named) {
      const size = settings.largeStore
      list.push({
        name: label('server', large),
        process: serverLarge,
        requests: () => make(size, pagesLarge),
      })
    }
    return list
  }
  const scenarios: Scenario[] = [
    {
      name: 'createPlant',
      targets: [
        ...targets(() => createPlant(WRITER.token), false),
        // Prism checks that a bearer token is present, not which.
        ...(prism ? [{ name: 'prism', process: prism, requests: () => createPlant('any-token') }] : []),
      ],
    },
    {
      name: 'getPlant',
      targets: [
        ...targets((size) => getPlant(READER.token, size), true),
        {
          name: `server, ${small}, JWT (RS256)`,
          process: server,
          requests: () => getPlant(readerJwt, settings.smallStore),
        },
      ],
    },
    { name: 'listPlants limit 50', targets: targets((_size, pages) => listPages(READER.token, pages), true) },
  ]
  for (const scenario of scenarios)
    if (wanted(scenario.name)) rows.push(...(await runScenario(scenario, settings)))

  if (wanted('webhooks')) {
    const scenario = await runWebhookScenario({
      settings,
      dir,
      writer: WRITER.token,
      writerPrincipal: WRITER.principal,
      startServer: (url, store, env) => startServer(url, store, true, undefined, env),
      startOther,
    })
    rows.push(...scenario.rows)
    webhooks = scenario.delivery
    sendingCpuUsPerEvent = scenario.sendingCpuUsPerEvent
  }

  if (wanted('ledger')) {
    console.error('  ledger: the server with each layer taken away in turn')
    ledger = await runLedger({
      settings: { ...settings, ...settings.ledger },
      baseline,
      storeSize: settings.smallStore,
      reader: READER.token,
      writer: WRITER.token,
      start: async (without) => {
        const db = join(dir, `ledger-${without || 'full'}.db`)
        await fillStore(db, READER.principal, settings.smallStore)
        const script = without
          ? ['--import', 'tsx', join(root, 'bench', 'serve-without.ts'), without]
          : undefined
        return startServer(`sqlite:${db}`, 'ledger', false, script)
      },
      without: settings.ledger.without,
      candidates: (args.candidate ?? []).map((script, i) => ({
        name: candidateName(script, i),
        start: async () => {
          const db = join(dir, `ledger-candidate-${i + 1}.db`)
          await fillStore(db, READER.principal, settings.smallStore)
          return startServer(`sqlite:${db}`, 'ledger', false, [resolve(script)])
        },
      })),
    })
  }
  if (wanted('handlers')) {
    console.error('  handlers: the in-process handlers, import to first answer and per answer')
    inProcess = await measureHandlers(root, quick ? 100 : 2_000)
  }
  if (wanted('verify')) {
    console.error('  verify: plant-store-verify against a fresh server, beside a bare fetch loop')
    const fresh = await startServer(`sqlite:${join(dir, 'verify.db')}`, 'verify', false)
    verified = await measureVerify(
      root,
      fresh.url,
      [READER.token, WRITER.token],
      quick ? { requests: 100, sequences: 10 } : { requests: 2000, sequences: 200 },
    )
    await fresh.stop()
  }
  if (wanted('durability')) {
    console.error('  durability: kill -9 under createPlant load')
    durability = await checkDurability({
      start: () => startServer(`sqlite:${join(dir, 'durability.db')}`, 'durability', false),
      authorization: `Bearer ${WRITER.token}`,
      connections: settings.connections,
      cycles: settings.durabilityCycles,
      killAfter: settings.killAfter,
      file: join(dir, 'durability.db'),
    })
  }

  // Stopped, not killed: a server run with --cpu-prof writes its profile as it exits.
  await server.stop()
  if (serverLarge) await serverLarge.stop()
  for (const candidate of candidates) await candidate.process.stop()
  for (let i = 0; i < settings.extraStarts; i++)
    await (await startServer(`sqlite:${largeDb}`, 'large', false)).stop()

  if (wanted('postgresql')) {
    if (await findPostgres()) {
      cluster = await startCluster()
      const postgres = await runPostgres(cluster, {
        settings,
        startServer: (url, store) => startServer(url, store, false),
        reader: READER,
        writer: WRITER.token,
      })
      rows.push(...postgres.rows)
      postgresGrowth = postgres.growth
    } else console.error(`  PostgreSQL scenarios skipped: ${INSTALL_HINT}`)
  }

  // ---- Report ----------------------------------------------------------------------------------------
  const growth: Growth[] = []
  for (const scenario of ['getPlant', 'listPlants limit 50']) {
    const a = rowOf(scenario, `server, ${small}`)
    const b = rowOf(scenario, `server, ${large}`)
    if (a && b) growth.push(growthOf(scenario, a, b))
  }

  const seconds = (performance.now() - began) / 1000
  const loadAfter = loadavg()[0] ?? 0
  const answered = [...rows, ...(ledger?.rows ?? [])].reduce(
    (n, r) => n + Object.values(r.statusCodes).reduce((a, b) => a + b, 0),
    0,
  )
  if (quick) {
    // A second of load says nothing about speed: the quick run only proves the script works.
    console.log(
      `bench --quick: the benchmark script works (${rows.length + (ledger?.rows.length ?? 0)} targets loaded, ${answered} requests, ` +
        `every answer a success${durability ? `, ${durability.acknowledged} creates survived kill -9` : ''}); ` +
        'its figures are not measurements: run `npm run bench` for those.',
    )
  } else {
    const header = [
      `Plant store benchmark, ${new Date().toISOString()}`,
      `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ` +
        `${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after; autocannon in-process, ` +
        `${settings.connections} connections, ${settings.rounds} round(s) × ${settings.duration} s per target, ` +
        `alternating; server logs at info to a file; store files on ${fsType(dir)}`,
    ].join('\n')
    console.log(`\n${header}\n\n${resultsTable(rows)}\n`)
    if (growth.length > 0)
      console.log(`${growthTable(growth, settings.smallStore, settings.largeStore ?? 0)}\n`)
    if (postgresGrowth.length > 0) {
      console.log(
        `On PostgreSQL:\n\n${growthTable(postgresGrowth, settings.smallStore, settings.largePostgresStore)}\n`,
      )
    }
    const scaling = scalingLine(rows, settings.smallStore)
    if (scaling) console.log(`${scaling}\n`)
    if (ledger)
      console.log(
        `What each layer costs (CPU µs per request; "saves": what the server spends less without it):\n\n${ledgerTable(ledger)}\n`,
      )
    if (durability) console.log(durabilityLine(durability))
    console.log(startsLine(serverStarts, baseline.startMs))
  }

  mkdirSync(reportsDir, { recursive: true })
  const reportFile = join(reportsDir, `bench-${quick ? 'quick-' : ''}${stamp}.json`)
  const report = {
    settings,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      fs: fsType(dir),
      loadAverage: { before: loadBefore, after: loadAfter },
    },
    fillSeconds: fillMs / 1000,
    rows,
    growth,
    postgresGrowth,
    serverStarts,
    durability,
    handlers: inProcess,
    verify: verified,
    webhooks,
    ledger,
    profiles: args['cpu-prof'] ? profileDir : undefined,
    totalSeconds: seconds,
  }
  if (inProcess) console.log(handlersLine(inProcess))
  if (verified) console.log(verifyLine(verified))
  if (webhooks)
    console.log(webhookLine(webhooks, rows, settings.rate ?? WEBHOOK_CPU_RATE, sendingCpuUsPerEvent))
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`)
  if (!quick) console.log(`\nFull figures: ${reportFile}`)
  if (args['cpu-prof'])
    console.log(`CPU profiles: ${profileDir} (read with: npx tsx bench/profile-summary.ts FILE)`)
  if (!quick) console.log(`Total time ${seconds.toFixed(0)} s.`)

  // Timings are never asserted; these are failures of function, which the quick mode exists to catch.
  const broken = failureOf({ rows: [...rows, ...(ledger?.rows ?? [])], durability, webhooks, verified })
  if (broken) throw new Error(broken)
} catch (error) {
  failure = error
} finally {
  await Promise.allSettled(started.map((p) => p.stop()))
  await cluster?.destroy()
  await keySet.close()
  killAllNow()
}
if (failure) {
  console.error(`\nbench failed: ${failure instanceof Error ? (failure.stack ?? failure.message) : failure}`)
  keepDir = true
  console.error(`Logs kept in ${dir}`)
  process.exit(1)
}
if (keepDir) console.error(`Files kept in ${dir}`)
