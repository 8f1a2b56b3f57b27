// Validates requests with the document's own JSON Schemas (2020-12, as OpenAPI 3.1 uses), int64 kept exact,
// compiling them with Ajv at run time (the server, the verifier, the handlers given a document of one's own).
import { Ajv2020, type Options } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { type Check, checkOf, type SchemaDef } from './check.js'
import { formats } from './formats.js'

export { type Check, type SchemaDef, type Validate, validatable } from './check.js'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

/**
 * The Ajv of every request check. `code` is for the code generator alone, which compiles the bundled
 * document's validators ahead of time with these very options.
 */
export function createAjv({ code }: Pick<Options, 'code'> = {}): Ajv2020 {
  // strict off: OpenAPI schemas may carry keywords JSON Schema does not know (example, xml, x-…).
  // validateSchema off: checking each schema against the 2020-12 meta-schema cost 300 ms on the first
  // compile; the document's schemas are checked where it is validated, in `npm test` (swagger-parser
  // and Redocly), not on every start.
  const ajv = new Ajv2020({
    strict: false,
    useDefaults: true,
    coerceTypes: false,
    // Stryker disable next-line BooleanLiteral: equivalent: the document's schemas are valid 2020-12 schemas (`npm test` checks them), so checking each against the meta-schema refuses none and only takes time.
    validateSchema: false,
    // Stryker disable next-line ObjectLiteral: equivalent: the server passes no `code`; only the code generator does.
    ...(code ? { code } : {}),
  })
  // Stryker disable next-line CallExpression: equivalent: the document's request schemas name no format but int32 and int64, which formats.ts defines; the mock and the verifier's webhook check need the others.
  addFormats(ajv)
  // After ajv-formats: its int64 takes any integer, ours only what validatable() lets through.
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format)
  return ajv
}

/** Fastify's validator compiler: bodies keep their types; params and query strings are coerced exactly. */
export function validatorCompiler(ajv: Ajv2020): (route: SchemaDef) => Check {
  // Compiled on first use, not at start: Ajv's code generation for every route was a fifth of start-up.
  return (route) => checkOf(route, () => ajv.compile(route.schema))
}
