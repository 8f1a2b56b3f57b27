// The environment's check: the schema's validator, compiled ahead of time, and the messages that say
// how to mend a value it refuses.
import type { ErrorObject } from 'ajv'
import { type Env, envSchema } from './env-schema.js'
import { validateEnv } from './generated/env-validator.js'

/**
 * Checks the environment against its schema (env-schema.ts), with defaults filled in, strings coerced
 * and unknown variables dropped, by the validator compiled ahead of time: compiling the schema with
 * Ajv at every start took about a tenth of the server's start (bench/README.md).
 */
export function validated(data: Record<string, unknown>): Env {
  if (!validateEnv(data)) {
    throw new Error((validateEnv.errors ?? []).map((error) => explain(error, data)).join('; '))
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
  // Timeouts, thresholds and caps: a count, said in its unit rather than as Ajv's `must be integer`.
  const unit = /_MS$/.test(name)
    ? 'milliseconds'
    : /_BYTES$/.test(name)
      ? 'bytes'
      : /_SECONDS$/.test(name)
        ? 'seconds'
        : /_PRINCIPALS$/.test(name)
          ? 'principals'
          : undefined
  if (unit && (error.keyword === 'type' || error.keyword === 'minimum')) {
    const minimum = (envSchema.properties as Record<string, { minimum?: number }>)[name]?.minimum ?? 0
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
