// kit_profile_conformance: with the kit's profile, what the kit's server sends beyond the interface
// (info.x-kit-profile): an X-Request-Id of the server's own making (never an id the request sent) and
// a REST API's security headers, and no browser document's, on every answer, `Cache-Control:
// no-store` on operations that need a token, RateLimit-Policy with RateLimit on every answer whose
// response declares them (an overloaded server's 503, which comes before the request is counted,
// aside) and on no answer of an operation without security (the probes), and an Error whose message
// says something.
import { answerCheck } from './check.js'
import { documentedResponse } from './exchange.js'

const REST_HEADERS = [
  ['x-content-type-options', 'X-Content-Type-Options', 'nosniff'],
  ['x-frame-options', 'X-Frame-Options', 'DENY'],
] as const
// helmet's headers for a browser document, which a JSON answer goes without.
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]

export const kitProfileConformance = answerCheck({
  name: 'kit_profile_conformance',
  description:
    'with --profile kit: what the kit’s server does beyond the interface (request ids, a REST API’s security headers and no browser document’s, cache and rate-limit headers, an Error message that is not empty)',
  appliesTo: (exchange) => exchange.judging.kitProfile === true,
  run(exchange) {
    const { answer, operation } = exchange
    const problems: string[] = []
    // info.description: an Error's `message` says what was wrong, which an empty one does not. Its
    // words are each store's own, so only the kit's profile holds a store to saying anything at all;
    // a refusal before any operation (an unknown method, a request HTTP cannot parse) as well.
    const body = answer.isJson ? (answer.json as { message?: unknown } | null) : null
    if (answer.status >= 400 && typeof body?.message === 'string' && body.message.trim() === '')
      problems.push(
        `the Error body's message is empty on a ${answer.status} answer: it says nothing of what was wrong`,
      )
    const response = documentedResponse(exchange)
    if (!response || !operation) return problems
    const h = answer.headers
    if (!h['x-request-id']) problems.push('the kit profile’s X-Request-Id header is missing')
    const sent = exchange.request?.headers ?? {}
    for (const name of ['request-id', 'x-request-id'])
      if (sent[name] !== undefined && h['x-request-id'] === sent[name])
        problems.push(
          `X-Request-Id is ${sent[name]}, the id the request sent in ${name}: the kit profile’s request id is the server’s own`,
        )
    if (!/(^|;)\s*default-src 'none'\s*(;|$)/.test(h['content-security-policy'] ?? ''))
      problems.push(
        `Content-Security-Policy is ${h['content-security-policy'] ?? 'missing'}, the kit profile says default-src 'none'`,
      )
    if (!/(^|;)\s*frame-ancestors 'none'\s*(;|$)/.test(h['content-security-policy'] ?? ''))
      problems.push(
        `Content-Security-Policy is ${h['content-security-policy'] ?? 'missing'}, the kit profile says frame-ancestors 'none'`,
      )
    for (const [name, shown, value] of REST_HEADERS)
      if (h[name] !== value)
        problems.push(`${shown} is ${h[name] ?? 'missing'}, the kit profile says ${value}`)
    if (!h['strict-transport-security'])
      problems.push('the kit profile’s Strict-Transport-Security header is missing')
    for (const name of DOCUMENT_ONLY)
      if (h[name] !== undefined) problems.push(`${name} is for a page a browser renders, not a JSON answer`)
    // A refusal written before any operation is chosen (405, and the bodiless-capable 408, 414, 431)
    // is not an operation's answer.
    const refusal = answer.status === 405 || (response as Record<string, unknown>)['x-body-optional'] === true
    if (operation.secured && !refusal && h['cache-control'] !== 'no-store')
      problems.push(`Cache-Control is ${h['cache-control'] ?? 'missing'}, the kit profile says no-store`)
    const declared = Object.keys(response.headers ?? {}).map((n) => n.toLowerCase())
    if (operation.secured && answer.status !== 503 && declared.includes('ratelimit-policy'))
      for (const name of ['ratelimit-policy', 'ratelimit'])
        if (h[name] === undefined) problems.push(`the kit profile’s ${name} header is missing`)
    // The probes are counted against no limit, so their answers say nothing of one.
    if (!operation.secured)
      for (const name of ['ratelimit-policy', 'ratelimit'])
        if (h[name] !== undefined)
          problems.push(
            `${name} on an operation without security, which the kit profile counts against no limit`,
          )
    return problems
  },
})
