// concurrent_consistency: requests sent together are answered as if the store took them one at a time,
// each at some instant between its sending and its answer (linearizable), and the store afterwards is
// what that order leaves (concurrent-history.ts searches for such an order).
import { historyProblems } from '../judge/concurrent-history.js'
import type { Check } from './check.js'

export const concurrentConsistency: Check = {
  name: 'concurrent_consistency',
  description:
    'requests sent together are answered as some one-at-a-time order of them would be, and leave the store as that order does',
  appliesTo: (exchange) => exchange.kind === 'concurrent',
  run: (exchange) =>
    exchange.kind === 'concurrent' ? historyProblems(exchange.operations, exchange.promise) : [],
}
