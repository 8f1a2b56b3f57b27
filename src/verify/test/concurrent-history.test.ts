// The concurrency layer's judgement, case by case: which histories of requests sent together some
// one-at-a-time order explains (each request taking effect between its sending and its answer), and
// which none does.
import { describe, expect, it } from 'vitest'
import {
  type Contents,
  historyProblems,
  linearize,
  type Operation,
  type Step,
} from '../judge/concurrent-history.js'

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
const lemon = { name: 'Lemon basil' }
const create = (id: bigint, plant: Contents = basil): Step => ({ kind: 'create', id, plant })
const replace = (id: bigint, plant: Contents): Step => ({ kind: 'replace', id, plant })
const read = (id: bigint): Step => ({ kind: 'read', id })
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
    'two replaces at once with reads beside: each read whole, as before, between or after, in one order',
    [
      op(create(1n), 0, 1, 200),
      op(replace(1n, thai), 2, 8, 200),
      op(read(1n), 2, 3, 200, { plant: basil }),
      op(replace(1n, lemon), 2, 8, 200),
      op(read(1n), 3, 5, 200, { plant: lemon }),
      op(read(1n), 5, 7, 200, { plant: thai }),
      op(read(1n), 9, 10, 200, { plant: thai }),
    ],
    true,
  ],
  [
    'two replaces at once: the plant read after is torn, the name of one and the tag of the other',
    [
      op(create(1n), 0, 1, 200),
      op(replace(1n, thai), 2, 8, 200),
      op(replace(1n, lemon), 2, 8, 200),
      op(read(1n), 9, 10, 200, { plant: { name: 'Lemon basil', tag: 't' } }),
    ],
    false,
  ],
  [
    'two replaces at once: a read beside them shows the new name with the old tag',
    [
      op(create(1n), 0, 1, 200),
      op(replace(1n, { name: 'Thai basil', tag: 'u' }), 2, 8, 200),
      op(read(1n), 2, 8, 200, { plant: { name: 'Thai basil', tag: 't' } }),
      op(replace(1n, lemon), 2, 8, 200),
      op(read(1n), 9, 10, 200, { plant: lemon }),
    ],
    false,
  ],
  [
    'a replace of a plant that exists throughout: a read beside it answered 404',
    [
      op(create(1n), 0, 1, 200),
      op(replace(1n, thai), 2, 8, 200),
      op(read(1n), 3, 4, 404),
      op(read(1n), 9, 10, 200, { plant: thai }),
    ],
    false,
  ],
  [
    'two replaces of a plant that exists throughout: the second answered 404',
    [
      op(create(1n), 0, 1, 200),
      op(replace(1n, thai), 2, 8, 200),
      op(replace(1n, lemon), 2, 8, 404),
      op(read(1n), 9, 10, 200, { plant: thai }),
    ],
    false,
  ],
  [
    'a replace and a create of a plant that exists: 200 and 409 in either order, the plant whole',
    [
      op(create(1n), 0, 1, 200),
      op(create(1n, lemon), 2, 8, 409),
      op(replace(1n, thai), 2, 8, 200),
      op(read(1n), 2, 8, 200, { plant: basil }),
      op(read(1n), 9, 10, 200, { plant: thai }),
    ],
    true,
  ],
  [
    'a replace and a create of a plant that exists: the create finds it gone mid-replace',
    [
      op(create(1n), 0, 1, 200),
      op(create(1n, lemon), 2, 8, 200),
      op(replace(1n, thai), 2, 8, 200),
      op(read(1n), 9, 10, 200, { plant: thai }),
    ],
    false,
  ],
  [
    'a delete and a replace at once, a read beside them finding the plant gone: the delete first',
    [
      op(create(1n), 0, 1, 200),
      op({ kind: 'delete', id: 1n }, 2, 8, 204),
      op(read(1n), 2, 8, 404),
      op(replace(1n, thai), 2, 8, 404),
      op(read(1n), 9, 10, 404),
    ],
    true,
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

  it('says which read shows a body no request wrote, and whose name and tag it mixes', () => {
    const [problem] = historyProblems(
      [
        op(create(1n), 0, 1, 200),
        op(replace(1n, thai), 2, 8, 200),
        op(replace(1n, lemon), 2, 8, 200),
        op(read(1n), 9, 10, 200, { plant: { name: 'Lemon basil', tag: 't' } }),
      ],
      'each read shows the plant whole',
    )
    expect(problem).toMatch(
      /#4 read plant 1 as \{"name":"Lemon basil","tag":"t"\}, a body no request wrote: the name #3 sent and the tag #1 sent\./,
    )
    expect(problem).toMatch(/\n#4 \[9\.0–10\.0 ms\] read → 200$/)
  })

  it('says which request was answered 404 for a plant created before it and never deleted', () => {
    const [problem] = historyProblems(
      [op(create(1n), 0, 1, 200), op(replace(1n, thai), 2, 8, 200), op(read(1n), 3, 4, 404)],
      'a plant that exists throughout is never answered 404',
    )
    expect(problem).toMatch(
      /#3 was answered 404 for plant 1, which #1 created before it was sent and no request deleted\./,
    )
  })
})
