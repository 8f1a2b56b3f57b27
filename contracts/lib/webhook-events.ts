// The newPlant events of the kit's own targets in the contract suite: a receiver on 127.0.0.1 for the
// real server (on each store) and for the sandbox, what sends every principal's events to it, the
// requests shown to it, and its judgement, by the document alone, at the end of a layer.
import { bearerToken } from '@plant-store/core'
import type { LoadedDocument } from '@plant-store/verify'
import {
  newPlantWebhook,
  roleOf,
  type Sender,
  send,
  WebhookReceiver,
  type WebhookScopes,
} from '@plant-store/verify/testing'

/** The processes that send newPlant events: the real server on each store, and the sandbox. */
export type WebhookTarget = 'server' | 'postgres' | 'sandbox'

/** What the targets sign their events with in the suite: made up, 32 bytes (Standard Webhooks asks 24 at least). */
const CONTRACT_WEBHOOK_SECRET = `whsec_${Buffer.from('plant store contract suite, hook').toString('base64')}`

/**
 * A failed attempt is sent again within about a second (the next poll), not after the 5 s the document
 * gives as the default, and an attempt left unanswered is given up after 2 s, not the document's 10
 * (still within them): the receiver holds one attempt without an answer on purpose, and each layer's
 * end waited for the sender's timeout and the retry after it, 10 s of the 12 to 15 a layer took on a
 * draft with few requests. 2 s is still far longer than the receiver, on this machine, takes to answer.
 */
const QUICK_DELIVERY = {
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
}

/**
 * The longest wait, at the end of a layer, for events still to come. Every event is normally in long
 * before: this bound is reached only by a run that is failing.
 */
const WAIT_MS = 10_000

/**
 * Why no event is judged, when the document under test gives nothing to judge them against: no
 * newPlant webhook, or no create operation (a draft given with CONTRACT_SPEC may lack either).
 */
export function nothingToJudge(loaded: LoadedDocument): string | undefined {
  if (!newPlantWebhook(loaded)) return 'the document declares no newPlant webhook'
  if (!loaded.operations.some((entry) => roleOf(entry) === 'create'))
    return 'the document has no create operation'
  return undefined
}

export function startReceiver(loaded: LoadedDocument, scopes: WebhookScopes): Promise<WebhookReceiver> {
  return WebhookReceiver.start({ port: 0, secret: CONTRACT_WEBHOOK_SECRET, waitMs: WAIT_MS }, loaded, scopes)
}

/**
 * The real server's environment that sends each principal's events to a path of its own on the
 * receiver (plant ids are per principal: the suite's cases create the same ids again and again).
 */
export function serverWebhookEnv(
  receiver: WebhookReceiver,
  principals: ReadonlyMap<string, string>,
): Record<string, string> {
  const endpoints = [...principals.values()].map((principal) => `${principal}=${receiver.url}${principal}`)
  return {
    WEBHOOK_ENDPOINTS: endpoints.join(','),
    WEBHOOK_SECRET: CONTRACT_WEBHOOK_SECRET,
    ...QUICK_DELIVERY,
  }
}

/** The real server's scopes: a token's principal (AUTH_TOKENS' name for it) is the path its events come to. */
export function serverScopes(principals: ReadonlyMap<string, string>): WebhookScopes {
  return {
    ofCreate: (authorization) => {
      const principal = principals.get(bearerToken(authorization) ?? '')
      return principal === undefined ? undefined : `/${principal}`
    },
    ofDelivery: (path) => path,
  }
}

/** The sandbox's environment: its own secret, and no WEBHOOK_ENDPOINTS (each request names the URL instead). */
export const sandboxWebhookEnv = { WEBHOOK_SECRET: CONTRACT_WEBHOOK_SECRET, ...QUICK_DELIVERY }

export interface SandboxScopes extends WebhookScopes {
  /** The path on the receiver where a token's events go; undefined for an Authorization with no bearer token. */
  pathOf(authorization: string | undefined): string | undefined
}

/**
 * The sandbox's scopes: a path of its own for each token seen. Any token is a principal there, an
 * unknown one included, so no WEBHOOK_ENDPOINTS made up front could cover every create: each request
 * names where its token's events go instead (sandboxHeaders), as a developer's client would.
 */
export function sandboxScopes(): SandboxScopes {
  const paths = new Map<string, string>()
  // By the token as the sandbox reads it, so that two spellings of one Authorization share a path.
  const pathOf = (authorization: string | undefined): string | undefined => {
    const token = bearerToken(authorization)
    if (token === undefined) return undefined
    let path = paths.get(token)
    if (path === undefined) {
      path = `/sandbox-${paths.size + 1}`
      paths.set(token, path)
    }
    return path
  }
  return { ofCreate: pathOf, ofDelivery: (path) => path, pathOf }
}

/** The Sandbox-Webhook-Url header that names, for a request's own token, its path on the receiver. */
export function sandboxHeaders(
  receiver: WebhookReceiver,
  scopes: SandboxScopes,
): (authorization: string | undefined) => Record<string, string> {
  return (authorization): Record<string, string> => {
    const path = scopes.pathOf(authorization)
    return path === undefined ? {} : { 'sandbox-webhook-url': `${receiver.url}${path.slice(1)}` }
  }
}

/**
 * `send`, with every request that reaches one of the given instances (those whose events come to
 * the receiver) and its answer shown to the receiver, and `headers` added to it. A request to any
 * other instance (a store that is down, which has no receiver) is sent as it is.
 */
export function watchedSend(
  receiver: WebhookReceiver,
  instanceUrls: string[],
  headers?: (authorization: string | undefined) => Record<string, string>,
): Sender {
  const watched = new Set(instanceUrls.map((url) => new URL(url).origin))
  return async (baseUrl, request, authorization, extraHeaders = {}) => {
    if (!watched.has(new URL(baseUrl).origin)) return send(baseUrl, request, authorization, extraHeaders)
    const answer = await send(baseUrl, request, authorization, {
      ...headers?.(authorization),
      ...extraHeaders,
    })
    receiver.observe(request, authorization, answer)
    return answer
  }
}

/** The processes with a receiver that a layer's targets reach: the proxy's creates are its real server's. */
export function webhookTargets(names: readonly string[]): WebhookTarget[] {
  const reached: WebhookTarget[] = []
  if (names.includes('server') || names.includes('proxy')) reached.push('server')
  if (names.includes('postgres')) reached.push('postgres')
  if (names.includes('sandbox')) reached.push('sandbox')
  return reached
}

export interface EventJudgement {
  /** One line: how many events came for how many creates answered 200. */
  summary: string
  /** Each wrong delivery, and each create answered 200 with no event, with what is wrong; none: all as documented. */
  problems: string[]
}

/** Waits (bounded) for the events still to come, stops the receiver, and judges every event and create. */
export async function judgeEvents(name: WebhookTarget, receiver: WebhookReceiver): Promise<EventJudgement> {
  await receiver.settle()
  const problems = receiver
    .judge()
    .filter((finding) => finding.problems.length > 0)
    // The request alone: it holds the webhook-id, or names the create, as the title would.
    .map((finding) => [finding.request, ...finding.problems.map((p) => `  - ${p}`)].join('\n'))
  const summary = `newPlant events, ${name}: ${receiver.events} event(s) (${receiver.deliveryCount} deliveries) for ${receiver.createsAnswered200} create(s) answered 200; ${receiver.createsRefused} create(s) answered otherwise`
  return { summary, problems }
}
