// A short run of `npm run soak` (bench/soak.ts): the real server under steady load of every operation,
// with no errors, memory steady after warm-up, and no file descriptor left open.
import { expect, it } from 'vitest'
import { describeSoak, type SoakOptions, soak, soakProblems } from '../bench/soak.js'

it('serves a steady load of every operation without errors, memory growth or leaked descriptors', async () => {
  const options: SoakOptions = { duration: 6, warmUp: 2, rate: 100, connections: 4 }
  const result = await soak(options)
  console.log(describeSoak(options, result))
  expect(result.requests).toBeGreaterThan(0)
  expect(soakProblems(result)).toEqual([])
}, 60_000)
