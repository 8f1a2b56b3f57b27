// The newPlant webhook as the document declares it: its headers and body schema, and its delivery
// timeout and first retry, read from the operation's description.
import type { JsonSchema, LoadedDocument } from '../document.js'

/** The events of one webhook, as the document declares them. */
export interface WebhookSpec {
  operationId: string
  headers: { name: string; required: boolean; schema: JsonSchema | undefined }[]
  bodySchema: JsonSchema | undefined
  /** The document's delivery timeout: an attempt with no answer within it has failed. */
  timeoutMs: number
  /** The document's bound on the first retry after a failed attempt. */
  firstRetryMs: number
}

/** The document's delivery timeout and first retry, when its text cannot be read for them. */
const DOCUMENT_TIMEOUT_MS = 10_000
const DOCUMENT_FIRST_RETRY_MS = 5_000

type WebhookHolder = { webhooks?: Record<string, { post?: WebhookOperation }> }
interface WebhookOperation {
  operationId?: string
  description?: string
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}

/** The newPlant webhook of the document, or undefined when it has none. */
export function newPlantWebhook(loaded: LoadedDocument): WebhookSpec | undefined {
  const post = (loaded.document as unknown as WebhookHolder).webhooks?.newPlant?.post
  if (!post) return undefined
  const seconds = (pattern: RegExp, fallback: number) => {
    const found = pattern.exec(post.description ?? '')?.[1]
    return found === undefined ? fallback : Number(found) * 1000
  }
  return {
    operationId: post.operationId ?? 'newPlant',
    timeoutMs: seconds(/no answer within\s+(\d+(?:\.\d+)?)\s+seconds/, DOCUMENT_TIMEOUT_MS),
    firstRetryMs: seconds(/first retry within\s+(\d+(?:\.\d+)?)\s+seconds/, DOCUMENT_FIRST_RETRY_MS),
    headers: (post.parameters ?? [])
      .filter((p) => p.in === 'header')
      .map((p) => ({ name: p.name.toLowerCase(), required: p.required === true, schema: p.schema })),
    bodySchema: post.requestBody?.content?.['application/json']?.schema,
  }
}
