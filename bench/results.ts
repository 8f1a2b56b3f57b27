// A run's results: the Markdown tables and lines printed on stdout (and pasted into bench/README.md),
// the JSON report written to reports/, and the failures of function that fail the run.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import type { DurabilityResult } from './durability.js'
import type { HandlersResult } from './handlers.js'
import { type Ledger, ledgerTable } from './ledger.js'
import { scalingLine } from './postgres-scenarios.js'
import { type Growth, growthOf, growthTable, type Row, resultsTable, stealNotice } from './report.js'
import type { BenchSettings } from './settings.js'
import { type Starts, startRatio } from './starts.js'
import {
  durabilityLine,
  failureOf,
  fsType,
  handlersLine,
  startsLine,
  verifyLine,
  webhookLine,
} from './summary.js'
import { largeLabel, smallLabel } from './throughput.js'
import type { VerifyResult } from './verify.js'
import { WEBHOOK_CPU_RATE } from './webhook-scenario.js'
import type { WebhookResult } from './webhooks.js'

export interface RunResults {
  settings: BenchSettings
  /** The directory the stores and logs are in. */
  dir: string
  rows: Row[]
  postgresGrowth: Growth[]
  serverStarts: { store: string; ms: number }[]
  /** The server and the baseline started alike, in alternation (starts.ts). */
  starts: Starts
  fillMs: number
  loadBefore: number
  loadAfter: number
  seconds: number
  durability?: DurabilityResult
  handlers?: HandlersResult
  verified?: VerifyResult
  webhooks?: WebhookResult
  sendingCpuUsPerEvent: number
  ledger?: Ledger
  /** Where the CPU profiles went, when asked for. */
  profileDir?: string
}

/** Prints the run's results, writes its JSON report into `reportsDir` as bench-[quick-]<stamp>.json. */
export function report(results: RunResults, reportsDir: string, stamp: string): void {
  const { settings, dir, rows, ledger, durability, verified, webhooks, postgresGrowth, seconds } = results
  const { quick } = settings
  const growth: Growth[] = []
  for (const scenario of ['getPlant', 'listPlants limit 50']) {
    const a = rows.find((r) => r.scenario === scenario && r.target === `server, ${smallLabel(settings)}`)
    const b = rows.find((r) => r.scenario === scenario && r.target === `server, ${largeLabel(settings)}`)
    if (a && b) growth.push(growthOf(scenario, a, b))
  }
  const answered = [...rows, ...(ledger?.rows ?? [])].reduce(
    (n, r) => n + Object.values(r.statusCodes).reduce((a, b) => a + b, 0),
    0,
  )
  // The ledger's rows ran in the same rounds: their steal counts too.
  const noisy = stealNotice([...rows, ...(ledger?.rows ?? [])])
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
        `${results.loadBefore.toFixed(1)} before / ${results.loadAfter.toFixed(1)} after; autocannon in-process, ` +
        `${settings.connections} connections, ${settings.rounds} round(s) × ${settings.duration} s per target, ` +
        `alternating; server logs at info to a file; store files on ${fsType(dir)}`,
    ].join('\n')
    console.log(`\n${header}\n\n${resultsTable(rows)}\n`)
    if (noisy) console.log(`${noisy}\n`)
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
    console.log(startsLine(results.starts, results.serverStarts))
  }

  mkdirSync(reportsDir, { recursive: true })
  const reportFile = join(reportsDir, `bench-${quick ? 'quick-' : ''}${stamp}.json`)
  const json = {
    settings,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      fs: fsType(dir),
      loadAverage: { before: results.loadBefore, after: results.loadAfter },
    },
    /** False when some target's rounds lost more of the machine to steal than a quiet run does. */
    quiet: noisy === undefined,
    fillSeconds: results.fillMs / 1000,
    rows,
    growth,
    postgresGrowth,
    serverStarts: results.serverStarts,
    starts: { ...results.starts, ratio: startRatio(results.starts) },
    durability,
    handlers: results.handlers,
    verify: verified,
    webhooks,
    ledger,
    profiles: results.profileDir,
    totalSeconds: seconds,
  }
  if (results.handlers) console.log(handlersLine(results.handlers))
  if (verified) console.log(verifyLine(verified))
  if (webhooks)
    console.log(webhookLine(webhooks, rows, settings.rate ?? WEBHOOK_CPU_RATE, results.sendingCpuUsPerEvent))
  writeFileSync(reportFile, `${JSON.stringify(json, null, 2)}\n`)
  if (!quick) console.log(`\nFull figures: ${reportFile}`)
  if (results.profileDir)
    console.log(`CPU profiles: ${results.profileDir} (read with: npx tsx bench/profile-summary.ts FILE)`)
  if (!quick) console.log(`Total time ${seconds.toFixed(0)} s.`)

  // Timings are never asserted; these are failures of function, which the quick mode exists to catch.
  const broken = failureOf({ rows: [...rows, ...(ledger?.rows ?? [])], durability, webhooks, verified })
  if (broken) throw new Error(broken)
}
