// Reads and validates the server's configuration from the environment; a bad value stops the start.
// The schema, the webhook, JWT and CORS settings each have a file of their own in config/.
import { corsOrigins } from './config/cors-origins.js'
import { validated } from './config/env.js'
import type { Env, LogLevel } from './config/env-schema.js'
import { type JwtConfig, jwtConfig } from './config/jwt-config.js'
import { type WebhookConfig, webhookConfig } from './config/webhook-config.js'

export type { JwtConfig } from './config/jwt-config.js'
export { SANDBOX_WEBHOOK_SECRET, sandboxPrincipal, type WebhookConfig } from './config/webhook-config.js'

export const DEV_TOKEN = 'dev-token'
export const DEV_PRINCIPAL = 'dev'

export interface Config {
  nodeEnv: string
  host: string
  port: number
  logLevel: LogLevel
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
  /** JSON Web Tokens from an identity provider, besides `tokens`; the principal is `sub`. */
  jwt: JwtConfig | undefined
  /** True when neither AUTH_TOKENS nor JWT settings were given and the development principal stands in. */
  devPrincipal: boolean
  /** Any bearer token is accepted, each its own principal with a store seeded from the examples. */
  sandbox: boolean
  /** The sandbox's HAR recording (SANDBOX_SEED, --seed): its principals start as it left them. */
  sandboxSeed: string | undefined
  /** The most principals the sandbox keeps (SANDBOX_MAX_PRINCIPALS): past it, the least recently used is dropped. */
  sandboxMaxPrincipals: number
  /** Origins a browser page may call from: any (`*`), these, or none (`[]`: no CORS answers). */
  corsOrigins: '*' | string[]
  rateLimit: {
    /** Requests one principal may make in a window. */
    max: number
    /** Requests with a missing or unknown token one client address may make in a window. */
    authFailures: number
    windowSeconds: number
  }
  /** Milliseconds (0: no limit), see the Limits section of spec/openapi.yaml. */
  timeouts: { headers: number; request: number; keepAlive: number; connection: number }
  /** When the server answers 503: thresholds of under-pressure (0: not checked). */
  overload: { maxEventLoopDelayMs: number; maxHeapUsedBytes: number; maxRssBytes: number }
  /** Seconds a client is told to wait (Retry-After) on a 503. */
  retryAfterSeconds: number
  /** Caps the SQLite file at this many pages: writes past it are a 507, as on a full disk. */
  sqliteMaxPageCount: number | undefined
  /** Reads only: writes are a 503, as on a read-only file system. */
  databaseReadOnly: boolean
  /** For tests: the X-Simulate-Fault header makes a request fail as under a fault (never in production). */
  simulateFaults: boolean
  /** The newPlant webhook: undefined when no endpoint is configured, and no event is stored then. */
  webhooks: WebhookConfig | undefined
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  let parsed: Env
  // A variable set to '' counts as unset, as shells make it easy to leave one empty. The copy also
  // keeps Ajv's in-place coercion away from process.env.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const sandboxCapGiven = given.SANDBOX_MAX_PRINCIPALS !== undefined
  try {
    parsed = validated(given)
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
  if (parsed.SANDBOX_SEED !== undefined && !parsed.SANDBOX)
    throw new Error('invalid configuration: SANDBOX_SEED seeds the sandbox: set SANDBOX=true too')
  if (sandboxCapGiven && !parsed.SANDBOX)
    throw new Error('invalid configuration: SANDBOX_MAX_PRINCIPALS bounds the sandbox: set SANDBOX=true too')
  if (parsed.SIMULATE_FAULTS && production) {
    throw new Error(
      'invalid configuration: SIMULATE_FAULTS is for tests and cannot run with NODE_ENV=production',
    )
  }
  if (parsed.HEADERS_TIMEOUT_MS > parsed.REQUEST_TIMEOUT_MS) {
    throw new Error(
      `invalid configuration: HEADERS_TIMEOUT_MS (${parsed.HEADERS_TIMEOUT_MS}) must not be more than ` +
        `REQUEST_TIMEOUT_MS (${parsed.REQUEST_TIMEOUT_MS}): the headers are part of the request`,
    )
  }
  const tokens = new Map<string, string>()
  for (const pair of parsed.AUTH_TOKENS?.split(',') ?? []) {
    const [principal = '', token = ''] = pair.split(':')
    if (tokens.has(token)) throw new Error('invalid configuration: AUTH_TOKENS lists one token twice')
    tokens.set(token, principal)
  }
  const jwt = jwtConfig(parsed)
  if (jwt && parsed.SANDBOX) {
    throw new Error('invalid configuration: SANDBOX accepts any token; JWT_* settings cannot be used with it')
  }
  const devPrincipal = tokens.size === 0 && !jwt && !parsed.SANDBOX
  if (devPrincipal && production) {
    throw new Error(
      'invalid configuration: AUTH_TOKENS, or JWT_JWKS_URL or JWT_SECRET, must be set when NODE_ENV=production',
    )
  }
  if (devPrincipal) tokens.set(DEV_TOKEN, DEV_PRINCIPAL)
  const webhooks = webhookConfig(parsed, {
    // A JSON Web Token's principal is its `sub`, which no list here names; the sandbox makes one of any token.
    anyPrincipal: jwt !== undefined || parsed.SANDBOX,
    principals: new Set(tokens.values()),
    production,
    sandbox: parsed.SANDBOX,
  })
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
    jwt,
    devPrincipal,
    sandbox: parsed.SANDBOX,
    sandboxSeed: parsed.SANDBOX_SEED,
    sandboxMaxPrincipals: parsed.SANDBOX_MAX_PRINCIPALS,
    corsOrigins: corsOrigins(parsed.CORS_ORIGIN, production),
    rateLimit: {
      max: parsed.RATE_LIMIT_MAX,
      authFailures: parsed.AUTH_FAILURE_LIMIT,
      windowSeconds: parsed.RATE_LIMIT_WINDOW,
    },
    timeouts: {
      headers: parsed.HEADERS_TIMEOUT_MS,
      request: parsed.REQUEST_TIMEOUT_MS,
      keepAlive: parsed.KEEP_ALIVE_TIMEOUT_MS,
      connection: parsed.CONNECTION_TIMEOUT_MS,
    },
    overload: {
      maxEventLoopDelayMs: parsed.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: parsed.OVERLOAD_MAX_HEAP_USED_BYTES,
      maxRssBytes: parsed.OVERLOAD_MAX_RSS_BYTES,
    },
    retryAfterSeconds: parsed.RETRY_AFTER_SECONDS,
    sqliteMaxPageCount: parsed.SQLITE_MAX_PAGE_COUNT,
    databaseReadOnly: parsed.DATABASE_READ_ONLY,
    simulateFaults: parsed.SIMULATE_FAULTS,
    webhooks,
  }
}
