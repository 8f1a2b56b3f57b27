// `npm run bench [-- --quick]`: loads the real server (dist/) and a bare-Fastify baseline in alternation,
// plus Prism for reference, and the server again with 1,000,000 plants stored; then kill -9 under writes
// must lose no acknowledged plant; createPlant with a newPlant subscription against one without, and the
// events' delay to a receiver on this machine under that load; where PostgreSQL is installed, the server on PostgreSQL with one and
// with two instances, and at 1,000 and 1,000,000 plants. Prints Markdown tables and writes the full
// figures to reports/.
// Options are listed in parseArgs below; bench/README.md explains the run and its columns.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { RequestEntry } from 'autocannon'
import * as commands from '../scripts/lib/commands.js'
import { claims, KeySet, sign, signingKey } from '../scripts/lib/key-set.js'
import { type Cluster, findPostgres, INSTALL_HINT, startCluster } from '../scripts/lib/postgres.js'
import { killAllNow, repoRoot, type Started, startProcess } from '../scripts/lib/processes.js'
import { checkDurability, type DurabilityResult } from './durability.js'
import { type HandlersResult, measureHandlers } from './handlers.js'
import { cpuTimeMs } from './metrics.js'
import { type Growth, growthTable, median, pairedMedian, type Row, resultsTable } from './report.js'
import { collectPages, createPlant, getPlant, listPages } from './requests.js'
import { runScenario, type Scenario, type Target } from './scenarios.js'
import { fillPostgresStore, fillStore } from './store.js'
import { measureVerify, type VerifyResult } from './verify.js'
import { type DeliveryLatency, measureDelivery, type WebhookResult } from './webhooks.js'

const root = repoRoot
const began = performance.now()

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** Comma-separated scenario name prefixes, e.g. `listPlants,durability`: the others are skipped. */
    only: { type: 'string' },
    /** Runs the load-tested servers with node --cpu-prof; profiles go to reports/profiles-<time>/. */
    'cpu-prof': { type: 'boolean', default: false },
    /** Another build's server.js (e.g. a scratch copy with a change), loaded alongside on its own store. */
    candidate: { type: 'string', multiple: true },
    /**
     * A fixed offered load (req/s) instead of saturation: CPU µs/req then compares builds more steadily
     * than req/s does on a machine that other work disturbs. Latencies mean little then: autocannon sends
     * each second's budget in a burst.
     */
    rate: { type: 'string' },
  },
})
const only = args.only?.split(',').map((s) => s.trim())

const quick = args.quick === true
const settings = {
  quick,
  // Many short rounds rather than a few long ones: medians over rounds shrug off bursts of other work.
  rounds: Number(args.rounds ?? (quick ? 1 : 5)),
  /** Seconds of measured load per target per round. */
  duration: Number(args.duration ?? (quick ? 1 : 3)),
  /** Seconds of unmeasured load before a target's first round, so the JIT has settled. */
  warmup: Number(args.warmup ?? (quick ? 0 : 1)),
  connections: Number(args.connections ?? 32),
  rate: args.rate === undefined ? undefined : Number(args.rate),
  smallStore: 1_000,
  largeStore: quick ? undefined : 1_000_000,
  /** The larger PostgreSQL store; the quick run keeps it small, so that it stays quick. */
  largePostgresStore: quick ? 10_000 : 1_000_000,
  prism: !quick,
  durabilityCycles: quick ? 1 : 3,
  killAfter: quick ? 1 : 2,
  /** Extra restarts of the server on the largest store, only to time the start. */
  extraStarts: quick ? 0 : 3,
}
for (const key of ['rounds', 'duration', 'connections'] as const) {
  if (!(settings[key] > 0 && settings[key] <= 600)) throw new Error(`--${key} must be in 1..600`)
}
if (settings.rate !== undefined && !(settings.rate > 0)) throw new Error('--rate must be a positive number')

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
  script?: string,
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
    args: [...profile, script ?? command.args[0] ?? '', ...rest],
  })
  serverStarts.push({ store, ms: server.startMs })
  started.push(server)
  return server
}

/** Events a bench receiver took at one path so far. */
async function receivedAt(receiver: string, path: string): Promise<number> {
  const seen = (await (await fetch(receiver)).json()) as { byPath: Record<string, number> }
  return seen.byPath[path] ?? 0
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
/** createPlant's offered rate for the webhook's CPU comparison, req/s. */
const WEBHOOK_CPU_RATE = 1_000
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
  // Candidates are named after the directory that holds their dist/ (e.g. /tmp/exp-nocors → exp-nocors).
  const candidates: { name: string; process: Started }[] = []
  for (const [i, script] of (args.candidate ?? []).entries()) {
    const name = /([^/]+)\/dist\/[^/]+$/.exec(resolve(script))?.[1] ?? `candidate ${i + 1}`
    const db = join(dir, `candidate-${i + 1}.db`)
    await fillStore(db, READER.principal, settings.smallStore)
    candidates.push({ name, process: await startServer(`sqlite:${db}`, 'candidate', true, resolve(script)) })
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
    console.error('  webhooks: createPlant with a newPlant subscription against one without, then the delay')
    const receiver = await startOther({
      name: 'webhook receiver',
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'bench', 'webhook-receiver.ts')],
      listening: commands.serverListening,
    })
    // All fresh, so that no store has grown more than another's.
    const secret = `whsec_${Buffer.from('the benchmark secret, 32 bytes..').toString('base64')}`
    const hooks = (path: string, more: Record<string, string> = {}) => ({
      WEBHOOK_ENDPOINTS: `${WRITER.principal}=${receiver.url}${path}`,
      WEBHOOK_SECRET: secret,
      // Saturating load may create faster than events go out: measured as delay, not refused with 503.
      WEBHOOK_MAX_PENDING: '100000000',
      ...more,
    })
    const plain = await startServer(`sqlite:${join(dir, 'hooks-off.db')}`, 'webhooks off', true)
    const hooked = await startServer(
      `sqlite:${join(dir, 'hooks-on.db')}`,
      'webhooks on',
      true,
      undefined,
      hooks('/hooks'),
    )
    // The create's own cost apart from its delivery's: an instance that stores events and one on the
    // same file that sends them, polling often so that they do not wait.
    const split = `sqlite:${join(dir, 'hooks-split.db')}`
    const storing = await startServer(
      split,
      'webhooks stored',
      true,
      undefined,
      hooks('/split', { WEBHOOK_DELIVERY: 'false' }),
    )
    const sending = await startServer(split, 'webhooks sent', true, undefined, {
      ...hooks('/split', { WEBHOOK_POLL_MS: '20' }),
    })
    // Its CPU while idle (polls, timers) first, taken out of what it uses while sending.
    const idleFrom = [performance.now(), cpuTimeMs(sending.pid) ?? Number.NaN] as const
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const sendingFrom = [performance.now(), cpuTimeMs(sending.pid) ?? Number.NaN] as const
    const idleCpuPerMs = (sendingFrom[1] - idleFrom[1]) / (sendingFrom[0] - idleFrom[0])
    const splitBefore = await receivedAt(receiver.url, '/split')
    rows.push(
      ...(await runScenario(
        {
          name: 'createPlant, newPlant webhook',
          targets: [
            { name: 'no subscription', process: plain, requests: () => createPlant(WRITER.token) },
            { name: 'subscribed, receiver here', process: hooked, requests: () => createPlant(WRITER.token) },
            {
              name: 'subscribed, sent by another',
              process: storing,
              requests: () => createPlant(WRITER.token),
            },
          ],
        },
        // At a fixed rate the worker keeps up with, so that each round's CPU holds its creates'
        // deliveries too: at saturation they would fall behind, into the next round.
        { ...settings, rate: settings.rate ?? WEBHOOK_CPU_RATE },
      )),
    )
    // The sender's CPU over the whole scenario, less its idle use over that time, per event it sent.
    const sentEvents = (await receivedAt(receiver.url, '/split')) - splitBefore
    const sendingCpuMs =
      (cpuTimeMs(sending.pid) ?? Number.NaN) -
      sendingFrom[1] -
      idleCpuPerMs * (performance.now() - sendingFrom[0])
    sendingCpuUsPerEvent = (sendingCpuMs * 1000) / sentEvents
    await sending.stop()
    await storing.stop()
    webhooks = await measureDelivery({
      url: hooked.url,
      pid: hooked.pid,
      receiver: receiver.url,
      token: WRITER.token,
      load: createPlant(WRITER.token),
      connections: settings.connections,
      duration: quick ? 1 : settings.duration * 3,
      probes: quick ? 5 : 100,
    })
    for (const process of [plain, hooked, receiver]) await process.stop()
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
      postgresGrowth = await runPostgres(cluster)
    } else console.error(`  PostgreSQL scenarios skipped: ${INSTALL_HINT}`)
  }

  // ---- Report ----------------------------------------------------------------------------------------
  const growth: Growth[] = []
  for (const scenario of ['getPlant', 'listPlants limit 50']) {
    const a = rowOf(scenario, `server, ${small}`)
    const b = rowOf(scenario, `server, ${large}`)
    if (a && b) {
      const ratio = (k: 'p50' | 'p99' | 'mean') => pairedMedian(b, a, (x, y) => x.latency[k] / y.latency[k])
      growth.push({
        scenario,
        small: a.latency,
        large: b.latency,
        ratio: { p50: ratio('p50'), p99: ratio('p99'), mean: ratio('mean') },
      })
    }
  }

  const seconds = (performance.now() - began) / 1000
  const loadAfter = loadavg()[0] ?? 0
  const answered = rows.reduce((n, r) => n + Object.values(r.statusCodes).reduce((a, b) => a + b, 0), 0)
  if (quick) {
    // A second of load says nothing about speed: the quick run only proves the script works.
    console.log(
      `bench --quick: the benchmark script works (${rows.length} targets loaded, ${answered} requests, ` +
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
    const scaling = ['PostgreSQL createPlant', 'PostgreSQL getPlant']
      .map(
        (scenario) =>
          [
            scenario,
            rowOf(scenario, `two instances, ${settings.smallStore.toLocaleString('en-US')} plants`)?.ratio,
          ] as const,
      )
      .filter(([, ratio]) => ratio !== undefined)
    if (scaling.length > 0) {
      console.log(
        `PostgreSQL, two instances against one (req/s, same machine): ${scaling.map(([s, r]) => `${s} ×${r?.toFixed(2)}`).join(', ')}\n`,
      )
    }
    if (durability) {
      console.log(
        `Durability: ${durability.cycles} kill -9 under load; ${durability.acknowledged} plants acknowledged, ` +
          `${durability.stored} listed after restart, ${durability.missing} missing; ` +
          `${durability.unanswered} requests unanswered at the kills, ${durability.non200} other answers.`,
      )
    }
    const starts = serverStarts
      .filter((s) => s.store !== 'candidate' && !s.store.startsWith('postgres'))
      .map((s) => s.ms)
    console.log(
      `Server start to listening: median ${median(starts).toFixed(0)} ms, slowest ${Math.max(...starts).toFixed(0)} ms ` +
        `(${serverStarts.map((s) => `${s.ms.toFixed(0)} ${s.store}`).join(', ')})`,
    )
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
    profiles: args['cpu-prof'] ? profileDir : undefined,
    totalSeconds: seconds,
  }
  if (inProcess) {
    const medians = Object.entries(inProcess.medianMs).map(([name, ms]) => `${name} ${ms.toFixed(3)} ms`)
    console.log(
      `In-process handlers (Node, getResponse, ${inProcess.requests} creates and reads): import ` +
        `${inProcess.importMs.toFixed(0)} ms (msw's own import is most of it), then ready ` +
        `${inProcess.readyMs.toFixed(0)} ms after import (target under 200); median answer ${medians.join(', ')} ` +
        '(target under 1 ms).',
    )
  }
  if (verified) {
    console.log(
      `Verifier (plant-store-verify, ${verified.requests} requests against a fresh server): ` +
        `${verified.perSecond.toFixed(0)} answers judged a second, ${verified.cpuUsPerRequest.toFixed(0)} µs CPU per request; ` +
        `a bare sequential fetch loop in the same run: ${verified.baseline.perSecond.toFixed(0)} a second, ` +
        `${verified.baseline.cpuUsPerRequest.toFixed(0)} µs CPU per request (ratio ${verified.ratio.perSecond.toFixed(2)} in rate, ` +
        `${verified.ratio.cpuPerRequest.toFixed(2)} in CPU); ${verified.seconds.toFixed(1)} s in all.`,
    )
  }
  if (webhooks) {
    const cost = rowOf('createPlant, newPlant webhook', 'subscribed, receiver here')
    const stored = rowOf('createPlant, newPlant webhook', 'subscribed, sent by another')
    const { idle, loaded, halfLoad } = webhooks
    const ms = (l: DeliveryLatency) => `median ${l.medianMs.toFixed(1)} ms, p90 ${l.p90Ms.toFixed(1)} ms`
    console.log(
      `newPlant webhook: createPlant subscribed, CPU per request (its event's delivery included) ×${cost?.cpuRatio?.toFixed(2)} ` +
        `of the same server without a subscription (${cost?.cpuUsPerRequest?.toFixed(0)} µs), at ${settings.rate ?? WEBHOOK_CPU_RATE} req/s offered; ` +
        `on an instance that stores events for another to send, ×${stored?.cpuRatio?.toFixed(2)} (${stored?.cpuUsPerRequest?.toFixed(0)} µs), ` +
        `and the sending instance ${sendingCpuUsPerEvent.toFixed(0)} µs CPU per event. ` +
        `Delivery to a receiver on this machine, from the create's ` +
        `answer to the event's arrival: ${ms(idle)} with no other load (${idle.probes} probes); ` +
        `${ms(halfLoad)} beside createPlant at a steady ${halfLoad.loadRps.toFixed(0)} req/s (${halfLoad.probes} probes); ` +
        `${ms(loaded)} beside saturating createPlant load at ${loaded.loadRps.toFixed(0)} req/s (${loaded.probes} probes), ` +
        `a queue's delay; ${webhooks.eventsReceived} events received in all.`,
    )
  }
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`)
  if (!quick) console.log(`\nFull figures: ${reportFile}`)
  if (args['cpu-prof'])
    console.log(`CPU profiles: ${profileDir} (read with: npx tsx bench/profile-summary.ts FILE)`)
  if (!quick) console.log(`Total time ${seconds.toFixed(0)} s.`)

  // Timings are never asserted; these are failures of function, which the quick mode exists to catch.
  const broken = rows.filter((r) => r.errors > 0 || r.non2xx > 0)
  if (broken.length > 0) {
    throw new Error(
      `requests failed: ${broken.map((r) => `${r.scenario}/${r.target} ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`).join('; ')}`,
    )
  }
  if (durability && durability.missing > 0) {
    throw new Error(
      `durability: acknowledged plants lost after kill -9, e.g. ${durability.missingSample.join(', ')}`,
    )
  }
  if (durability?.integrity !== undefined && durability.integrity !== 'ok') {
    throw new Error(`durability: PRAGMA integrity_check after kill -9 says ${durability.integrity}`)
  }
  const lost = webhooks ? webhooks.idle.missing + webhooks.loaded.missing + webhooks.halfLoad.missing : 0
  if (lost > 0) throw new Error(`webhooks: ${lost} probe creates' events never arrived`)
  if (verified && verified.failures > 0)
    throw new Error(`verify: ${verified.failures} answers departed from the document`)
  if (durability && durability.acknowledged === 0) {
    throw new Error('durability: no plant was acknowledged before the kill')
  }
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

/**
 * The server on PostgreSQL: createPlant and getPlant on one instance and on two sharing one database
 * (the ratio column is then the scaling), and getPlant on a store of 1,000,000 plants; returns the
 * latency growth from the small store to the large one.
 */
async function runPostgres(on: Cluster): Promise<Growth[]> {
  const smallUrl = await on.createDatabase()
  const largeUrl = await on.createDatabase()
  const fillStarted = performance.now()
  await fillPostgresStore(smallUrl, READER.principal, settings.smallStore)
  await fillPostgresStore(largeUrl, READER.principal, settings.largePostgresStore)
  console.error(`  PostgreSQL stores filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`)
  const [first, second, large] = await Promise.all([
    startServer(smallUrl, 'postgres', false),
    startServer(smallUrl, 'postgres', false),
    startServer(largeUrl, 'postgres large', false),
  ])
  if (!first || !second || !large) throw new Error('the PostgreSQL instances did not start')
  const small = `${settings.smallStore.toLocaleString('en-US')} plants`
  const big = `${settings.largePostgresStore.toLocaleString('en-US')} plants`
  const one = `one instance, ${small}`
  const two = `two instances, ${small}`
  const scenarios: Scenario[] = [
    {
      name: 'PostgreSQL createPlant',
      targets: [
        { name: one, process: first, requests: () => createPlant(WRITER.token) },
        { name: two, process: first, also: [second], requests: () => createPlant(WRITER.token) },
      ],
    },
    {
      name: 'PostgreSQL getPlant',
      targets: [
        { name: one, process: first, requests: () => getPlant(READER.token, settings.smallStore) },
        {
          name: two,
          process: first,
          also: [second],
          requests: () => getPlant(READER.token, settings.smallStore),
        },
        {
          name: `one instance, ${big}`,
          process: large,
          requests: () => getPlant(READER.token, settings.largePostgresStore),
        },
      ],
    },
  ]
  for (const scenario of scenarios) rows.push(...(await runScenario(scenario, settings)))
  for (const instance of [first, second, large]) await instance.stop()
  const a = rowOf('PostgreSQL getPlant', one)
  const b = rowOf('PostgreSQL getPlant', `one instance, ${big}`)
  if (!a || !b) return []
  const ratio = (k: 'p50' | 'p99' | 'mean') => pairedMedian(b, a, (x, y) => x.latency[k] / y.latency[k])
  return [
    {
      scenario: 'PostgreSQL getPlant',
      small: a.latency,
      large: b.latency,
      ratio: { p50: ratio('p50'), p99: ratio('p99'), mean: ratio('mean') },
    },
  ]
}

// The file system of the store files: fsync costs differ wildly between a disk and tmpfs.
function fsType(path: string): string {
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[1] !== undefined && path.startsWith(f[1]))
    .sort((a, b) => (b[1]?.length ?? 0) - (a[1]?.length ?? 0))
  const best = mounts[0]
  return best ? `${best[2]} (${best[0]} on ${best[1]})` : 'unknown'
}
