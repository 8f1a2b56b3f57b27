// For receivers (`@plant-store/verify/webhooks`): checks a newPlant delivery's signature and timestamp
// with the standardwebhooks library, then reads its body as the document says, int64 id exact. It needs
// only core and standardwebhooks, so a receiver's app gets none of the server.
import {
  createAjv,
  type Document,
  document,
  type ExactPlant,
  loadDocument,
  parseJsonBody,
  pickPlant,
  type Schema,
  validatorCompiler,
} from '@plant-store/core'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

export { WebhookVerificationError }

/** The plant a newPlant event announces; `id` is a bigint, every digit as sent. */
export type NewPlant = ExactPlant

type HeaderBag = Headers | Record<string, string | string[] | undefined>

let check: ((body: unknown) => boolean) | undefined

function bodyCheck(): (body: unknown) => boolean {
  if (check) return check
  const { dereferenced } = loadDocument(document)
  const hooks = (dereferenced as Document & { webhooks?: Record<string, unknown> }).webhooks
  const schema = (
    hooks?.newPlant as
      | { post?: { requestBody?: { content?: Record<string, { schema?: Schema }> } } }
      | undefined
  )?.post?.requestBody?.content?.['application/json']?.schema
  if (!schema) throw new Error('the document has no newPlant webhook body')
  const compiled = validatorCompiler(createAjv())({ schema, httpPart: 'body' })
  check = (body) => compiled(body) === true
  return check
}

/**
 * The plant of a newPlant delivery, from its body exactly as received (before any JSON parsing) and
 * its headers. Throws a WebhookVerificationError when no signature verifies with `secret` (or any of
 * several, during a rotation) or the timestamp is more than 5 minutes from this clock, and an Error
 * when the body is not the document's newPlant body.
 */
export function verifyNewPlant(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string | readonly string[],
): NewPlant {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')
  const flat: Record<string, string> = {}
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers)
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value
  }
  const secrets = typeof secret === 'string' ? [secret] : secret
  let failure: unknown = new WebhookVerificationError('no secret to verify with')
  const verified = secrets.some((key) => {
    try {
      // jsonParse off: JSON.parse would round an id beyond 2^53.
      new Webhook(key).verify(body, flat, { jsonParse: false })
      return true
    } catch (error) {
      failure = error
      return false
    }
  })
  if (!verified) throw failure
  let parsed: unknown
  try {
    parsed = parseJsonBody(body)
  } catch (error) {
    throw new Error(`the newPlant body is not JSON: ${(error as Error).message}`)
  }
  if (!bodyCheck()(parsed)) throw new Error('the newPlant body is not a plant as the document describes it')
  return pickPlant(parsed as object)
}
