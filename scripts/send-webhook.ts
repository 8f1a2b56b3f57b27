// `npm run webhook:send`: sends the document's newPlant examples, signed as the server signs them, to a
// receiver under development, so that it can be tried without a server creating plants.
//
//   --url URL          where to POST them
//   --secret whsec_…   the shared secret (several, comma-separated: one signature each)
//   --example NAME     one example (default: every one, in the document's order)
import { newPlantEvent } from '../src/server/webhooks/event.js'
import { postSigned, signer } from '../src/server/webhooks/signing.js'
import { readOptions } from './lib/options.js'
import { type Document, document } from './lib/spec.js'

const usage = `Usage: npm run webhook:send -- --url URL --secret whsec_… [--example NAME]

Sends the document's newPlant examples, signed as the server signs them, to a receiver.

  --url URL          where to POST them
  --secret whsec_…   the shared secret (several, comma-separated: one signature each)
  --example NAME     one example (default: every one, in the document's order)
  -h, --help         this text`

const values = readOptions(
  { url: { type: 'string' }, secret: { type: 'string' }, example: { type: 'string' } },
  usage,
)
const fail = (message: string): never => {
  console.error(`npm run webhook:send: ${message}`)
  process.exit(2)
}
const url =
  values.url && URL.canParse(values.url) ? new URL(values.url) : fail('--url takes the receiver URL')
const secrets =
  values.secret?.split(',') ?? fail('--secret takes the whsec_… secret the receiver verifies with')
const signWith = (keys: string[]) => {
  try {
    return signer(keys)
  } catch (error) {
    return fail(`--secret is not a whsec_<base64> secret (${(error as Error).message})`)
  }
}
const sign = signWith(secrets)

type Examples = Record<string, { value?: { id: number; name: string; tag?: string } }>
const media = (document as Document & { webhooks?: Record<string, unknown> }).webhooks?.newPlant as
  | { post: { requestBody: { content: Record<string, { examples?: Examples }> } } }
  | undefined
const examples = media?.post.requestBody.content['application/json']?.examples ?? {}
const names = values.example ? [values.example] : Object.keys(examples)
let failed = 0
for (const name of names) {
  const value = examples[name]?.value
  if (!value) fail(`no example ${name}; the document has ${Object.keys(examples).join(', ')}`)
  const event = newPlantEvent('example', {
    ...(value as NonNullable<typeof value>),
    id: BigInt(value?.id ?? 0),
  })
  try {
    const status = await postSigned(url, event, sign, AbortSignal.timeout(10_000))
    const ok = status >= 200 && status < 300
    if (!ok) failed++
    console.log(`${name}: ${status}${ok ? '' : ' (not a 2xx: the server would retry)'} ${event.body}`)
  } catch (error) {
    failed++
    console.log(`${name}: no answer (${(error as Error).message})`)
  }
}
process.exit(failed === 0 ? 0 : 1)
