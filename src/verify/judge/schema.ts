// Values judged against the document's JSON Schemas (OpenAPI 3.1: JSON Schema 2020-12), each schema
// compiled once.
import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { JsonSchema } from '../document.js'

// ajv-formats is CommonJS with a default export; under NodeNext its default import is the module.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

// strict off: the document's schemas carry keywords JSON Schema does not know (example, x-…).
// int32/int64 come from ajv-formats.
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

/** What is wrong with a value against a schema, each problem prefixed with `where`; empty when valid. */
export function schemaProblems(schema: JsonSchema, value: unknown, where: string): string[] {
  const validate = validatorFor(schema)
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message ?? e.keyword}`)
}
