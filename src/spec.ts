// Loads spec/openapi.yaml once: as written (served to users) and dereferenced (drives routes and validation).
import { fileURLToPath } from 'node:url'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { OpenAPIV3_1 } from 'openapi-types'

export const specPath = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url))

export type Document = OpenAPIV3_1.Document
export type Operation = OpenAPIV3_1.OperationObject
export type Parameter = OpenAPIV3_1.ParameterObject
export type Schema = OpenAPIV3_1.SchemaObject

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const
export type Method = (typeof methods)[number]

export interface OperationEntry {
  operationId: string
  method: Method
  /** The path as the document writes it, e.g. `/plants/{id}`. */
  path: string
  operation: Operation
  /** Path-level and operation-level parameters, the operation's winning on a clash. */
  parameters: Parameter[]
  /** Security requirements in force: the operation's own, else the document's. */
  security: OpenAPIV3_1.SecurityRequirementObject[]
}

export interface LoadedSpec {
  document: Document
  dereferenced: Document
  operations: OperationEntry[]
}

/**
 * `validate` checks the document against the OpenAPI 3.1 schema too. It costs about a second, most
 * of start-up, so the server leaves it to `npm test`, which runs it on every change of the document.
 */
export async function loadSpec(path = specPath, { validate = false } = {}): Promise<LoadedSpec> {
  const document = (await SwaggerParser.parse(path)) as Document
  const copy = structuredClone(document)
  const dereferenced = (await (validate
    ? SwaggerParser.validate(copy)
    : SwaggerParser.dereference(copy))) as Document
  return { document, dereferenced, operations: listOperations(dereferenced) }
}

/** Every operation of a dereferenced document, with its parameters merged and its security resolved. */
export function listOperations(doc: Document): OperationEntry[] {
  const entries: OperationEntry[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue
    for (const method of methods) {
      const operation = item[method]
      if (!operation) continue
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`)
      const byKey = new Map<string, Parameter>()
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Parameter[]) {
        byKey.set(`${p.in}:${p.name}`, p)
      }
      entries.push({
        operationId: operation.operationId,
        method,
        path,
        operation,
        parameters: [...byKey.values()],
        security: operation.security ?? doc.security ?? [],
      })
    }
  }
  return entries
}
