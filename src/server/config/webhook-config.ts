// The newPlant webhook's configuration: endpoints per principal, the signing secrets, the delivery
// timings; refused where an event would go unsigned, to nobody, or in the clear.
import { hash } from 'node:crypto'
import type { Env } from './env-schema.js'
import { loopback } from './loopback.js'

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

export interface Principals {
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

export function webhookConfig(parsed: Env, { anyPrincipal, principals, production, sandbox }: Principals) {
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
