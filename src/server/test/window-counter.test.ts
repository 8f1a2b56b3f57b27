// The rate limits' counter: fixed windows from a key's first request, a bounded number of keys.
import { describe, expect, it } from 'vitest'
import { WindowCounter } from '../lib/window-counter.js'

describe('WindowCounter', () => {
  it('counts a key within its window and starts a new one once it has run out', () => {
    const counter = new WindowCounter(2, 60_000)
    const first = counter.hit('alice', 1_000)
    expect([first.count, counter.remaining(first), counter.resetSeconds(first, 1_000)]).toEqual([1, 1, 60])
    counter.hit('alice', 2_000)
    const third = counter.hit('alice', 30_500)
    expect([third.count, counter.remaining(third), counter.resetSeconds(third, 30_500)]).toEqual([3, 0, 31])
    expect(counter.hit('bob', 30_500).count).toBe(1)
    const renewed = counter.hit('alice', 61_000)
    expect([renewed.count, renewed.startMs]).toEqual([1, 61_000])
  })

  it('never tells a client to retry at once', () => {
    const counter = new WindowCounter(1, 1_000)
    const window = counter.hit('alice', 0)
    expect(counter.resetSeconds(window, 999)).toBe(1)
  })

  it('forgets the key whose window started longest ago once full', () => {
    const counter = new WindowCounter(5, 60_000, 2)
    counter.hit('a', 0)
    counter.hit('b', 1)
    counter.hit('a', 2)
    counter.hit('c', 3)
    // 'a' started first and was forgotten: it counts from 1 again; 'b' and 'c' are kept.
    expect(counter.hit('a', 4).count).toBe(1)
    expect(counter.hit('c', 5).count).toBe(2)
  })

  it('counts a key whose window started anew as the newest, so it is forgotten last', () => {
    const counter = new WindowCounter(5, 10, 2)
    counter.hit('a', 0)
    counter.hit('b', 1)
    // 'a' starts a new window: now 'b' started longest ago, and is the one forgotten for 'c'.
    counter.hit('a', 20)
    counter.hit('c', 21)
    expect(counter.hit('a', 22).count).toBe(2)
    expect(counter.hit('b', 23).count).toBe(1)
  })
})
