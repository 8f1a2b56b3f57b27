// Reads spec/openapi.yaml (or another version of it) from disk, for the repository's tools and tests;
// the packages read the document built into @plant-store/core (src/core/generated/document.ts), and
// what is read from it lives in src/core/document.ts, re-exported here so tools import both from one place.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { type Document, dereference, type LoadedSpec, listOperations } from '@plant-store/core'
import { JSON_SCHEMA, load } from 'js-yaml'

export * from '@plant-store/core'

export const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url))

/**
 * `validate` checks the document against the OpenAPI 3.1 schema too, with swagger-parser. It costs
 * about a second, most of start-up, so the server leaves it to `npm test`, which runs it on every
 * change of the document. Without it the document is read as swagger-parser reads it (js-yaml, JSON
 * schema) and its local `$ref`s resolved as swagger-parser's dereference does, at a tenth of the cost:
 * loading swagger-parser alone took a sixth of the server's start.
 */
export async function loadSpec(path = specPath, { validate = false } = {}): Promise<LoadedSpec> {
  if (validate) {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser')
    const document = (await SwaggerParser.parse(path)) as Document
    const dereferenced = (await SwaggerParser.validate(structuredClone(document))) as Document
    return { document, dereferenced, operations: listOperations(dereferenced) }
  }
  const text = await readFile(path, 'utf8')
  let document: Document
  try {
    document = load(text, { schema: JSON_SCHEMA }) as Document
  } catch {
    // swagger-parser's own fallback when the JSON schema of YAML does not read the file.
    document = load(text) as Document
  }
  const dereferenced = dereference(structuredClone(document))
  return { document, dereferenced, operations: listOperations(dereferenced) }
}
