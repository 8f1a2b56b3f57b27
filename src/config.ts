// Reads and validates the server's configuration from the environment; a bad value stops the start.
import type { ErrorObject } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'

export const DEV_TOKEN = 'dev-token'
export const DEV_PRINCIPAL = 'dev'

export interface Config {
  nodeEnv: string
  host: string
  port: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://…` (`postgresql://…`). */
  databaseUrl: string
  /** PostgreSQL: the most connections one instance holds open. */
  databasePoolSize: number
  /** PostgreSQL: how long a request waits for a connection (new, or free in the pool). */
  databaseConnectTimeoutMs: number
  /** PostgreSQL: the longest a statement may run before it is cancelled. */
  databaseStatementTimeoutMs: number
  /** token → principal. */
  tokens: Map<string, string>
  /** True when no AUTH_TOKENS were given and the development principal stands in. */
  devPrincipal: boolean
  /** Any bearer token is accepted, each its own principal with a store seeded from the examples. */
  sandbox: boolean
  corsOrigin: string
  rateLimit: {
    /** Requests one principal may make in a window. */
    max: number
    /** Requests with a missing or unknown token one client address may make in a window. */
    authFailures: number
    windowSeconds: number
  }
}

const schema = {
  type: 'object',
  properties: {
    NODE_ENV: { enum: ['development', 'production', 'test'], default: 'development' },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    LOG_LEVEL: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    DATABASE_URL: {
      type: 'string',
      pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
      default: 'sqlite:./data/plants.db',
    },
    DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
    DATABASE_CONNECT_TIMEOUT_MS: { type: 'integer', minimum: 1, maximum: 600_000, default: 2000 },
    DATABASE_STATEMENT_TIMEOUT_MS: { type: 'integer', minimum: 1, maximum: 600_000, default: 5000 },
    AUTH_TOKENS: { type: 'string', pattern: '^[^:,\\s]+:[^:,\\s]+(,[^:,\\s]+:[^:,\\s]+)*$' },
    SANDBOX: { type: 'boolean', default: false },
    CORS_ORIGIN: { type: 'string', minLength: 1, default: '*' },
    RATE_LIMIT_MAX: { type: 'integer', minimum: 1, default: 1000 },
    RATE_LIMIT_WINDOW: { type: 'integer', minimum: 1, maximum: 86400, default: 60 },
    AUTH_FAILURE_LIMIT: { type: 'integer', minimum: 1, default: 20 },
  },
} as const

interface Env {
  NODE_ENV: string
  HOST: string
  PORT: number
  LOG_LEVEL: Config['logLevel']
  DATABASE_URL: string
  DATABASE_POOL_SIZE: number
  DATABASE_CONNECT_TIMEOUT_MS: number
  DATABASE_STATEMENT_TIMEOUT_MS: number
  AUTH_TOKENS?: string
  SANDBOX: boolean
  CORS_ORIGIN: string
  RATE_LIMIT_MAX: number
  RATE_LIMIT_WINDOW: number
  AUTH_FAILURE_LIMIT: number
}

/**
 * Checks the environment against the schema above (defaults filled in, strings coerced, unknown
 * variables dropped) with the Ajv class the request validation loads anyway: a library of its own for
 * this (env-schema) brought a second Ajv build, a sixth of the server's start.
 */
function validated(data: Record<string, unknown>): Env {
  const ajv = new Ajv2020({
    allErrors: true,
    removeAdditional: true,
    useDefaults: true,
    coerceTypes: true,
    allowUnionTypes: true,
    addUsedSchema: false,
    // The schema above is a constant: checking it against the 2020-12 meta-schema is all cost.
    validateSchema: false,
  })
  if (!ajv.validate({ ...schema, additionalProperties: false }, data)) {
    throw new Error((ajv.errors ?? []).map((error) => explain(error, data)).join('; '))
  }
  return data as unknown as Env
}

// What a person needs to mend a value, where Ajv's own words (a regular expression) would not say it.
const forms: Record<string, string> = {
  AUTH_TOKENS: 'principal:token pairs separated by commas, e.g. alice:token-a,bob:token-b',
  DATABASE_URL:
    'sqlite:<file>, sqlite::memory: or postgres://user:password@host:port/database (postgresql:// too)',
}

function explain(error: ErrorObject, data: Record<string, unknown>): string {
  const name = error.instancePath.slice(1)
  const given = JSON.stringify(data[name])
  if (error.keyword === 'pattern' && forms[name]) return `${name} must be ${forms[name]}, not ${given}`
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.join(', ')
    return `${name} must be one of ${allowed}, not ${given}`
  }
  return `${name} ${error.message ?? 'is not valid'}, not ${given}`
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  let parsed: Env
  try {
    // A variable set to '' counts as unset, as shells make it easy to leave one empty. The copy also
    // keeps Ajv's in-place coercion away from process.env.
    const data = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
    parsed = validated(data)
  } catch (error) {
    throw new Error(`invalid configuration: ${(error as Error).message}`)
  }
  if (/^postgres/.test(parsed.DATABASE_URL) && !URL.canParse(parsed.DATABASE_URL)) {
    throw new Error(
      `invalid configuration: DATABASE_URL is not a URL; write it as postgres://user:password@host:port/database, with special characters in the password percent-encoded`,
    )
  }
  const production = parsed.NODE_ENV === 'production'
  if (parsed.SANDBOX && production) {
    throw new Error(
      'invalid configuration: SANDBOX accepts any token and cannot run with NODE_ENV=production',
    )
  }
  const tokens = new Map<string, string>()
  for (const pair of parsed.AUTH_TOKENS?.split(',') ?? []) {
    const [principal = '', token = ''] = pair.split(':')
    if (tokens.has(token)) throw new Error('invalid configuration: AUTH_TOKENS lists one token twice')
    tokens.set(token, principal)
  }
  const devPrincipal = tokens.size === 0 && !parsed.SANDBOX
  if (devPrincipal && production) {
    throw new Error('invalid configuration: AUTH_TOKENS must be set when NODE_ENV=production')
  }
  if (devPrincipal) tokens.set(DEV_TOKEN, DEV_PRINCIPAL)
  return {
    nodeEnv: parsed.NODE_ENV,
    host: parsed.HOST,
    port: parsed.PORT,
    logLevel: parsed.LOG_LEVEL,
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: parsed.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: parsed.DATABASE_STATEMENT_TIMEOUT_MS,
    tokens,
    devPrincipal,
    sandbox: parsed.SANDBOX,
    // `a.example, b.example` is what people write: the spaces are not part of an origin.
    corsOrigin: parsed.CORS_ORIGIN.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean)
      .join(','),
    rateLimit: {
      max: parsed.RATE_LIMIT_MAX,
      authFailures: parsed.AUTH_FAILURE_LIMIT,
      windowSeconds: parsed.RATE_LIMIT_WINDOW,
    },
  }
}
