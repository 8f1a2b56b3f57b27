// Overload is a 503 with Retry-After in the Error shape, not latency without bound: @fastify/under-pressure
// samples event-loop delay (and heap, RSS when set) and refuses requests while a threshold is exceeded.
import underPressure from '@fastify/under-pressure'
import { HttpError } from '@plant-store/core'
import fp from 'fastify-plugin'
import type { Config } from '../../config.js'

// Stryker disable ArrowFunction,StringLiteral,ObjectLiteral: unreachable: only overload (a lagging event loop, a heap past its threshold) or SIMULATE_FAULTS, both off in the runner's store, throws it; src/server/test/reliability.test.ts ('overload') covers it.
export const overloaded = (retryAfterSeconds: number) =>
  new HttpError(503, 'the server is overloaded: try again later', {
    'retry-after': String(retryAfterSeconds),
  })
// Stryker restore ArrowFunction,StringLiteral,ObjectLiteral

export default fp(
  // Stryker disable BlockStatement,ObjectLiteral,StringLiteral: unreachable: the guard answers only an overloaded process, which no request can make so at will, and the runner's store has it off (STORE_ENV); src/server/test/reliability.test.ts ('overload') covers it.
  async (app, { config }: { config: Config }) => {
    const { maxEventLoopDelayMs, maxHeapUsedBytes, maxRssBytes } = config.overload
    await app.register(underPressure, {
      // 0 leaves a measure unchecked, as under-pressure itself reads 0.
      maxEventLoopDelay: maxEventLoopDelayMs,
      maxHeapUsedBytes,
      maxRssBytes,
      // Samples twice a second: overload shows, and passes, within half a second.
      sampleInterval: 500,
      // Rejected, the promise goes to the app's error handler, which answers in the Error shape.
      pressureHandler: async () => {
        throw overloaded(config.retryAfterSeconds)
      },
    })
  },
  { name: 'under-pressure' },
  // Stryker restore BlockStatement,ObjectLiteral,StringLiteral
)
