// Checks an answer against the document: the status is documented, and the content type, body and
// documented headers are what that response declares. Returns the problems, empty when it conforms.
import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { JsonSchema, OperationEntry } from './document.js'
import { responseFor } from './document.js'
import type { Answer } from './http.js'

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
}

export function validateAnswer(
  entry: OperationEntry,
  answer: Answer,
  options: ValidateOptions = {},
): string[] {
  const response = responseFor(entry, answer.status)
  if (!response) {
    const documented = Object.keys(entry.operation.responses).join(', ')
    return [`status ${answer.status} is not documented for ${entry.operationId} (documented: ${documented})`]
  }
  const problems: string[] = []

  const content = response.content ?? {}
  const mediaTypes = Object.keys(content)
  if (mediaTypes.length === 0) {
    if (answer.text !== '')
      problems.push(`the ${answer.status} response has no documented body, but one was sent`)
  } else {
    const media = answer.mediaType ? content[answer.mediaType] : undefined
    if (!media) {
      problems.push(
        `content type ${answer.mediaType ?? '(none)'} is not documented for ${answer.status} (documented: ${mediaTypes.join(', ')})`,
      )
    } else if (!answer.isJson) {
      problems.push(`the body is not JSON: ${answer.text.slice(0, 100)}`)
    } else if (media.schema) {
      problems.push(...schemaProblems(media.schema, answer.json, 'body'))
    }
  }
  problems.push(...errorCodeProblems(answer))

  const required = new Set(options.requiredHeaders?.map((h) => h.toLowerCase()))
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const key = name.toLowerCase()
    // OpenAPI: a Content-Type header definition is ignored.
    if (key === 'content-type') continue
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
export function validateErrorAnswer(errorSchema: JsonSchema | undefined, answer: Answer): string[] {
  if (!errorSchema) return ['the document has no components.schemas.Error to check against']
  if (answer.mediaType !== 'application/json' || !answer.isJson) {
    return [`an error answer must be an application/json Error body, got ${answer.mediaType ?? '(none)'}`]
  }
  return [...schemaProblems(errorSchema, answer.json, 'body'), ...errorCodeProblems(answer)]
}
