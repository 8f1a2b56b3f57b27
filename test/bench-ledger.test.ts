// The ledger's table says how steady its rounds were, beside the ratio the targets are read from.
import { describe, expect, it } from 'vitest'
import { type Ledger, ledgerOf, ledgerTable } from '../bench/ledger.js'
import { middleHalf, type Row } from '../bench/report.js'

describe('the cost ledger', () => {
  it('takes the middle half of the rounds by nearest rank, whatever their order', () => {
    expect(middleHalf([2.4, 1.9, 2.0, 2.1, 1.8, 2.2, 2.3, 9.9])).toEqual([1.9, 2.3])
    expect(middleHalf([1.5])).toEqual([1.5, 1.5])
    expect(middleHalf([])).toEqual([Number.NaN, Number.NaN])
  })

  it('prints the server against the baseline with the middle half of the rounds’ ratios', () => {
    const ledger: Ledger = {
      scenarios: ['getPlant', 'createPlant'],
      baselineUs: { getPlant: 30, createPlant: 32 },
      fullUs: { getPlant: 45, createPlant: 61 },
      fullRatio: { getPlant: 1.5, createPlant: 1.9 },
      fullRatioMiddle: { getPlant: [1.46, 1.53] },
      without: [],
      layers: {},
      candidates: {},
      rows: [],
    }
    const baselineRow = ledgerTable(ledger)
      .split('\n')
      .find((line) => line.startsWith('| bare Fastify'))
    expect(baselineRow).toContain('server 1.50x, middle half of rounds 1.46–1.53x')
    // A scenario without rounds to tell it from gets the ratio alone.
    expect(baselineRow).toMatch(/server 1\.90x\s*\|$/)
  })

  it('reads the server and the baseline from the scenarios’ own rows, and each row against them round by round', () => {
    const row = (scenario: string, target: string, cpu: number[], cpuRatio?: number): Row =>
      ({
        scenario,
        target,
        rounds: cpu.map((cpuUs) => ({ rps: 1, cpuUs, latency: { p50: 1, p99: 1, mean: 1 } })),
        cpuUsPerRequest: [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)],
        ...(cpuRatio === undefined ? {} : { cpuRatio }),
      }) as Row
    const rows = [
      row('getPlant', 'baseline', [30, 31, 29]),
      row('getPlant', 'server, 1,000 plants', [45, 50, 44], 1.5),
      row('getPlant', 'server, 1,000,000 plants', [90, 90, 90], 3),
      row('getPlant', 'without logging', [40, 41, 43]),
      row('getPlant', 'try-it, 1,000 plants', [44, 51, 40], 1.4),
      row('createPlant', 'baseline', [32, 32, 32]),
      row('createPlant', 'server', [61, 60, 62], 1.9),
      row('createPlant', 'without logging', [50, 50, 50]),
      row('createPlant', 'try-it', [60, 61, 63], 1.88),
    ]
    const ledger = ledgerOf(rows, [['logging']], ['try-it'], '1,000 plants')
    expect(ledger.scenarios).toEqual(['getPlant', 'createPlant'])
    // The server's figures are its scenario row's, not the large store's.
    expect(ledger.fullUs).toEqual({ getPlant: 45, createPlant: 61 })
    expect(ledger.baselineUs).toEqual({ getPlant: 30, createPlant: 32 })
    expect(ledger.fullRatio).toEqual({ getPlant: 1.5, createPlant: 1.9 })
    // Saved in each round: 5, 9, 1 and 11, 10, 12.
    expect(ledger.layers.logging).toEqual({
      getPlant: { cpuUs: 41, savesUs: 5 },
      createPlant: { cpuUs: 50, savesUs: 11 },
    })
    expect(ledger.candidates['try-it']?.getPlant).toEqual({
      cpuUs: 44,
      savesUs: 1,
      lowerIn: 2,
      rounds: 3,
      ratio: 1.4,
    })
    expect(ledger.rows.map((r) => r.target)).toEqual(['without logging', 'without logging'])
  })
})
