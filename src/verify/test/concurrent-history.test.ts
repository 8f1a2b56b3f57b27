// The concurrency layer's judgement, case by case: which histories of requests sent together some
// one-at-a-time order explains (each request taking effect between its sending and its answer), and
// which none does.
import { describe, expect, it } from 'vitest'
import { historyProblems, linearize, type Operation, type Step } from '../judge/concurrent-history.js'

const basil = { name: 'Basil', tag: 't' }
const thai = { name: 'Thai basil', tag: 't' }

/** An operation from [step, start, end, status, and a read's plant or a page's ids and Link]. */
function op(
  step: Step,
  start: number,
  end: number,
  status: number,
  extra: Partial<Operation['outcome']> = {},
) {
  return { step, start, end, outcome: { status, ...extra }, request: step.kind, answer: String(status) }
}
const create = (id: bigint, plant = basil): Step => ({ kind: 'create', id, plant })
const page = (after?: bigint): Step => ({ kind: 'page', tag: 't', limit: 2, ...(after ? { after } : {}) })

const cases: [string, Operation[], boolean][] = [
  [
    'creates of one id at once: one 200, the rest 409, the plant read after',
    [
      op(create(1n), 0, 5, 409),
      op(create(1n, thai), 0, 5, 200),
      op(create(1n), 0, 5, 409),
      op({ kind: 'read', id: 1n }, 6, 7, 200, { plant: thai }),
    ],
    true,
  ],
  [
    'creates of one id at once: two answered 200',
    [op(create(1n), 0, 5, 200), op(create(1n, thai), 0, 5, 200), op(create(1n), 0, 5, 409)],
    false,
  ],
  [
    'creates of one id at once: the plant read after is not the one answered 200',
    [
      op(create(1n), 0, 5, 409),
      op(create(1n, thai), 0, 5, 200),
      op({ kind: 'read', id: 1n }, 6, 7, 200, { plant: basil }),
    ],
    false,
  ],
  [
    'a 409 answered before the only 200 was sent: no order puts the create first',
    [op(create(1n), 0, 1, 409), op(create(1n), 2, 3, 200)],
    false,
  ],
  [
    'a 503 may have taken effect or not',
    [
      op(create(1n), 0, 5, 503),
      op(create(1n), 0, 5, 409),
      op({ kind: 'read', id: 1n }, 6, 7, 200, { plant: basil }),
    ],
    true,
  ],
  [
    'replace and delete at once, the replace first: 200 and 204, then gone',
    [
      op(create(1n), 0, 1, 200),
      op({ kind: 'replace', id: 1n, plant: thai }, 2, 5, 200),
      op({ kind: 'delete', id: 1n }, 2, 5, 204),
      op({ kind: 'read', id: 1n }, 6, 7, 404),
    ],
    true,
  ],
  [
    'replace and delete at once, the delete first: 404 and 204, then gone',
    [
      op(create(1n), 0, 1, 200),
      op({ kind: 'replace', id: 1n, plant: thai }, 2, 5, 404),
      op({ kind: 'delete', id: 1n }, 2, 5, 204),
      op({ kind: 'read', id: 1n }, 6, 7, 404),
    ],
    true,
  ],
  [
    'replace and delete at once, then the plant still there: a replace that created it again',
    [
      op(create(1n), 0, 1, 200),
      op({ kind: 'replace', id: 1n, plant: thai }, 2, 5, 200),
      op({ kind: 'delete', id: 1n }, 2, 5, 204),
      op({ kind: 'read', id: 1n }, 6, 7, 200, { plant: thai }),
    ],
    false,
  ],
  [
    'pages while a plant below the last listed is created: not listed, nothing twice',
    [
      op(create(2n), 0, 1, 200),
      op(create(4n), 1, 2, 200),
      op(create(6n), 2, 3, 200),
      op(page(), 4, 5, 200, { ids: [2n, 4n], next: true }),
      op(create(3n), 4, 6, 200),
      op(page(4n), 6, 7, 200, { ids: [6n], next: false }),
    ],
    true,
  ],
  [
    'pages by position: a plant listed twice after one is created below it',
    [
      op(create(2n), 0, 1, 200),
      op(create(4n), 1, 2, 200),
      op(create(6n), 2, 3, 200),
      op(page(), 4, 5, 200, { ids: [2n, 4n], next: true }),
      op(create(3n), 5, 6, 200),
      op(page(4n), 6, 7, 200, { ids: [4n, 6n], next: false }),
    ],
    false,
  ],
  [
    'a page without a Link while more follow: the walk skips a plant that stayed',
    [
      op(create(2n), 0, 1, 200),
      op(create(4n), 1, 2, 200),
      op(create(6n), 2, 3, 200),
      op(page(), 4, 5, 200, { ids: [2n, 4n], next: false }),
    ],
    false,
  ],
  [
    'a page read while a plant is deleted may show it or not',
    [
      op(create(2n), 0, 1, 200),
      op(create(4n), 1, 2, 200),
      op(page(), 3, 6, 200, { ids: [2n], next: false }),
      op({ kind: 'delete', id: 4n }, 3, 6, 204),
    ],
    true,
  ],
]

describe('a history of requests sent together', () => {
  it.each(cases)('%s', (_name, operations, explained) => {
    const verdict = linearize(operations)
    expect(verdict.explained).toBe(explained)
    if (verdict.explained) {
      // The order keeps every request that ended before another began ahead of it.
      const at = new Map(verdict.order.map((i, place) => [i, place]))
      for (const [i, a] of operations.entries())
        for (const [j, b] of operations.entries())
          if (a.end < b.start) expect(at.get(i) as number).toBeLessThan(at.get(j) as number)
    }
    expect(historyProblems(operations, 'the promise').length).toBe(explained ? 0 : 1)
  })

  it('says which request no order explains, and shows every request with its times', () => {
    const [problem] = historyProblems(
      [op(create(1n), 0, 5, 200), op(create(1n, thai), 0, 5, 200)],
      'one create of an id succeeds',
    )
    expect(problem).toMatch(/no one-at-a-time order .* \(one create of an id succeeds\)/)
    expect(problem).toMatch(/after it the document gives #\d 409/)
    expect(problem).toMatch(/#1 \[0\.0–5\.0 ms\] create → 200\n#2 \[0\.0–5\.0 ms\] create → 200/)
  })
})
