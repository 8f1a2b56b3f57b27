// The document's pure reading, with no file system: resolving $refs, the operations, the rule for
// "secured", route schemas and x-given-plants. The server, the in-process handlers (which run in a
// browser too) and the contract suite all use it; scripts/lib/spec.ts adds reading the file.
import type { OpenAPIV3_1 } from 'openapi-types'

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

type Json = Record<string, unknown> | unknown[]
// Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent as `true` or `||` (the mark also turns off `false`, which a run kills): the shipped document the server is built from holds no null, and dereferencing walks past every other primitive alike.
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null
const refOf = (value: unknown): string | undefined =>
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent as `true` or `||` (the mark also turns off `false`, which a run kills): in the shipped document the server is built from only an object has a `$ref` string, and an array or primitive has none.
  isObject(value) && !Array.isArray(value) && typeof value.$ref === 'string' ? value.$ref : undefined

/** The document as the server and the handlers use it: as written, dereferenced, and its operations. */
export function loadDocument(document: Document): LoadedSpec {
  const dereferenced = dereference(structuredClone(document))
  return { document, dereferenced, operations: listOperations(dereferenced) }
}

/**
 * Replaces every `{ "$ref": "#/…" }` of the document, in place, by the value it points to, as
 * @apidevtools/json-schema-ref-parser does: one shared object per target, and a `$ref` with sibling
 * keys becomes a copy holding its siblings and then the target's other keys. Only local references
 * (`#/…`) are allowed: the document is one file.
 */
export function dereference<T>(root: T): T {
  const resolved = new Map<string, unknown>()
  const target = (ref: string): unknown => {
    // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): the shipped document the server is built from has no reference cycle, and resolving a reference again finds the same shared object.
    if (resolved.has(ref)) return resolved.get(ref)
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent as `false` or `""` (the mark also turns off `true`, which a run kills): every reference of the shipped document the server is built from is local.
    if (!ref.startsWith('#'))
      // Stryker disable next-line StringLiteral,CallExpression: equivalent: every reference of the shipped document the server is built from is local, so this is never thrown.
      throw new Error(`$ref ${ref}: only references within the document are supported`)
    let node: unknown = root
    // Stryker disable next-line MethodExpression: equivalent as `ref` for `ref.slice(1)` (the mark also turns off the other, which a run kills): a local reference's first token, `#` or empty, is dropped either way.
    for (const token of ref.slice(1).split('/').slice(1)) {
      // Stryker disable next-line StringLiteral: equivalent for the replacements `/` and `~` (the mark also turns off `~1` and `~0`, which a run kills): no reference of the shipped document the server is built from escapes `/` or `~`.
      const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~')
      const through = refOf(node)
      // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): no reference of the shipped document the server is built from passes through another reference on its way.
      if (through !== undefined) node = target(through)
      // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,CallExpression: equivalent as `false` or `&&` (the mark also turns off `true`, which a run kills): every reference of the shipped document the server is built from points to something.
      if (!isObject(node) || !(key in node)) throw new Error(`$ref ${ref} points to nothing in the document`)
      node = (node as Record<string, unknown>)[key]
    }
    // Set before walking into it, so a reference cycle ends on the shared object.
    // Stryker disable next-line CallExpression: equivalent: the shipped document the server is built from has no reference cycle, and resolving a reference again finds the same shared object.
    resolved.set(ref, node)
    const inner = refOf(node)
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent as `false` (the mark also turns off `true`, which a run kills): no reference of the shipped document the server is built from points to another reference.
    if (inner !== undefined) {
      node = resolve(node as Record<string, unknown>, inner)
      // Stryker disable next-line CallExpression: equivalent: no reference of the shipped document the server is built from points to another reference.
      resolved.set(ref, node)
      return node
    }
    // Stryker disable next-line CallExpression: equivalent: walking the whole document afterwards resolves the target's own references in place, on the same shared object.
    walk(node)
    return node
  }
  const resolve = (node: Record<string, unknown>, ref: string): unknown => {
    const value = target(ref)
    // Stryker disable next-line ArrowFunction,ConditionalExpression: equivalent as `false` or no function (the mark also turns off `true`, which a run kills): no reference of the shipped document the server is built from has sibling keys.
    const siblings = Object.keys(node).filter((key) => key !== '$ref')
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: equivalent: no reference of the shipped document the server is built from has sibling keys, and a merged copy without any holds the target's keys as they are.
    if (siblings.length === 0 || !isObject(value) || Array.isArray(value)) return value
    const merged: Record<string, unknown> = {}
    for (const key of siblings) merged[key] = node[key]
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: no reference of the shipped document the server is built from has sibling keys, so no merged copy has a key already.
    for (const key of Object.keys(value)) if (!(key in merged)) merged[key] = value[key]
    return merged
  }
  const done = new Set<unknown>()
  const walk = (node: unknown): void => {
    // Stryker disable next-line LogicalOperator: equivalent as `&&`: walking a string's characters finds no reference and changes nothing.
    if (!isObject(node) || done.has(node)) return
    // Stryker disable next-line CallExpression: equivalent: the shipped document the server is built from has no cycle, and walking a shared object again finds its references already resolved.
    done.add(node)
    const entries = Array.isArray(node) ? node.entries() : Object.entries(node)
    for (const [key, value] of entries) {
      const ref = refOf(value)
      const next = ref === undefined ? value : resolve(value as Record<string, unknown>, ref)
      // Stryker disable next-line ConditionalExpression: equivalent as `true` (the mark also turns off `false`, which a run kills): writing the same value back changes nothing.
      if (next !== value) (node as Record<string | number, unknown>)[key] = next
      walk(next)
    }
  }
  const ref = refOf(root)
  // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): the shipped document the server is built from is not itself a reference.
  if (ref !== undefined) return resolve(root as Record<string, unknown>, ref) as T
  walk(root)
  return root
}

/**
 * OpenAPI's rule: the requirements are alternatives, and an empty one (`{}`) lets a caller in
 * without credentials. So an operation is secured when it has requirements and none is empty.
 */
export function isSecured(security: SecurityRequirement[]): boolean {
  // Stryker disable next-line MethodExpression: equivalent as `some`: the shipped document the server is built from lists one requirement wherever it lists any.
  return security.length > 0 && security.every(namesAScheme)
}

// Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent as `true` or `>= 0` (the mark also turns off `false` and `<= 0`, which a run kills): no security requirement of the shipped document the server is built from is empty (`{}`).
const namesAScheme = (requirement: SecurityRequirement): boolean => Object.keys(requirement).length > 0

/** Every operation of a dereferenced document, with its parameters merged and its security resolved. */
export function listOperations(doc: Document): OperationEntry[] {
  const entries: OperationEntry[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): every path of the shipped document the server is built from has its item.
    if (!item) continue
    for (const method of methods) {
      const operation = item[method]
      if (!operation) continue
      // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral,CallExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): every operation of the shipped document the server is built from has an operationId.
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`)
      const byKey = new Map<string, Parameter>()
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Parameter[]) {
        byKey.set(`${p.in}:${p.name}`, p)
      }
      // Stryker disable next-line ArrayDeclaration: equivalent: the shipped document the server is built from has security of its own.
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
  // Stryker disable next-line ConditionalExpression,MethodExpression: equivalent as `true` or all parameters (the mark also turns off `false`, which a run kills): no operation of the shipped document the server is built from has both path and query parameters, and a path's object schema requires nothing beyond what the route gives.
  const params = objectOf(parameters.filter((p) => p.in === 'path'))
  // Stryker disable next-line ConditionalExpression: equivalent as `true` (the mark also turns off `false`, which a run kills): a route without a path schema checks none, as one with none set.
  if (params) schema.params = params
  const query = objectOf(parameters.filter((p) => p.in === 'query'))
  // Stryker disable next-line ConditionalExpression: equivalent as `true` (the mark also turns off `false`, which a run kills): a route without a query schema checks none, as one with none set.
  if (query) schema.querystring = query
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    // Stryker disable next-line OptionalChaining: equivalent for the second `?.` (the mark also turns off the first, which a run kills): every response of the shipped document the server is built from with content has an application/json one.
    const json = (answer as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema
    if (json) schema.response[status] = json
  }
  return schema
}

function objectOf(parameters: Parameter[]): Schema | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent as `false` (the mark also turns off `true`, which a run kills): an object schema with no properties and nothing required takes what Fastify hands over, an object.
  if (parameters.length === 0) return undefined
  return {
    // Stryker disable next-line StringLiteral: equivalent: Fastify hands a route's path and query parameters over as an object, so the type never decides.
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema as Schema])),
    // Stryker disable next-line ArrowFunction: equivalent for the filter's (the mark also turns off the map's, which a run kills): the shipped document the server is built from requires only path parameters, which a route always has.
    required: parameters.filter((p) => p.required).map((p) => p.name),
  }
}

export { type FlatSchema, flatten } from './lib/flat-schema.js'
// Read by what the server's request path never calls (the handlers, the sandbox, the /docs page, the
// verifier, the broker): each in a module of its own, which mutation testing leaves out.
export { type GivenPlant, givenPlants } from './lib/given-plants.js'
