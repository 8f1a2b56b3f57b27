// The cost ledger: for getPlant, createPlant and a page of 50 plants, the server's CPU per request with
// each of its layers taken away in turn, and with all of them at once (serve-without.ts,
// server-without.ts), against the full server and the bare-Fastify baseline loaded in the same rounds.
// A layer's cost is what the server saves without it; another build (--candidate) is loaded in the
// same rounds too, so that what a change saves is a difference within each round rather than between
// two runs on a noisy machine.
import type { RequestEntry } from 'autocannon'
import type { Started } from '../scripts/lib/processes.js'
import { median, middleHalf, paired, type Row, table } from './report.js'
import { collectPages, createPlant, getPlant, listPages } from './requests.js'
import { type LoadSettings, runScenario } from './scenarios.js'
import { LAYERS, type Layer } from './server-without.js'

const described: Record<Layer, string> = {
  logging: 'request logging (the logger altogether)',
  auth: 'authentication (bearer token to principal)',
  'rate-limit': 'rate limits (counting and RateLimit fields)',
  'security-headers': 'security headers',
  cors: 'CORS',
  overload: 'the overload guard (under-pressure)',
  validation: 'request validation (Ajv, int64 exact)',
  'int64-body': 'the exact-int64 body reader (JSON.parse instead)',
  serialization: 'response serialization (a constant body instead)',
  store: 'the store (constant answers instead of SQLite)',
}

const rowKey = (layers: readonly Layer[]) => (layers.length === LAYERS.length ? 'all' : layers.join('+'))

/** A row's words in the table: a layer's own, or the layers it goes without together. */
function describe(layers: readonly Layer[]): string {
  if (layers.length === LAYERS.length) return 'every layer at once: Fastify, the routes and their hooks left'
  const [only] = layers
  if (layers.length === 1 && only) return described[only]
  if (layers.length <= LAYERS.length / 2) return `together: ${layers.join(', ')}`
  return `every layer but ${LAYERS.filter((layer) => !layers.includes(layer)).join(', ')}`
}

export interface LedgerCell {
  /** Median CPU µs per request of the server without the layer. */
  cpuUs: number
  /** Median over rounds of the full server's CPU µs per request less this one's, in the same round. */
  savesUs: number
}

/** Another build against the server: what it saves, in how many rounds it spent less, its own ratio. */
export interface CandidateCell extends LedgerCell {
  /** Rounds in which it spent less CPU per request than the server, of `rounds`. */
  lowerIn: number
  rounds: number
  ratio: number
}

export interface Ledger {
  scenarios: string[]
  /** Per scenario: the baseline's and the full server's CPU µs per request. */
  baselineUs: Record<string, number>
  fullUs: Record<string, number>
  /** Per scenario: median over rounds of the full server's CPU per request over the baseline's. */
  fullRatio: Record<string, number>
  /**
   * Per scenario: the middle half of those rounds' ratios, which tells how steady the machine was: on a
   * quiet one it spans 0.2x or less.
   */
  fullRatioMiddle: Record<string, [number, number]>
  /** Each row's layers taken away, in the table's order. */
  without: readonly (readonly Layer[])[]
  /** Per row (its layers joined by `+`), per scenario. */
  layers: Record<string, Record<string, LedgerCell>>
  /** Per other build (by name), per scenario: what it saves against the server, and its own ratio. */
  candidates: Record<string, Record<string, CandidateCell>>
  rows: Row[]
}

export interface LedgerOptions {
  settings: LoadSettings
  baseline: Started
  /** Starts the server on a fresh store of `storeSize` plants, without these layers (comma-separated). */
  start: (without: string) => Promise<Started>
  /** The rows: the layers one server goes without (settings.ts gives them from --layers). */
  without: readonly (readonly Layer[])[]
  /** Other builds of the full server, each started on a fresh store like the server's. */
  candidates?: { name: string; start: () => Promise<Started> }[]
  storeSize: number
  reader: string
  writer: string
}

export async function runLedger(options: LedgerOptions): Promise<Ledger> {
  const { settings, baseline, start, storeSize, reader, writer, without } = options
  const full = await start('')
  const servers = new Map<string, Started>()
  for (const layers of without) servers.set(rowKey(layers), await start(layers.join(',')))
  const others = new Map<string, Started>()
  for (const candidate of options.candidates ?? []) others.set(candidate.name, await candidate.start())
  const pages = await collectPages(full.url, reader)
  const scenarios: [string, () => RequestEntry[]][] = [
    ['getPlant', () => getPlant(reader, storeSize)],
    ['createPlant', () => createPlant(writer)],
    ['listPlants limit 50', () => listPages(reader, pages)],
  ]
  const ledger: Ledger = {
    scenarios: scenarios.map(([name]) => name),
    baselineUs: {},
    fullUs: {},
    fullRatio: {},
    fullRatioMiddle: {},
    without,
    layers: {},
    candidates: {},
    rows: [],
  }
  for (const [scenario, requests] of scenarios) {
    const rows = await runScenario(
      {
        name: `ledger ${scenario}`,
        targets: [
          { name: 'baseline', process: baseline, requests },
          { name: 'server', process: full, requests },
          ...[...servers].map(([key, process]) => ({ name: `without ${key}`, process, requests })),
          ...[...others].map(([name, process]) => ({ name, process, requests })),
        ],
      },
      settings,
    )
    ledger.rows.push(...rows)
    const [base, server, ...lessened] = rows
    if (!base || !server) continue
    ledger.baselineUs[scenario] = median(base.rounds.map((r) => r.cpuUs))
    ledger.fullUs[scenario] = median(server.rounds.map((r) => r.cpuUs))
    ledger.fullRatio[scenario] = server.cpuRatio ?? Number.NaN
    // The same rounds' ratios as the median above (scenarios.ts), their spread this time.
    ledger.fullRatioMiddle[scenario] = middleHalf(paired(server, base, (a, b) => a.cpuUs / b.cpuUs))
    // What a row spends less than the full server in each round both ran.
    const savedPerRound = (row: Row) => paired(row, server, (round, whole) => whole.cpuUs - round.cpuUs)
    const cell = (row: Row): LedgerCell => ({
      cpuUs: median(row.rounds.map((r) => r.cpuUs)),
      savesUs: median(savedPerRound(row)),
    })
    for (const [i, key] of [...servers.keys()].entries()) {
      const row = lessened[i]
      if (!row) continue
      ledger.layers[key] ??= {}
      const cells = ledger.layers[key]
      if (cells) cells[scenario] = cell(row)
    }
    for (const [i, name] of [...others.keys()].entries()) {
      const row = lessened[without.length + i]
      if (!row) continue
      ledger.candidates[name] ??= {}
      const cells = ledger.candidates[name]
      const saved = savedPerRound(row)
      if (cells)
        cells[scenario] = {
          ...cell(row),
          lowerIn: saved.filter((us) => us > 0).length,
          rounds: saved.length,
          ratio: row.cpuRatio ?? Number.NaN,
        }
    }
  }
  for (const process of [full, ...servers.values(), ...others.values()]) await process.stop()
  return ledger
}

/** The ledger as one Markdown table: a row per layer, what the server costs without it and what it saves. */
export function ledgerTable(ledger: Ledger): string {
  const us = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(0))
  const header = ['what is taken away']
  for (const scenario of ledger.scenarios) header.push(`${scenario} µs`, 'saves')
  const rows: string[][] = [
    ['nothing: the full server', ...ledger.scenarios.flatMap((s) => [us(ledger.fullUs[s]), '–'])],
  ]
  const saves = (cell: LedgerCell | undefined, s: string) => {
    const whole = ledger.fullUs[s] ?? Number.NaN
    if (!cell) return ['–', '–']
    return [us(cell.cpuUs), `${us(cell.savesUs)} µs (${((cell.savesUs / whole) * 100).toFixed(0)}%)`]
  }
  for (const layers of ledger.without) {
    const cells = ledger.layers[rowKey(layers)] ?? {}
    rows.push([describe(layers), ...ledger.scenarios.flatMap((s) => saves(cells[s], s))])
  }
  for (const [name, cells] of Object.entries(ledger.candidates)) {
    rows.push([
      `the full server, built from ${name}`,
      ...ledger.scenarios.flatMap((s) => {
        const cell = cells[s]
        if (!cell) return ['–', '–']
        const [cpu = '–', saved] = saves(cell, s)
        return [cpu, `${saved}, less in ${cell.lowerIn}/${cell.rounds}, ${cell.ratio.toFixed(2)}x`]
      }),
    ])
  }
  rows.push([
    'bare Fastify, same schemas (the baseline)',
    ...ledger.scenarios.flatMap((s) => {
      const ratio = ledger.fullRatio[s] ?? Number.NaN
      const [low, high] = ledger.fullRatioMiddle[s] ?? [Number.NaN, Number.NaN]
      const middle = Number.isNaN(low) ? '' : `, middle half of rounds ${low.toFixed(2)}–${high.toFixed(2)}x`
      return [us(ledger.baselineUs[s]), `server ${ratio.toFixed(2)}x${middle}`]
    }),
  ])
  return table(header, rows)
}
