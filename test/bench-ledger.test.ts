// The ledger's table says how steady its rounds were, beside the ratio the targets are read from.
import { describe, expect, it } from 'vitest'
import { type Ledger, ledgerOf, ledgerTable } from '../bench/ledger.js'
import { middleHalf, type Row, stealNotice } from '../bench/report.js'
import { roundOrder } from '../bench/scenarios.js'

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

describe('the rounds of a scenario', () => {
  const balance = (targets: string[], rounds: number) => {
    const orders = Array.from({ length: rounds }, (_, i) => roundOrder(targets, i + 1))
    const places = new Map<string, number[]>()
    const follows = new Map<string, number>()
    for (const order of orders) {
      expect([...order].sort()).toEqual([...targets].sort())
      order.forEach((t, place) => {
        places.set(t, [...(places.get(t) ?? []), place])
      })
      order.slice(1).forEach((t, i) => {
        const pair = `${order[i]} > ${t}`
        follows.set(pair, (follows.get(pair) ?? 0) + 1)
      })
    }
    return { orders, places, follows }
  }

  it('start with the first target, then put each target in each place and after each other one alike', () => {
    const even = ['baseline', 'server', 'candidate', 'prism']
    const { orders, places, follows } = balance(even, 4)
    expect(orders[0]?.[0]).toBe('baseline')
    for (const target of even) expect([...(places.get(target) ?? [])].sort()).toEqual([0, 1, 2, 3])
    // 4 × 3 ordered pairs, each once.
    expect(follows.size).toBe(12)
    expect([...follows.values()].every((n) => n === 1)).toBe(true)
    // The fifth round starts over.
    expect(roundOrder(even, 5)).toEqual(orders[0])
  })

  it('take twice as many rounds to do so with an odd number of targets', () => {
    const odd = ['baseline', 'server', 'prism']
    const { places, follows } = balance(odd, 6)
    for (const target of odd) expect([...(places.get(target) ?? [])].sort()).toEqual([0, 0, 1, 1, 2, 2])
    expect(follows.size).toBe(6)
    expect([...follows.values()].every((n) => n === 2)).toBe(true)
    expect(roundOrder([], 3)).toEqual([])
    expect(roundOrder(['alone'], 2)).toEqual(['alone'])
  })
})

describe('a run’s steal', () => {
  const row = (scenario: string, target: string, stealShare: number) =>
    ({ scenario, target, stealShare }) as Row

  it('says nothing of a quiet run, and names the target that lost the most of a noisy one', () => {
    expect(stealNotice([row('getPlant', 'baseline', 0.01), row('getPlant', 'server', 0.05)])).toBeUndefined()
    expect(stealNotice([])).toBeUndefined()
    // 5.2% prints as 5%, the quiet run's limit: not above it as the column reads.
    expect(stealNotice([row('listPlants', 'server', 0.052)])).toBeUndefined()
    expect(stealNotice([row('listPlants', 'server', 0.056)])).toMatch(/up to 6% /)
    const notice = stealNotice([
      row('createPlant', 'baseline', 0.02),
      row('createPlant', 'server', 0.44),
      row('getPlant', 'server', 0.3),
    ])
    expect(notice).toMatch(
      /^Not a quiet run: .* up to 44% .*\(steal, in createPlant · server\), above the 5%/,
    )
    expect(notice).toContain('not comparable')
  })
})
