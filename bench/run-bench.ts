// `npm run bench [-- --quick]`: loads the real server (dist/) and a bare-Fastify baseline in alternation,
// plus Prism for reference, and the server again with 1,000,000 plants stored; then kill -9 under writes
// must lose no acknowledged plant. Prints Markdown tables and writes the full figures to reports/.
// Options are listed in parseArgs below; bench/README-section.md explains the run and its columns.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { RequestEntry } from 'autocannon'
import { checkDurability, type DurabilityResult } from './durability.js'
import { type LoadResult, runLoad, summarize } from './load.js'
import { killAllNow, peakRss, resetPeakRss, type Started, startProcess } from './processes.js'
import {
  type Growth,
  growthTable,
  median,
  pairedMedian,
  type Row,
  resultsTable,
  type TargetCheck,
  targetsTable,
} from './report.js'
import { fillStore } from './store.js'

const root = resolve(import.meta.dirname, '..')
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
const serverListening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/
const prismListening = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/

const serverScript = join(root, 'dist/server.js')
if (!existsSync(serverScript)) throw new Error('dist/server.js is missing: run `npm run build` first')

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
  dbFile: string,
  store: string,
  profiled: boolean,
  script = serverScript,
): Promise<Started> {
  const profile = profiled && args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const server = await startProcess({
    name: `server (${store})`,
    command: process.execPath,
    args: [...profile, script],
    cwd: root,
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: `sqlite:${dbFile}`,
      AUTH_TOKENS: `${READER.principal}:${READER.token},${WRITER.principal}:${WRITER.token}`,
      LOG_LEVEL: 'info',
    },
    logFile: join(dir, `server-${++logCount}.log`),
    listening: serverListening,
  })
  serverStarts.push({ store, ms: server.startMs })
  started.push(server)
  return server
}

async function startOther(name: string, args: string[], listening: RegExp): Promise<Started> {
  const other = await startProcess({
    name,
    command: process.execPath,
    args,
    cwd: root,
    env: {},
    logFile: join(dir, `${name}.log`),
    listening,
  })
  started.push(other)
  return other
}

// ---- Requests ----------------------------------------------------------------------------------------

const json = { 'content-type': 'application/json' }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
// Ids far above the filled ones, unique across every round and target: no 409s.
let nextId = 10_000_000

function createPlant(token: string): RequestEntry[] {
  return [
    {
      method: 'POST',
      path: '/plants',
      headers: { ...bearer(token), ...json },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ id: nextId++, name: 'Basil', tag: 'herb' }),
      }),
    },
  ]
}

// Ids spread over the whole store (7919 is prime, so k·7919 mod n visits every id), not one hot row.
function getPlant(token: string, storeSize: number): RequestEntry[] {
  let k = 0
  return [
    {
      method: 'GET',
      path: '/plants/1',
      headers: bearer(token),
      setupRequest: (request) => ({ ...request, path: `/plants/${((k++ * 7919) % storeSize) + 1}` }),
    },
  ]
}

function listPages(token: string, paths: string[]): RequestEntry[] {
  let k = 0
  return [
    {
      method: 'GET',
      path: paths[0] ?? '/plants?limit=50',
      headers: bearer(token),
      setupRequest: (request) => ({ ...request, path: paths[k++ % paths.length] ?? '/plants?limit=50' }),
    },
  ]
}

/**
 * Page addresses of 50 plants, the first page and those after it, got by following the Link headers as
 * a client does (the cursor is opaque): up to 200 pages, i.e. 10,000 plants deep, so that a paging that
 * skips rows (OFFSET) would show its cost on the large store.
 */
async function collectPages(url: string, token: string): Promise<string[]> {
  const paths: string[] = []
  let next: string | undefined = '/plants?limit=50'
  while (next && paths.length < 200) {
    paths.push(next)
    const response: Response = await fetch(new URL(next, url), {
      headers: bearer(token),
      signal: AbortSignal.timeout(10_000),
    })
    if (response.status !== 200) throw new Error(`GET ${next} answered ${response.status}`)
    await response.arrayBuffer()
    next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
  }
  return paths
}

// ---- Scenarios ---------------------------------------------------------------------------------------

interface Target {
  name: string
  process: Started
  requests: () => RequestEntry[]
}

interface Scenario {
  name: string
  /** The baseline first: each round loads the targets in this order. */
  targets: Target[]
}

const rows: Row[] = []
const runs: Record<string, LoadResult[]> = {}

async function runScenario(scenario: Scenario): Promise<void> {
  const resets = scenario.targets.map((t) => resetPeakRss(t.process.pid))
  for (const target of scenario.targets) {
    if (settings.warmup > 0) {
      await runLoad({
        url: target.process.url,
        connections: settings.connections,
        duration: settings.warmup,
        requests: target.requests(),
        pid: target.process.pid,
        rate: settings.rate,
      })
    }
  }
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of scenario.targets) {
      const result = await runLoad({
        url: target.process.url,
        connections: settings.connections,
        duration: settings.duration,
        requests: target.requests(),
        pid: target.process.pid,
        rate: settings.rate,
      })
      const ended = target.process.exited()
      if (ended) throw new Error(`${target.process.name} ended during ${scenario.name} (${ended})`)
      const key = `${scenario.name}/${target.name}`
      runs[key] = [...(runs[key] ?? []), result]
      console.error(
        `  ${scenario.name} · ${target.name} · round ${round}: ${result.rps.toFixed(0)} req/s` +
          (result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''),
      )
    }
  }
  scenario.targets.forEach((target, i) => {
    const results = runs[`${scenario.name}/${target.name}`] ?? []
    const requests = results.reduce((n, r) => n + r.requests, 0)
    const roundFigures = results.map((r) => ({ rps: r.rps, latency: summarize([r.latencies]) }))
    const statusCodes: Record<string, number> = {}
    for (const r of results) {
      for (const [code, count] of Object.entries(r.statusCodes))
        statusCodes[code] = (statusCodes[code] ?? 0) + count
    }
    rows.push({
      scenario: scenario.name,
      target: target.name,
      rounds: roundFigures,
      rps: median(roundFigures.map((r) => r.rps)),
      latency: {
        p50: median(roundFigures.map((r) => r.latency.p50)),
        p99: median(roundFigures.map((r) => r.latency.p99)),
        mean: median(roundFigures.map((r) => r.latency.mean)),
      },
      pooledLatency: summarize(results.map((r) => r.latencies)),
      errors: results.reduce((n, r) => n + r.errors, 0),
      non2xx: results.reduce((n, r) => n + r.non2xx, 0),
      statusCodes,
      peakRss: peakRss(target.process.pid),
      cpuUsPerRequest: (results.reduce((n, r) => n + r.targetCpuMs, 0) * 1000) / requests,
      clientCpuShare: results.reduce((n, r) => n + r.clientCpuShare, 0) / results.length,
      stealShare: results.reduce((n, r) => n + r.stealShare, 0) / results.length,
      ...(resets[i] ? {} : { peakRssIsLifetime: true }),
    })
  })
}

function rowOf(scenario: string, target: string): Row | undefined {
  return rows.find((r) => r.scenario === scenario && r.target === target)
}

// ---- The run -----------------------------------------------------------------------------------------

const wanted = (name: string) =>
  only === undefined || only.some((prefix) => name.toLowerCase().startsWith(prefix.toLowerCase()))

let durability: DurabilityResult | undefined
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

  const baseline = await startOther(
    'baseline',
    ['--import', 'tsx', 'bench/baseline-server.ts'],
    serverListening,
  )
  const server = await startServer(smallDb, 'small', true)
  const serverLarge = settings.largeStore ? await startServer(largeDb, 'large', true) : undefined
  // Candidates are named after the directory that holds their dist/ (e.g. /tmp/exp-nocors → exp-nocors).
  const candidates: { name: string; process: Started }[] = []
  for (const [i, script] of (args.candidate ?? []).entries()) {
    const name = /([^/]+)\/dist\/[^/]+$/.exec(resolve(script))?.[1] ?? `candidate ${i + 1}`
    const db = join(dir, `candidate-${i + 1}.db`)
    await fillStore(db, READER.principal, settings.smallStore)
    candidates.push({ name, process: await startServer(db, 'candidate', true, resolve(script)) })
  }
  const prism = settings.prism
    ? await startOther(
        'prism',
        [
          join(root, 'node_modules/@stoplight/prism-cli/dist/index.js'),
          'mock',
          join(root, 'spec/openapi.yaml'),
          '-h',
          '127.0.0.1',
          '-p',
          '0',
          // One process: its pid is the one whose memory is read and that gets killed.
          '-m',
          'false',
        ],
        prismListening,
      )
    : undefined

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
    { name: 'getPlant', targets: targets((size) => getPlant(READER.token, size), true) },
    { name: 'listPlants limit 50', targets: targets((_size, pages) => listPages(READER.token, pages), true) },
  ]
  for (const scenario of scenarios) if (wanted(scenario.name)) await runScenario(scenario)
  for (const row of rows) {
    const base = rowOf(row.scenario, 'baseline')
    if (base && row.target !== 'baseline') row.ratio = pairedMedian(row, base, (a, b) => a.rps / b.rps)
  }

  if (wanted('durability')) {
    console.error('  durability: kill -9 under createPlant load')
    durability = await checkDurability({
      start: () => startServer(join(dir, 'durability.db'), 'durability', false),
      authorization: `Bearer ${WRITER.token}`,
      connections: settings.connections,
      cycles: settings.durabilityCycles,
      killAfter: settings.killAfter,
    })
  }

  // Stopped, not killed: a server run with --cpu-prof writes its profile as it exits.
  await server.stop()
  if (serverLarge) await serverLarge.stop()
  for (const candidate of candidates) await candidate.process.stop()
  for (let i = 0; i < settings.extraStarts; i++) await (await startServer(largeDb, 'large', false)).stop()

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

  const serverRows = rows.filter((r) => r.target.startsWith('server'))
  const checks: TargetCheck[] = []
  for (const [scenario, min] of [
    ['createPlant', 0.85],
    ['getPlant', 0.9],
    ['listPlants limit 50', 0.5],
  ] as const) {
    const row = serverRows.find((r) => r.scenario === scenario)
    if (!row) continue
    checks.push({
      target: `${scenario} >= ${min.toFixed(2)}x baseline`,
      figure: `${row.ratio?.toFixed(2)}x (${row.rps.toFixed(0)} vs ${rowOf(scenario, 'baseline')?.rps.toFixed(0)} req/s)`,
      met: (row.ratio ?? 0) >= min,
    })
  }
  for (const g of growth) {
    checks.push({
      target: `${g.scenario}: ${large} within 1.2x of ${small} (mean latency)`,
      figure: `${g.ratio.mean.toFixed(2)}x (p50 ${g.ratio.p50.toFixed(2)}x, p99 ${g.ratio.p99.toFixed(2)}x)`,
      met: g.ratio.mean <= 1.2,
    })
  }
  if (serverRows.length > 0) {
    const peak = Math.max(...serverRows.map((r) => r.peakRss ?? Number.POSITIVE_INFINITY))
    checks.push({
      target: 'server peak RSS under load < 150 MB',
      figure: `${(peak / 2 ** 20).toFixed(0)} MB`,
      met: peak < 150 * 2 ** 20,
    })
  }
  // The candidate is an experiment, not the server under test.
  const starts = serverStarts.filter((s) => s.store !== 'candidate').map((s) => s.ms)
  const slowestStart = Math.max(...starts)
  checks.push({
    target: 'server start to listening < 1 s',
    figure: `${slowestStart.toFixed(0)} ms slowest of ${starts.length} starts (median ${median(starts).toFixed(0)} ms)`,
    met: slowestStart < 1000,
  })
  if (serverRows.length > 0) {
    const worst = serverRows.reduce((w, r) => (r.latency.p99 > w.latency.p99 ? r : w))
    checks.push({
      target: `server p99 < 10 ms at ${settings.connections} connections, every scenario`,
      figure: `worst ${worst.latency.p99.toFixed(2)} ms (${worst.scenario}, ${worst.target})`,
      met: worst.latency.p99 < 10,
    })
  }
  if (durability) {
    checks.push({
      target: 'every 200 of createPlant survives kill -9',
      figure: `${durability.missing} of ${durability.acknowledged} acknowledged missing after ${durability.cycles} kill(s)`,
      met: durability.missing === 0,
    })
  }

  const seconds = (performance.now() - began) / 1000
  const loadAfter = loadavg()[0] ?? 0
  const header = [
    `Plant store benchmark (${quick ? 'quick: proves the script works, figures mean little' : 'full'}), ` +
      `${new Date().toISOString()}`,
    `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ` +
      `${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after; autocannon in-process, ` +
      `${settings.connections} connections, ${settings.rounds} round(s) × ${settings.duration} s per target, ` +
      `alternating; server logs at info to a file; store files on ${fsType(dir)}`,
  ].join('\n')
  console.log(`\n${header}\n\n${resultsTable(rows)}\n`)
  if (growth.length > 0)
    console.log(`${growthTable(growth, settings.smallStore, settings.largeStore ?? 0)}\n`)
  // Never asserted: timings decide nothing about the exit code, in --quick least of all.
  console.log(
    `Targets of issue 4${quick ? ' (--quick: indicative only)' : ''}; timings are never asserted.\n`,
  )
  console.log(`${targetsTable(checks)}\n`)
  if (durability) {
    console.log(
      `Durability: ${durability.cycles} kill -9 under load; ${durability.acknowledged} plants acknowledged, ` +
        `${durability.stored} listed after restart, ${durability.missing} missing; ` +
        `${durability.unanswered} requests unanswered at the kills, ${durability.non200} other answers.`,
    )
  }
  console.log(`Server starts (ms): ${serverStarts.map((s) => `${s.ms.toFixed(0)} (${s.store})`).join(', ')}`)

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
    serverStarts,
    durability,
    targets: checks,
    profiles: args['cpu-prof'] ? profileDir : undefined,
    totalSeconds: seconds,
  }
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nFull figures: ${reportFile}`)
  if (args['cpu-prof'])
    console.log(`CPU profiles: ${profileDir} (read with: npx tsx bench/profile-summary.ts FILE)`)
  console.log(`Total time ${seconds.toFixed(0)} s.`)

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
  if (durability && durability.acknowledged === 0) {
    throw new Error('durability: no plant was acknowledged before the kill')
  }
} catch (error) {
  failure = error
} finally {
  await Promise.allSettled(started.map((p) => p.stop()))
  killAllNow()
}
if (failure) {
  console.error(`\nbench failed: ${failure instanceof Error ? (failure.stack ?? failure.message) : failure}`)
  keepDir = true
  console.error(`Logs kept in ${dir}`)
  process.exit(1)
}
if (keepDir) console.error(`Files kept in ${dir}`)

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
