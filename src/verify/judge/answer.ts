// Checks an answer against the document: the status is documented, and the content type, body and
// documented headers are what that response declares. Returns the problems, empty when it conforms.
import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { type CheckName, type Finding, finding, findingsOf } from '../checks.js'
import type { JsonSchema, OperationEntry, Response } from '../document.js'
import { responseFor } from '../document.js'
import type { Answer } from '../http.js'

// ajv-formats is CommonJS with a default export; under NodeNext its default import is the module.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

// OpenAPI 3.1 schemas are JSON Schema 2020-12. strict off: they carry keywords JSON Schema does not
// know (example, x-…). int32/int64 come from ajv-formats.
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)

const compiled = new WeakMap<JsonSchema, ValidateFunction>()
function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

export function schemaProblems(schema: JsonSchema, value: unknown, where: string): string[] {
  const validate = validatorFor(schema)
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message ?? e.keyword}`)
}

export interface ValidateOptions {
  /** Header names (lower case) that must be present on top of those the document marks required. */
  requiredHeaders?: string[]
  /** Hold the answer to the kit server's profile too (info.x-kit-profile of the document). */
  kitProfile?: boolean
  /** A refusal the document marks `x-body-optional` may come without a body. */
  bodilessRefusals?: boolean
}

/** What the document-only checks look at: one answer to one operation. */
interface Exchange {
  entry: OperationEntry
  answer: Answer
  response: Response
  options: ValidateOptions
}

/**
 * The checks that judge an answer by its documented response alone, each a function registered under
 * its check's name: what it returns is that check's findings, whatever the words.
 */
const ANSWER_CHECKS: [CheckName, (exchange: Exchange) => string[]][] = [
  ['content_type_conformance', contentTypeProblems],
  ['response_schema_conformance', bodySchemaProblems],
  ['error_code_conformance', ({ answer }) => errorCodeProblems(answer)],
  ['www_authenticate_on_401', wwwAuthenticateProblems],
  ['response_headers_conformance', headerProblems],
  ['kit_profile_conformance', kitProfileProblems],
]

/** Judges an answer by the response the document gives its status; no findings when it conforms. */
export function judgeAnswer(entry: OperationEntry, answer: Answer, options: ValidateOptions = {}): Finding[] {
  const response = responseFor(entry, answer.status)
  if (!response) {
    const documented = Object.keys(entry.operation.responses).join(', ')
    return [
      finding(
        'status_code_conformance',
        `status ${answer.status} is not documented for ${entry.operationId} (documented: ${documented})`,
      ),
    ]
  }
  const exchange = { entry, answer, response, options }
  return ANSWER_CHECKS.flatMap(([check, run]) => findingsOf(check, run(exchange)))
}

function mediaOf({ answer, response }: Exchange) {
  const content = response.content ?? {}
  return { mediaTypes: Object.keys(content), media: answer.mediaType ? content[answer.mediaType] : undefined }
}

function contentTypeProblems(exchange: Exchange): string[] {
  const { answer } = exchange
  const { mediaTypes, media } = mediaOf(exchange)
  // A refusal a layer in front of the store may write without a body (the document marks it).
  if (
    answer.text === '' &&
    (exchange.response as { 'x-body-optional'?: boolean })['x-body-optional'] &&
    exchange.options.bodilessRefusals
  )
    return []
  if (mediaTypes.length === 0)
    return answer.text === ''
      ? []
      : [`the ${answer.status} response has no documented body, but one was sent`]
  if (!media)
    return [
      `content type ${answer.mediaType ?? '(none)'} is not documented for ${answer.status} (documented: ${mediaTypes.join(', ')})`,
    ]
  if (!answer.isJson) return [`the body is not JSON: ${answer.text.slice(0, 100)}`]
  return []
}

function bodySchemaProblems(exchange: Exchange): string[] {
  const { media } = mediaOf(exchange)
  if (!media?.schema || !exchange.answer.isJson) return []
  return schemaProblems(media.schema, exchange.answer.json, 'body')
}

/**
 * What the kit's server sends beyond the interface (info.x-kit-profile): an X-Request-Id and the JSON
 * API's security headers on every answer, `Cache-Control: no-store` on operations that need a token,
 * and RateLimit-Policy with RateLimit on every answer whose response declares them (an overloaded
 * server's 503, which comes before the request is counted, aside).
 */
function kitProfileProblems({ entry, answer, response, options }: Exchange): string[] {
  if (!options.kitProfile) return []
  const problems: string[] = []
  const h = answer.headers
  if (!h['x-request-id']) problems.push('the kit profile’s X-Request-Id header is missing')
  if (!/(^|;)\s*default-src 'none'\s*(;|$)/.test(h['content-security-policy'] ?? ''))
    problems.push(
      `Content-Security-Policy is ${h['content-security-policy'] ?? 'missing'}, the kit profile says default-src 'none'`,
    )
  if (h['x-content-type-options'] !== 'nosniff')
    problems.push(
      `X-Content-Type-Options is ${h['x-content-type-options'] ?? 'missing'}, the kit profile says nosniff`,
    )
  // A refusal written before any operation is chosen (405, and the bodiless-capable 408, 414, 431) is
  // not an operation's answer.
  const refusal = answer.status === 405 || (response as Record<string, unknown>)['x-body-optional'] === true
  if (entry.secured && !refusal && h['cache-control'] !== 'no-store')
    problems.push(`Cache-Control is ${h['cache-control'] ?? 'missing'}, the kit profile says no-store`)
  const declared = Object.keys(response.headers ?? {}).map((n) => n.toLowerCase())
  if (entry.secured && answer.status !== 503 && declared.includes('ratelimit-policy'))
    for (const name of ['ratelimit-policy', 'ratelimit'])
      if (h[name] === undefined) problems.push(`the kit profile’s ${name} header is missing`)
  return problems
}

/** The bearer challenge: present on every 401 (RFC 6750), and valid against its documented schema. */
function wwwAuthenticateProblems({ answer, response, options }: Exchange): string[] {
  const value = answer.headers['www-authenticate']
  const wanted = answer.status === 401 || options.requiredHeaders?.includes('www-authenticate')
  if (value === undefined)
    return wanted ? [`the WWW-Authenticate header is missing from a ${answer.status}`] : []
  const documented = Object.entries(response.headers ?? {}).find(
    ([n]) => n.toLowerCase() === 'www-authenticate',
  )
  return documented?.[1].schema ? schemaProblems(documented[1].schema, value, 'header WWW-Authenticate') : []
}

function headerProblems({ answer, response, options }: Exchange): string[] {
  const problems: string[] = []
  const required = new Set(options.requiredHeaders?.map((h) => h.toLowerCase()))
  required.delete('www-authenticate')
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const key = name.toLowerCase()
    // OpenAPI: a Content-Type header definition is ignored; WWW-Authenticate has a check of its own.
    if (key === 'content-type' || key === 'www-authenticate') continue
    const value = answer.headers[key]
    if (value === undefined) {
      if (header.required || required.has(key)) problems.push(`the documented header ${name} is missing`)
      continue
    }
    if (header.schema) problems.push(...schemaProblems(header.schema, value, `header ${name}`))
  }
  for (const key of required) {
    if (!Object.keys(response.headers ?? {}).some((n) => n.toLowerCase() === key)) {
      problems.push(`the header ${key} is required here but not documented for ${answer.status}`)
    }
  }
  return problems
}

/** info.description: "Every error answer has an Error body whose error is the HTTP status code". */
export function errorCodeProblems(answer: Answer): string[] {
  if (answer.status < 400 || !answer.isJson) return []
  const body = answer.json as { error?: unknown } | null
  if (body && typeof body === 'object' && typeof body.error === 'number' && body.error !== answer.status) {
    return [`the Error body says error ${body.error} on a ${answer.status} answer`]
  }
  return []
}

/** For a path the document lacks: the answer must still be the document's Error (info.description). */
export function judgeErrorAnswer(errorSchema: JsonSchema | undefined, answer: Answer): Finding[] {
  if (!errorSchema)
    return [
      finding('response_schema_conformance', 'the document has no components.schemas.Error to check against'),
    ]
  if (answer.mediaType !== 'application/json' || !answer.isJson)
    return [
      finding(
        'content_type_conformance',
        `an error answer must be an application/json Error body, got ${answer.mediaType ?? '(none)'}`,
      ),
    ]
  return [
    ...findingsOf('response_schema_conformance', schemaProblems(errorSchema, answer.json, 'body')),
    ...findingsOf('error_code_conformance', errorCodeProblems(answer)),
  ]
}
