// Reads spec/openapi.yaml, and only reads it: the operations, the rule for "secured", the route
// schemas and the x-given-plants fixtures. The server, the baseline and the contract suite all use it.
import { fileURLToPath } from 'node:url'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { OpenAPIV3_1 } from 'openapi-types'

export const specPath = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url))

export type Document = OpenAPIV3_1.Document
export type Operation = OpenAPIV3_1.OperationObject
export type Parameter = OpenAPIV3_1.ParameterObject
export type Schema = OpenAPIV3_1.SchemaObject
export type SecurityRequirement = OpenAPIV3_1.SecurityRequirementObject

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
  security: SecurityRequirement[]
  /** Whether a caller must present credentials: see isSecured. */
  secured: boolean
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

/**
 * OpenAPI's rule: the requirements are alternatives, and an empty one (`{}`) lets a caller in
 * without credentials. So an operation is secured when it has requirements and none is empty.
 */
export function isSecured(security: SecurityRequirement[]): boolean {
  return security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0)
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
      const security = operation.security ?? doc.security ?? []
      entries.push({
        operationId: operation.operationId,
        method,
        path,
        operation,
        parameters: [...byKey.values()],
        security,
        secured: isSecured(security),
      })
    }
  }
  return entries
}

/** The operation's path in Fastify's form: `/plants/{id}` becomes `/plants/:id`. */
export const routePath = (entry: OperationEntry): string => entry.path.replace(/\{([^}]+)\}/g, ':$1')

/** The JSON Schemas of an operation's parts, as Fastify takes them: body, params, query string, responses. */
export interface RouteSchema {
  body?: Schema
  params?: Schema
  querystring?: Schema
  response: Record<string, Schema>
}

export function routeSchema({ operation, parameters }: OperationEntry): RouteSchema {
  const schema: RouteSchema = { response: {} }
  const body = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[
    'application/json'
  ]
  if (body?.schema) schema.body = body.schema
  const params = objectOf(parameters.filter((p) => p.in === 'path'))
  if (params) schema.params = params
  const query = objectOf(parameters.filter((p) => p.in === 'query'))
  if (query) schema.querystring = query
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const json = (answer as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema
    if (json) schema.response[status] = json
  }
  return schema
}

function objectOf(parameters: Parameter[]): Schema | undefined {
  if (parameters.length === 0) return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema as Schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  }
}

/** A plant an example assumes the caller already owns. */
export interface GivenPlant {
  id: number | bigint
  name: string
  tag?: string
}

/** Every plant that some example of the document lists under x-given-plants, once per id. */
export function givenPlants(node: unknown, found = new Map<string, GivenPlant>()): GivenPlant[] {
  if (Array.isArray(node)) for (const item of node) givenPlants(item, found)
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(value)) {
        for (const plant of value as GivenPlant[])
          if (!found.has(String(plant.id))) found.set(String(plant.id), plant)
      } else givenPlants(value, found)
    }
  }
  return [...found.values()]
}
