// `npm run bench [-- --quick]`: loads the real server (dist/) and a bare-Fastify baseline in alternation,
// plus Prism for reference, and the server again with 1,000,000 plants stored (throughput.ts); the
// webhook scenario (webhook-scenario.ts); the cost ledger, the server with each layer taken away, in
// the same scenarios' rounds (ledger.ts); then kill -9 under writes must lose no acknowledged plant; and PostgreSQL where it is
// installed (postgres-scenarios.ts). Prints Markdown tables and writes the full figures to reports/
// (results.ts). Options are in settings.ts; bench/README.md explains the run and its columns.
import { existsSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as commands from '../scripts/lib/commands.js'
import { claims, KeySet, sign, signingKey } from '../scripts/lib/key-set.js'
import { type Cluster, findPostgres, INSTALL_HINT, startCluster } from '../scripts/lib/postgres.js'
import { killAllNow, repoRoot, type Started } from '../scripts/lib/processes.js'
import { checkDurability, type DurabilityResult } from './durability.js'
import { type HandlersResult, measureHandlers } from './handlers.js'
import { candidateName, launcher } from './launch.js'
import { type Ledger, ledgerOf, rowKey } from './ledger.js'
import { runPostgres } from './postgres-scenarios.js'
import type { Growth, Row } from './report.js'
import { collectPages } from './requests.js'
import { report } from './results.js'
import { commandLineSettings } from './settings.js'
import { baselineCommand, buildBenchScripts, compareStarts, serveWithoutScript } from './starts.js'
import { fillStore } from './store.js'
import { runThroughput, smallLabel } from './throughput.js'
import { measureVerify, type VerifyResult } from './verify.js'
import { runWebhookScenario } from './webhook-scenario.js'
import type { WebhookResult } from './webhooks.js'

const root = repoRoot
const began = performance.now()

const { args, settings, only } = commandLineSettings()
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
const { startServer, startOther, serverStarts, stopAll } = launcher({
  dir,
  keySet,
  principals: [READER, WRITER],
  profileDir: args['cpu-prof'] ? profileDir : undefined,
})

const rows: Row[] = []

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

  await buildBenchScripts()
  const baseline = await startOther(baselineCommand())
  const server = await startServer(`sqlite:${smallDb}`, 'small', true)
  const serverLarge = settings.largeStore ? await startServer(`sqlite:${largeDb}`, 'large', true) : undefined
  const candidates: { name: string; process: Started }[] = []
  for (const [i, script] of (args.candidate ?? []).entries()) {
    const name = candidateName(script, i)
    const db = join(dir, `candidate-${i + 1}.db`)
    const built = [resolve(script)]
    // Its own start makes its tables: a build from before a schema step refuses this checkout's schema.
    await fillStore(db, READER.principal, settings.smallStore, async (file) => {
      await (await startServer(`sqlite:${file}`, 'candidate', false, built)).stop()
    })
    candidates.push({
      name,
      process: await startServer(`sqlite:${db}`, 'candidate', true, built),
    })
  }
  // The ledger's servers, each without some layers, on a store like the server's: further targets of
  // the createPlant, getPlant and listPlants scenarios (throughput.ts).
  const without: { key: string; process: Started }[] = []
  if (wanted('ledger')) {
    for (const layers of settings.ledgerRows) {
      const key = rowKey(layers)
      const db = join(dir, `ledger-${key}.db`)
      await fillStore(db, READER.principal, settings.smallStore)
      without.push({
        key,
        process: await startServer(`sqlite:${db}`, 'ledger', false, [serveWithoutScript, layers.join(',')]),
      })
    }
  }
  const prism = settings.prism ? await startOther({ ...commands.prismMock(), name: 'prism' }) : undefined

  const pagesSmall = await collectPages(server.url, READER.token)
  const pagesLarge = serverLarge ? await collectPages(serverLarge.url, READER.token) : []
  rows.push(
    ...(await runThroughput(
      settings,
      { baseline, server, serverLarge, candidates, without, prism, pagesSmall, pagesLarge },
      { reader: READER.token, readerJwt, writer: WRITER.token },
      // The ledger's rows are read from these scenarios' rounds: wanting it runs them.
      (name) => wanted(name) || wanted('ledger'),
    )),
  )
  if (wanted('ledger')) {
    ledger = ledgerOf(
      rows,
      settings.ledgerRows,
      candidates.map((c) => c.name),
      smallLabel(settings),
    )
    const ledgerRows = new Set(ledger.rows)
    rows.splice(0, rows.length, ...rows.filter((row) => !ledgerRows.has(row)))
  }

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

  if (wanted('handlers')) {
    console.error('  handlers: the in-process handlers, import to first answer and per answer')
    inProcess = await measureHandlers(root, quick ? 100 : 2_000)
  }
  if (wanted('verify')) {
    console.error('  verify: plant-store-verify against a fresh server, beside a bare request loop')
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
  console.error(`  starts: the baseline and the server, ${settings.starts} each, alternating`)
  const starts = await compareStarts(
    settings.starts,
    (i) => startOther(baselineCommand(`baseline, start ${i + 1}`)),
    () => startServer(`sqlite:${smallDb}`, 'start', false),
  )

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

  report(
    {
      settings,
      dir,
      rows,
      postgresGrowth,
      serverStarts,
      starts,
      fillMs,
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
      seconds: (performance.now() - began) / 1000,
      durability,
      handlers: inProcess,
      verified,
      webhooks,
      sendingCpuUsPerEvent,
      ledger,
      profileDir: args['cpu-prof'] ? profileDir : undefined,
    },
    reportsDir,
    stamp,
  )
} catch (error) {
  failure = error
} finally {
  await stopAll()
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
