// The cost ledger: for getPlant, createPlant and a page of 50 plants, the server's CPU per request with
// each of its layers taken away in turn, and with all of them at once (serve-without.ts,
// server-without.ts), against the full server and the bare-Fastify baseline. Those servers are further
// targets of the throughput scenarios (throughput.ts), loaded in their rounds: the ledger's full server
// and baseline are the scenarios' own rows, so the two cannot disagree. A layer's cost is what the
// server saves without it; another build (--candidate) is a target of the same rounds too, so that what
// a change saves is a difference within each round rather than between two runs on a noisy machine.
import { median, middleHalf, paired, type Row, table } from './report.js'
import { LAYERS, type Layer } from './server-without.js'
import { withoutName } from './throughput.js'

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
  'turn-end': "a turn's read answers written together (each written when ready instead)",
}

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

/** The ledger's row of each layer set, in the run's rows: `without ${key}`. */
export const rowKey = (layers: readonly Layer[]) =>
  layers.length === LAYERS.length ? 'all' : layers.join('+')

export const LEDGER_SCENARIOS = ['getPlant', 'createPlant', 'listPlants limit 50'] as const

/**
 * The ledger from the throughput scenarios' rows: the baseline's row, the server's on the small store
 * (`server` or `server, <small>`), each row without layers, and each candidate's.
 */
export function ledgerOf(
  rows: readonly Row[],
  without: readonly (readonly Layer[])[],
  candidateNames: readonly string[],
  small: string,
): Ledger {
  const ledger: Ledger = {
    scenarios: [],
    baselineUs: {},
    fullUs: {},
    fullRatio: {},
    fullRatioMiddle: {},
    without,
    layers: {},
    candidates: {},
    rows: [],
  }
  const named = (scenario: string, who: string) =>
    rows.find((r) => r.scenario === scenario && (r.target === who || r.target === `${who}, ${small}`))
  for (const scenario of LEDGER_SCENARIOS) {
    const base = named(scenario, 'baseline')
    const server = named(scenario, 'server')
    if (!base || !server) continue
    ledger.scenarios.push(scenario)
    ledger.baselineUs[scenario] = base.cpuUsPerRequest
    ledger.fullUs[scenario] = server.cpuUsPerRequest
    ledger.fullRatio[scenario] = server.cpuRatio ?? Number.NaN
    // The same rounds' ratios as the median above (scenarios.ts), their spread this time.
    ledger.fullRatioMiddle[scenario] = middleHalf(paired(server, base, (a, b) => a.cpuUs / b.cpuUs))
    // What a row spends less than the full server in each round both ran.
    const savedPerRound = (row: Row) => paired(row, server, (round, whole) => whole.cpuUs - round.cpuUs)
    const cell = (row: Row): LedgerCell => ({
      cpuUs: row.cpuUsPerRequest,
      savesUs: median(savedPerRound(row)),
    })
    for (const layers of without) {
      const key = rowKey(layers)
      const row = named(scenario, withoutName(key))
      if (!row) continue
      ledger.rows.push(row)
      ledger.layers[key] ??= {}
      const cells = ledger.layers[key]
      if (cells) cells[scenario] = cell(row)
    }
    for (const name of candidateNames) {
      const row = named(scenario, name)
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
