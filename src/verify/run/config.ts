// A team's own checks and hooks: what `defineConfig` and `defineCheck` take, typed for the team's
// configuration file, and how the run makes them checks beside the built-in ones and calls the hooks.
// A check or hook that throws ends the run with its message (exit 2): the team's code is broken, not
// the server under test.
import { LosslessNumber, parse as parseLossless } from 'lossless-json'
import type { Check } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import type { OutgoingRequest } from '../http.js'
import type { Results } from '../report/results.js'
import { TeamCodeError, VerifyUsageError } from './errors.js'

export type { OutgoingRequest } from '../http.js'

/** One exchange as a team's check reads it: the request the run sent and the answer it got. */
export interface CheckExchange {
  /** The document's operation the request went to; undefined for a method and path it lacks. */
  readonly operationId: string | undefined
  readonly request: {
    readonly method: string
    /** The whole URL, query included. */
    readonly url: string
    /** As sent, hooks included; lower-case names. */
    readonly headers: Readonly<Record<string, string>>
    /** The body exactly as sent, or undefined for none. */
    readonly body: string | undefined
  }
  readonly response: {
    readonly status: number
    /** Lower-case names. */
    readonly headers: Readonly<Record<string, string>>
    /**
     * The body parsed as JSON, every integer a bigint so that no id loses a digit (`5n`, not `5`);
     * undefined when the body is not JSON.
     */
    readonly body: unknown
    /** The body as text. */
    readonly text: string
  }
}

/** A team's own check: the promise it holds every answer to. */
export interface CheckDefinition {
  /** Lower case, digits and `_`: what --checks, --exclude-checks and every report call it. */
  name: string
  /** The promise, in one line. */
  description: string
  /** What is wrong with the exchange by this promise: one message per problem, an empty list when it holds. */
  run(exchange: CheckExchange): readonly string[]
}

export interface Hooks {
  /**
   * Before every request the run sends, every layer's, set-up and clean-up included: may change the
   * request's headers (in place, by assigning new ones, or in the request it returns); its method and
   * URL are the ones the run judges, and stay.
   */
  beforeRequest?(
    request: OutgoingRequest,
  ): void | OutgoingRequest | Promise<void> | Promise<OutgoingRequest | undefined>
  /** Once, before the first request: to prepare the store the principals use. */
  beforeRun?(): void | Promise<void>
  /** Once the run has its results, before any report is written: to clean up, or to send them on. */
  afterRun?(results: Results): void | Promise<void>
}

/** What a configuration file's default export is, and what `verify({ config })` takes. */
export interface VerifyConfig {
  checks?: readonly CheckDefinition[]
  hooks?: Hooks
}

const NAME = /^[a-z][a-z0-9_]*$/
const HOOKS = ['beforeRequest', 'beforeRun', 'afterRun'] as const

/** A team's check, checked for a usable name, a description and a run function. */
export function defineCheck(check: CheckDefinition): CheckDefinition {
  const { name, description, run } = (check ?? {}) as Partial<CheckDefinition>
  if (typeof name !== 'string' || !NAME.test(name))
    throw new VerifyUsageError(
      `a check's name is lower case letters, digits and _, starting with a letter, not ${JSON.stringify(name)}`,
    )
  if (typeof description !== 'string' || description.trim() === '')
    throw new VerifyUsageError(`the check ${name} needs a description: the promise it holds, in one line`)
  if (typeof run !== 'function')
    throw new VerifyUsageError(`the check ${name} needs a run function: (exchange) => messages`)
  return check
}

/** A configuration: the team's checks and hooks, each checked. */
export function defineConfig(config: VerifyConfig): VerifyConfig {
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new VerifyUsageError('a configuration is an object: { checks, hooks }')
  for (const key of Object.keys(config))
    if (key !== 'checks' && key !== 'hooks')
      throw new VerifyUsageError(`a configuration has checks and hooks, not ${key}`)
  if (config.checks !== undefined && !Array.isArray(config.checks))
    throw new VerifyUsageError('a configuration’s checks are a list: checks: [defineCheck({ … })]')
  for (const check of config.checks ?? []) defineCheck(check)
  const hooks = config.hooks ?? {}
  if (typeof hooks !== 'object' || hooks === null)
    throw new VerifyUsageError('a configuration’s hooks are an object: hooks: { beforeRequest, … }')
  for (const [key, hook] of Object.entries(hooks)) {
    if (!(HOOKS as readonly string[]).includes(key))
      throw new VerifyUsageError(`unknown hook ${key} (the hooks: ${HOOKS.join(', ')})`)
    if (typeof hook !== 'function') throw new VerifyUsageError(`the hook ${key} is not a function`)
  }
  return config
}

/**
 * The team's checks as the run's checks, after the built-in ones: a name a built-in check (or another
 * of the team's) has already is a usage error.
 */
export function teamChecks(config: VerifyConfig | undefined, builtIn: readonly Check[]): Check[] {
  const taken = new Set(builtIn.map((c) => c.name))
  return (defineConfig(config ?? {}).checks ?? []).map((definition) => {
    if (taken.has(definition.name))
      throw new VerifyUsageError(
        `the check ${definition.name} has the name of ${builtIn.some((c) => c.name === definition.name) ? 'a built-in check' : 'another of your checks'}: give it a name of its own`,
      )
    taken.add(definition.name)
    return teamCheck(definition)
  })
}

function teamCheck(definition: CheckDefinition): Check {
  return {
    name: definition.name,
    description: definition.description,
    appliesTo: (exchange) => exchange.kind === 'http',
    run(exchange) {
      if (exchange.kind !== 'http') return []
      let messages: unknown
      try {
        messages = definition.run(viewOf(exchange))
      } catch (error) {
        throw new TeamCodeError(`the check ${definition.name} failed: ${(error as Error)?.message ?? error}`)
      }
      if (!Array.isArray(messages) || messages.some((m) => typeof m !== 'string'))
        throw new TeamCodeError(
          `the check ${definition.name} returned ${messages instanceof Promise ? 'a promise' : typeof messages}: it returns a list of messages, empty when the promise holds`,
        )
      return messages as string[]
    },
  }
}

const views = new WeakMap<HttpExchange, CheckExchange>()

/** The exchange as a team's check reads it: copies, so that no check changes what another one reads. */
function viewOf(exchange: HttpExchange): CheckExchange {
  const known = views.get(exchange)
  if (known) return known
  const { answer, request } = exchange
  const view: CheckExchange = {
    operationId: exchange.operation?.operationId,
    request: {
      method: request.method,
      url: answer.url ?? request.path,
      headers: { ...answer.sentHeaders },
      body: request.body,
    },
    response: {
      status: answer.status,
      headers: { ...answer.headers },
      body: bodyOf(answer),
      text: answer.text,
    },
  }
  views.set(exchange, view)
  return view
}

/** A JSON body with every integer a bigint and every other number a number; undefined when it is not JSON. */
function bodyOf(answer: HttpExchange['answer']): unknown {
  if (!answer.isJson) return undefined
  try {
    return parseLossless(answer.text, null, {
      parseNumber: (token) => (/^-?\d+$/.test(token) ? BigInt(token) : Number(new LosslessNumber(token))),
    })
  } catch {
    return undefined
  }
}

/** The hooks of a configuration, each a failure of the team's code (exit 2) when it throws. */
export function hooksOf(config: VerifyConfig | undefined) {
  const hooks = config?.hooks ?? {}
  const call = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw new TeamCodeError(`the ${name} hook failed: ${(error as Error)?.message ?? error}`)
    }
  }
  const { beforeRequest, beforeRun, afterRun } = hooks
  return {
    beforeRequest: beforeRequest && ((request: OutgoingRequest) => headersAfter(beforeRequest, request)),
    beforeRun: () => call('beforeRun', () => beforeRun?.()),
    afterRun: (results: Results) => call('afterRun', () => afterRun?.(results)),
  }
}

/**
 * The headers a request goes with once the team's beforeRequest hook has seen it (see headersToSend);
 * a hook that throws is a failure of the team's code.
 */
export async function headersAfter(
  hook: NonNullable<Hooks['beforeRequest']>,
  request: OutgoingRequest,
): Promise<Record<string, string>> {
  const given = { method: request.method, url: request.url, headers: { ...request.headers } }
  let returned: unknown
  try {
    returned = await hook(given)
  } catch (error) {
    throw new TeamCodeError(`the beforeRequest hook failed: ${(error as Error)?.message ?? error}`)
  }
  return headersToSend(request, returned ?? given)
}

/**
 * The headers a beforeRequest hook leaves the request with, lower-case names (of two spellings of a
 * name, the one set last); a change the run cannot send as it is (another method or URL, a body, a
 * header that is not one) ends the run rather than going unsent.
 */
function headersToSend(sent: OutgoingRequest, request: unknown): Record<string, string> {
  const refuse = (why: string) => new TeamCodeError(`the beforeRequest hook ${why}`)
  if (request === null || typeof request !== 'object' || Array.isArray(request))
    throw refuse(
      `returned ${request === null ? 'null' : Array.isArray(request) ? 'a list' : typeof request}: it changes the request's headers, and returns nothing or the request`,
    )
  const { method, url, headers, ...rest } = request as Partial<OutgoingRequest>
  for (const [name, changed] of [
    ['method', method !== sent.method],
    ['URL', url !== sent.url],
    [Object.keys(rest).join(', '), Object.keys(rest).length > 0],
  ] as const)
    if (changed)
      throw refuse(
        `changed the request's ${name}: the run sends the request it judges, and takes a hook's headers alone`,
      )
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw refuse('left the request without headers: change them, or assign an object of them')
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string')
      throw refuse(
        `set the header ${JSON.stringify(name)} to ${value === null ? 'null' : typeof value}: a header's value is a string`,
      )
    out[name.toLowerCase()] = value
  }
  for (const [name, value] of Object.entries(out))
    try {
      new Headers([[name, value]])
    } catch {
      throw refuse(
        `set the header ${JSON.stringify(name)} to ${JSON.stringify(value)}, which HTTP cannot carry`,
      )
    }
  return out
}
