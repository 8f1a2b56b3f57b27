// Judges what a webhook receiver took: each delivery's method, content type, headers, body and
// signature against the document, each event against the creates answered 200 in its scope, the
// retries of the attempts failed on purpose, and the creates whose event never came.
import type { IncomingHttpHeaders } from 'node:http'
import type { Webhook } from 'standardwebhooks'
import { schemaProblems } from '../judge/schema.js'
import { type Delivery, plantOf, type WebhookFinding, type WebhookLedger } from './deliveries.js'
import type { WebhookSpec } from './document.js'
import type { DeliveryFailures } from './failures.js'
import { requestText } from './report-text.js'

/**
 * Every delivery judged (the method, content type, headers, body and signature the document gives
 * it, whether a create answered 200 in its scope announced it, and for an attempt failed on purpose,
 * its retries), every request that followed a redirect, and every create answered 200 whose event
 * did not come.
 */
export function judgeWebhooks(
  ledger: WebhookLedger,
  failures: DeliveryFailures,
  spec: WebhookSpec,
): WebhookFinding[] {
  const findings: WebhookFinding[] = []
  const counted = new Map<string, number>()
  const seenEvents = new Set<string>()
  for (const delivery of ledger.deliveries) {
    const problems = deliveryProblems(delivery, spec)
    const key = ledger.keyOfDelivery(delivery)
    const eventId = String(delivery.headers['webhook-id'])
    // A retry carries the webhook-id of an event already in: judged as a delivery, counted once.
    if (key !== undefined && !seenEvents.has(`${key}\t${eventId}`)) {
      seenEvents.add(`${key}\t${eventId}`)
      const count = (counted.get(key) ?? 0) + 1
      counted.set(key, count)
      const expected = ledger.announced.get(key) ?? 0
      const plant = plantOf(key)
      if (count > expected)
        problems.push(
          expected === 0
            ? ledger.refused.has(key)
              ? `an event for ${plant}, whose create was refused`
              : `an event for ${plant}, which no create of the run answered 200`
            : `${count} events for ${plant}, but ${expected} create(s) of it answered 200${
                ledger.refused.has(key)
                  ? `; its other create(s) were refused (${ledger.refused.get(key)?.join(', ')}), and a refused create sends no event`
                  : ''
              }`,
        )
    }
    if (delivery.treated) problems.push(...failures.retryProblems(delivery.treated, ledger))
    findings.push({
      title: `event ${eventId}`,
      request: requestText(delivery.method, delivery.path, delivery.headers, delivery.body),
      answer: failures.answerText(delivery),
      problems,
    })
  }
  for (const request of failures.followed) {
    const event = request.event
    findings.push({
      title: `event ${event?.webhookId ?? String(request.headers['webhook-id'])}, its redirect followed`,
      request: requestText(request.method, request.path, request.headers, ''),
      answer: 'the receiver answered 200',
      problems: [
        `${event ? ledger.eventName(event.first) : `event ${String(request.headers['webhook-id'])}`}: the sender followed the receiver's redirect (307 to ${request.path}); a redirect is a failed attempt, not followed, and the event is sent again to the original URL`,
      ],
    })
  }
  for (const [key, expected] of ledger.announced) {
    const got = counted.get(key) ?? 0
    const plant = plantOf(key)
    if (got < expected)
      findings.push({
        title: `create of ${plant}`,
        request: `the create of ${plant}, answered 200`,
        answer: 'no event came',
        problems: [`no event within the wait for ${expected - got} create(s) of ${plant} answered 200`],
      })
  }
  return findings
}

function deliveryProblems(delivery: Delivery, spec: WebhookSpec): string[] {
  const problems: string[] = []
  if (delivery.method !== 'POST') problems.push(`method ${delivery.method}, the document says POST`)
  const mediaType = delivery.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json')
    problems.push(`content type ${mediaType ?? '(none)'}, the document says application/json`)
  for (const header of spec.headers) {
    const value = delivery.headers[header.name]
    if (value === undefined) {
      if (header.required) problems.push(`header ${header.name} is missing`)
      continue
    }
    if (header.schema) problems.push(...schemaProblems(header.schema, String(value), `header ${header.name}`))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(delivery.body)
  } catch {
    problems.push('the body is not JSON')
  }
  if (parsed !== undefined && spec.bodySchema)
    problems.push(...schemaProblems(spec.bodySchema, parsed, 'body'))
  if (delivery.signatureProblem) problems.push(delivery.signatureProblem)
  return problems
}

/** Why a delivery's signature does not verify with the secret; undefined when it does. */
export function signatureProblem(
  webhook: Webhook,
  body: string,
  headers: IncomingHttpHeaders,
): string | undefined {
  try {
    // jsonParse off: the signature is over the body's bytes, which JSON.parse would not keep.
    webhook.verify(body, flat(headers), { jsonParse: false })
    return undefined
  } catch (error) {
    return `the signature does not verify with the secret: ${(error as Error).message}`
  }
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(' ') : value
  return out
}
