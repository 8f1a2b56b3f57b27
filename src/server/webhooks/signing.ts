// Signs each delivery attempt as Standard Webhooks asks, through the maintained standardwebhooks library.
import { Webhook } from 'standardwebhooks'

// A type, not an interface: it is passed where any header record is taken.
export type DeliveryHeaders = {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** Signs with every configured secret: a receiver still holding the old one verifies during a rotation. */
export function signer(secrets: readonly string[]): (id: string, body: string, at?: Date) => DeliveryHeaders {
  const keys = secrets.map((secret) => new Webhook(secret))
  return (id, body, at = new Date()) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': keys.map((key) => key.sign(id, at, body)).join(' '),
  })
}
