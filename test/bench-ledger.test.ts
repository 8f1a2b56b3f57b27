// The ledger's table says how steady its rounds were, beside the ratio the targets are read from.
import { describe, expect, it } from 'vitest'
import { type Ledger, ledgerTable } from '../bench/ledger.js'
import { middleHalf } from '../bench/report.js'

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
})
