// The text of a webhook receiver's findings: a request as a failure shows it, a duration, what the
// document promises a delivery, and the replay with the receiver's options.
import type { IncomingHttpHeaders } from 'node:http'
import type { WebhookSpec } from './document.js'
import { DEFAULT_WAIT_MS, HOLD_PAST_TIMEOUT_MS, type WebhookOptions } from './options.js'

/** A request as a failure shows it: method, path, the signing headers, the start of the body. */
export function requestText(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: string,
): string {
  const head = ['webhook-id', 'webhook-timestamp', 'webhook-signature']
    .map((name) => `${name}: ${headers[name] ?? '(none)'}`)
    .join(', ')
  return `${method} ${path} [${head}]${body ? ` ${body.slice(0, 300)}` : ''}`
}

export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`

/** What the document promises of a delivery, as a webhook finding's `document` says it. */
export function documentText(spec: WebhookSpec): string {
  return `${spec.operationId}: POST application/json, the document's body schema, the Standard Webhooks headers, signed with the secret; one event per create answered 200; an attempt answered other than 2xx, redirected (not followed) or unanswered within ${seconds(spec.timeoutMs)} sent again with the same webhook-id and body, freshly signed, the first retry within ${seconds(spec.firstRetryMs)}`
}

/**
 * The replay of a webhook failure: the run's command with the receiver's options, the port it
 * listened on (the server under test sends there), and the secret from VERIFY_WEBHOOK_SECRET,
 * never printed.
 */
export function replayText(
  command: string,
  url: string,
  receiverOptions: WebhookOptions,
  spec: WebhookSpec,
): string {
  const port = new URL(url).port
  const options = [`--webhook-listen ${port}`, '--webhook-secret "$VERIFY_WEBHOOK_SECRET"']
  const { waitMs, holdMs, failAttempts } = receiverOptions
  // Whole seconds, rounded up: a longer wait changes nothing in a run that gets every event.
  if (waitMs !== undefined && waitMs !== DEFAULT_WAIT_MS)
    options.push(`--webhook-wait ${Math.max(1, Math.ceil(waitMs / 1000))}`)
  if (failAttempts === false) options.push('--webhook-no-fail-attempts')
  else if (holdMs !== undefined && holdMs !== spec.timeoutMs + HOLD_PAST_TIMEOUT_MS)
    options.push(`--webhook-hold ${holdMs / 1000}`)
  return `${command} ${options.join(' ')}`
}
