// Reads and validates the server's configuration from the environment; a bad value stops the start.
import { hash } from 'node:crypto'
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
  /** JSON Web Tokens from an identity provider, besides `tokens`; the principal is `sub`. */
  jwt: JwtConfig | undefined
  /** True when neither AUTH_TOKENS nor JWT settings were given and the development principal stands in. */
  devPrincipal: boolean
  /** Any bearer token is accepted, each its own principal with a store seeded from the examples. */
  sandbox: boolean
  /** The sandbox's HAR recording (SANDBOX_SEED, --seed): its principals start as it left them. */
  sandboxSeed: string | undefined
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

export interface WebhookConfig {
  /** principal → where its new plants are sent. */
  endpoints: Map<string, URL>
  /** `whsec_<base64>`: each signs every delivery, so that a secret can be rotated without a gap. */
  secrets: string[]
  /** How long a receiver has to answer an attempt. */
  timeoutMs: number
  /** The wait before the first retry; each later wait about doubles, up to `retryMaxMs`. */
  retryBaseMs: number
  retryMaxMs: number
  /** Attempts in all, the first included, before an event is kept as failed. */
  maxAttempts: number
  /** Events waiting for delivery past which a create is refused (503), so none is created without its event. */
  maxPending: number
  /** How often the worker looks for due events from other instances or earlier runs. */
  pollMs: number
  /** Whether this instance sends events; when not, others on the same database send what it stores. */
  deliver: boolean
}

export interface JwtConfig {
  /** The identity provider's JSON Web Key Set, fetched when first needed and again for an unknown `kid`. */
  jwksUrl?: URL
  /** A shared secret for HMAC-signed tokens (HS256, HS384, HS512), instead of a key set. */
  secret?: string
  /** The `iss` and `aud` every token must carry. */
  issuer: string
  audience: string
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
    JWT_JWKS_URL: { type: 'string' },
    JWT_SECRET: { type: 'string', minLength: 32 },
    JWT_ISSUER: { type: 'string' },
    JWT_AUDIENCE: { type: 'string' },
    SANDBOX: { type: 'boolean', default: false },
    SANDBOX_SEED: { type: 'string' },
    CORS_ORIGIN: { type: 'string' },
    RATE_LIMIT_MAX: { type: 'integer', minimum: 1, default: 1000 },
    RATE_LIMIT_WINDOW: { type: 'integer', minimum: 1, maximum: 86400, default: 60 },
    AUTH_FAILURE_LIMIT: { type: 'integer', minimum: 1, default: 20 },
    HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 1, default: 10_000 },
    REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1, default: 30_000 },
    KEEP_ALIVE_TIMEOUT_MS: { type: 'integer', minimum: 1, default: 72_000 },
    CONNECTION_TIMEOUT_MS: { type: 'integer', minimum: 0, default: 120_000 },
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: { type: 'integer', minimum: 0, default: 1_000 },
    OVERLOAD_MAX_HEAP_USED_BYTES: { type: 'integer', minimum: 0, default: 0 },
    OVERLOAD_MAX_RSS_BYTES: { type: 'integer', minimum: 0, default: 0 },
    RETRY_AFTER_SECONDS: { type: 'integer', minimum: 1, default: 5 },
    SQLITE_MAX_PAGE_COUNT: { type: 'integer', minimum: 1 },
    DATABASE_READ_ONLY: { type: 'boolean', default: false },
    SIMULATE_FAULTS: { type: 'boolean', default: false },
    WEBHOOK_ENDPOINTS: { type: 'string' },
    WEBHOOK_SECRET: { type: 'string' },
    WEBHOOK_TIMEOUT_MS: { type: 'integer', minimum: 1, maximum: 600_000, default: 10_000 },
    WEBHOOK_RETRY_BASE_MS: { type: 'integer', minimum: 1, default: 5_000 },
    WEBHOOK_RETRY_MAX_MS: { type: 'integer', minimum: 1, default: 3_600_000 },
    WEBHOOK_MAX_ATTEMPTS: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
    WEBHOOK_MAX_PENDING: { type: 'integer', minimum: 1, default: 10_000 },
    WEBHOOK_POLL_MS: { type: 'integer', minimum: 10, maximum: 600_000, default: 1_000 },
    WEBHOOK_DELIVERY: { type: 'boolean', default: true },
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
  JWT_JWKS_URL?: string
  JWT_SECRET?: string
  JWT_ISSUER?: string
  JWT_AUDIENCE?: string
  SANDBOX: boolean
  SANDBOX_SEED?: string
  CORS_ORIGIN?: string
  RATE_LIMIT_MAX: number
  RATE_LIMIT_WINDOW: number
  AUTH_FAILURE_LIMIT: number
  HEADERS_TIMEOUT_MS: number
  REQUEST_TIMEOUT_MS: number
  KEEP_ALIVE_TIMEOUT_MS: number
  CONNECTION_TIMEOUT_MS: number
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: number
  OVERLOAD_MAX_HEAP_USED_BYTES: number
  OVERLOAD_MAX_RSS_BYTES: number
  RETRY_AFTER_SECONDS: number
  SQLITE_MAX_PAGE_COUNT?: number
  DATABASE_READ_ONLY: boolean
  SIMULATE_FAULTS: boolean
  WEBHOOK_ENDPOINTS?: string
  WEBHOOK_SECRET?: string
  WEBHOOK_TIMEOUT_MS: number
  WEBHOOK_RETRY_BASE_MS: number
  WEBHOOK_RETRY_MAX_MS: number
  WEBHOOK_MAX_ATTEMPTS: number
  WEBHOOK_MAX_PENDING: number
  WEBHOOK_POLL_MS: number
  WEBHOOK_DELIVERY: boolean
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
  // Timeouts and thresholds: a count, said in its unit rather than as Ajv's `must be integer`.
  const unit = /_MS$/.test(name)
    ? 'milliseconds'
    : /_BYTES$/.test(name)
      ? 'bytes'
      : /_SECONDS$/.test(name)
        ? 'seconds'
        : undefined
  if (unit && (error.keyword === 'type' || error.keyword === 'minimum')) {
    const minimum = (schema.properties as Record<string, { minimum?: number }>)[name]?.minimum ?? 0
    return `${name} must be a whole number of ${unit}, at least ${minimum}, not ${given}`
  }
  if (name === 'JWT_SECRET' && error.keyword === 'minLength') {
    // Never echo a secret, not even a short one.
    return 'JWT_SECRET must be at least 32 characters (RFC 7518: an HMAC key as long as its hash)'
  }
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
  if (parsed.SANDBOX_SEED !== undefined && !parsed.SANDBOX)
    throw new Error('invalid configuration: SANDBOX_SEED seeds the sandbox: set SANDBOX=true too')
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

interface Principals {
  anyPrincipal: boolean
  principals: Set<string>
  production: boolean
  /** Any caller may name a URL for its own token's events, so the webhook is on with no endpoint given. */
  sandbox: boolean
}

/**
 * Signs the sandbox's events when WEBHOOK_SECRET is not set: published in the docs, as anyone may
 * receive the sandbox's events anyway; the sandbox never runs in production.
 */
export const SANDBOX_WEBHOOK_SECRET = 'whsec_cGxhbnQgc3RvcmUgc2FuZGJveDogbm90IHNlY3JldCE='

/** A sandbox principal's name, as auth names the principal of a token there: `sandbox:` and 32 hex digits. */
export function sandboxPrincipal(token: string): string {
  return `sandbox:${hash('sha256', token, 'hex').slice(0, 32)}`
}

// Standard Webhooks: a secret of 24 to 64 random bytes, written in base64 after `whsec_`.
const SECRET_FORM = /^whsec_[A-Za-z0-9+/]+={0,2}$/
const MIN_SECRET_BYTES = 24

function webhookConfig(parsed: Env, { anyPrincipal, principals, production, sandbox }: Principals) {
  const given = parsed.WEBHOOK_ENDPOINTS ?? (sandbox ? '' : undefined)
  const secrets =
    parsed.WEBHOOK_SECRET?.split(',').map((secret) => secret.trim()) ??
    (sandbox ? [SANDBOX_WEBHOOK_SECRET] : [])
  secrets.forEach((secret, i) => {
    const decoded = SECRET_FORM.test(secret)
      ? Buffer.from(secret.slice('whsec_'.length), 'base64')
      : undefined
    if (!decoded || decoded.length < MIN_SECRET_BYTES) {
      // Never echo a secret, not even a wrong one: say which of the list it is.
      const which = secrets.length > 1 ? `secret ${i + 1} of WEBHOOK_SECRET` : 'WEBHOOK_SECRET'
      throw new Error(
        `invalid configuration: ${which} must be whsec_ followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes`,
      )
    }
  })
  if (given === undefined) return undefined
  if (secrets.length === 0) {
    throw new Error(
      'invalid configuration: WEBHOOK_SECRET must be set with WEBHOOK_ENDPOINTS: every delivery is signed',
    )
  }
  const endpoints = new Map<string, URL>()
  for (const entry of given === '' ? [] : given.split(',').map((e) => e.trim())) {
    const at = entry.indexOf('=')
    const named = entry.slice(0, at)
    // The sandbox's principals are its tokens: it takes a token there, or a principal's own name.
    const principal = sandbox && at >= 1 && !named.startsWith('sandbox:') ? sandboxPrincipal(named) : named
    const address = entry.slice(at + 1)
    if (at < 1) {
      throw new Error(
        `invalid configuration: WEBHOOK_ENDPOINTS must be principal=url pairs separated by commas, e.g. alice=https://hooks.example/plants, and ${JSON.stringify(entry)} is not one`,
      )
    }
    const url = URL.canParse(address) ? new URL(address) : undefined
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new Error(
        `invalid configuration: WEBHOOK_ENDPOINTS gives ${named} ${JSON.stringify(address)}, which is not an http:// or https:// URL`,
      )
    }
    if (endpoints.has(principal)) {
      throw new Error(`invalid configuration: WEBHOOK_ENDPOINTS gives ${named} more than one URL`)
    }
    if (!anyPrincipal && !principals.has(principal)) {
      throw new Error(
        `invalid configuration: WEBHOOK_ENDPOINTS names ${named}, who has no token in AUTH_TOKENS`,
      )
    }
    // A signed event sent in the clear is still read by anyone on the way; plain http only on this machine.
    if (production && url.protocol === 'http:' && !loopback.has(url.hostname)) {
      throw new Error(
        `invalid configuration: WEBHOOK_ENDPOINTS gives ${named} an http:// URL to ${url.hostname}; with NODE_ENV=production it must be https:// (http:// only to localhost, 127.0.0.1 or ::1)`,
      )
    }
    endpoints.set(principal, url)
  }
  return {
    endpoints,
    secrets,
    timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
    retryBaseMs: parsed.WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: Math.max(parsed.WEBHOOK_RETRY_MAX_MS, parsed.WEBHOOK_RETRY_BASE_MS),
    maxAttempts: parsed.WEBHOOK_MAX_ATTEMPTS,
    maxPending: parsed.WEBHOOK_MAX_PENDING,
    pollMs: parsed.WEBHOOK_POLL_MS,
    deliver: parsed.WEBHOOK_DELIVERY,
  } satisfies WebhookConfig
}

const loopback = new Set(['localhost', '127.0.0.1', '[::1]'])

function jwtConfig(parsed: Env): JwtConfig | undefined {
  const { JWT_JWKS_URL: jwks, JWT_SECRET: secret, JWT_ISSUER: issuer, JWT_AUDIENCE: audience } = parsed
  if (jwks === undefined && secret === undefined) {
    if (issuer !== undefined || audience !== undefined) {
      throw new Error(
        'invalid configuration: JWT_ISSUER and JWT_AUDIENCE need JWT_JWKS_URL or JWT_SECRET, the key that signs the tokens',
      )
    }
    return undefined
  }
  if (jwks !== undefined && secret !== undefined) {
    throw new Error('invalid configuration: set JWT_JWKS_URL or JWT_SECRET, not both')
  }
  // Without both, a token from any issuer, or one meant for another service, would be taken.
  if (issuer === undefined || audience === undefined) {
    throw new Error(
      `invalid configuration: JWT_ISSUER and JWT_AUDIENCE must be set with ${jwks ? 'JWT_JWKS_URL' : 'JWT_SECRET'}: ` +
        'the issuer and audience every token must name',
    )
  }
  if (jwks === undefined) return { secret, issuer, audience }
  const url = URL.canParse(jwks) ? new URL(jwks) : undefined
  // Keys fetched in the clear could be swapped on the way; plain http only on this machine.
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback.has(url.hostname)))) {
    throw new Error(
      `invalid configuration: JWT_JWKS_URL must be an https:// URL (http:// only on localhost), not ${JSON.stringify(jwks)}`,
    )
  }
  return { jwksUrl: url, issuer, audience }
}

/**
 * CORS_ORIGIN: `*`, or origins separated by commas. Unset, any origin in development and the sandbox,
 * none in production, where the pages that may call the server must be named.
 */
function corsOrigins(value: string | undefined, production: boolean): '*' | string[] {
  if (value === undefined) return production ? [] : '*'
  // `a.example, b.example` is what people write: the spaces are not part of an origin.
  const entries = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  if (entries.length === 1 && entries[0] === '*') return '*'
  for (const entry of entries) {
    // A browser sends the origin exactly as scheme://host[:port]: anything else would never match.
    if (!URL.canParse(entry) || new URL(entry).origin !== entry) {
      throw new Error(
        'invalid configuration: CORS_ORIGIN must be * or origins separated by commas, ' +
          `e.g. https://app.example,http://localhost:5173, and ${JSON.stringify(entry)} is not an origin`,
      )
    }
  }
  return entries
}
