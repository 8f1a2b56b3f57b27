// A check: one promise the document makes, as one module: its name, what it promises, what it applies
// to, and a function from one exchange to what it found (empty when the promise holds). A problem
// carries its check's name from the moment it is found: no report, selection or proxy header ever
// guesses a check from a message's wording.
import type { Exchange, HttpExchange } from './exchange.js'

export interface Check {
  /** What --checks and --exclude-checks, every report and the proxy's header call it. */
  name: string
  /** The promise, in one line. */
  description: string
  /** Whether it judges this exchange: an answer it applies to counts as passed when it finds nothing. */
  appliesTo(exchange: Exchange): boolean
  /** What is wrong with the exchange by this promise: one message per problem, none when it holds. */
  run(exchange: Exchange): string[]
}

/** One broken promise: the check that found it, and what it found. */
export interface Finding {
  check: string
  message: string
}

/** A check's name as the registry, the options and the reports take it. */
export type CheckName = string

/** A check of answers to requests (every built-in one but the webhook's): the kind tested once, here. */
export function answerCheck(check: {
  name: string
  description: string
  appliesTo(exchange: HttpExchange): boolean
  run(exchange: HttpExchange): string[]
}): Check {
  return {
    name: check.name,
    description: check.description,
    appliesTo: (exchange) => exchange.kind === 'http' && check.appliesTo(exchange),
    run: (exchange) => (exchange.kind === 'http' ? check.run(exchange) : []),
  }
}
