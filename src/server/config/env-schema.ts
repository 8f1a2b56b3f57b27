// The environment the server reads: its schema (defaults, coercion, bounds) and its type. The schema's
// validator is compiled ahead of time from it (generated/env-validator.ts, `npm run generate`).

/** Ajv's options for the schema: defaults filled in, strings coerced, unknown variables dropped. */
export const envAjvOptions = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  allowUnionTypes: true,
} as const

export const envSchema = {
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
    SANDBOX_MAX_PRINCIPALS: { type: 'integer', minimum: 1, default: 10_000 },
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
  additionalProperties: false,
} as const

/** Pino's levels, as LOG_LEVEL names them. */
export type LogLevel = (typeof envSchema.properties.LOG_LEVEL.enum)[number]

export interface Env {
  NODE_ENV: string
  HOST: string
  PORT: number
  LOG_LEVEL: LogLevel
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
  SANDBOX_MAX_PRINCIPALS: number
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
