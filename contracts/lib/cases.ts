// Turns the document into test cases: one per named response example (the request example of the
// same name, or a fixture derivation, produces it) and generated negative cases per operation.
import { type Derivation, derivedExamples, requiredHeaders } from '../fixtures.js'
import {
  documentedStatuses,
  type Example,
  type JsonSchema,
  lowestSuccess,
  type MediaType,
  type OperationEntry,
  type Response,
} from './document.js'
import type { Auth, RequestSpec } from './http.js'

export interface ExampleCase {
  kind: 'example'
  /** `operationId · example`, the name deviations and messages use. */
  id: string
  entry: OperationEntry
  example: string
  /** The status of the response that documents this example. */
  status: number
  response: Response
  /** The documented body, or undefined for a response without a body. */
  body: { mediaType: string; value: unknown } | undefined
  request: RequestSpec
  /** Plants the caller must own first (x-given-plants of every example the request uses). */
  givenPlants: Plant[]
  requiredHeaders: string[]
  derivation?: Derivation
}

export interface GeneratedCase {
  kind: 'generated'
  id: string
  /** Undefined for a path the document does not have. */
  entry: OperationEntry | undefined
  request: RequestSpec
  /** The status the document calls for. */
  status: number
  requiredHeaders: string[]
  /** Plants the caller must own first: the base request's, for cases expecting success. */
  givenPlants: Plant[]
}

export type Case = ExampleCase | GeneratedCase

export type Plant = Record<string, unknown> & { id: number }

/** A breach of the document's example conventions: reported by a test of its own, not thrown. */
export interface ConventionProblem {
  operationId: string
  message: string
}

const JSON_TYPE = 'application/json'

const firstEntry = (examples: Record<string, Example> | undefined): [string, Example] | undefined =>
  examples ? Object.entries(examples)[0] : undefined

function jsonMedia(content: Record<string, MediaType> | undefined): MediaType | undefined {
  return content?.[JSON_TYPE]
}

/** Every response example of an operation, with the status documenting it. */
function responseExamples(entry: OperationEntry, problems: ConventionProblem[]) {
  const found = new Map<string, { status: number; response: Response; mediaType?: string; value?: unknown }>()
  for (const status of documentedStatuses(entry)) {
    const response = entry.operation.responses[String(status)]
    if (!response) continue
    const add = (name: string, mediaType?: string, value?: unknown) => {
      const seen = found.get(name)
      if (seen && seen.status !== status) {
        problems.push({
          operationId: entry.operationId,
          message: `example "${name}" is documented under both ${seen.status} and ${status}: a request cannot produce both`,
        })
        return
      }
      found.set(name, { status, response, mediaType, value })
    }
    for (const [mediaType, media] of Object.entries(response.content ?? {})) {
      for (const [name, example] of Object.entries(media.examples ?? {})) add(name, mediaType, example.value)
    }
    for (const name of response['x-example-names'] ?? []) add(name)
    if (!response.content && !response['x-example-names']?.length) {
      problems.push({
        operationId: entry.operationId,
        message: `the bodiless ${status} response names no request example (x-example-names), so nothing exercises it`,
      })
    }
  }
  return found
}

/** The names of all request examples of an operation (parameters and body). */
function requestExampleNames(entry: OperationEntry): Set<string> {
  const names = new Set<string>()
  for (const p of entry.parameters) for (const name of Object.keys(p.examples ?? {})) names.add(name)
  for (const name of Object.keys(jsonMedia(entry.operation.requestBody?.content)?.examples ?? {}))
    names.add(name)
  return names
}

/**
 * The request for a named example: each parameter and the body take their example of that name; a
 * required one without such an example takes its first example; an optional one is left out.
 */
function requestFor(entry: OperationEntry, name: string): { request: RequestSpec; givenPlants: Plant[] } {
  const used: Example[] = []
  let path = entry.path
  const query = new URLSearchParams()
  for (const p of entry.parameters) {
    const example = p.examples?.[name] ?? (p.required ? firstEntry(p.examples)?.[1] : undefined)
    if (!example) {
      if (p.required) throw new Error(`${entry.operationId}: required parameter ${p.name} has no example`)
      continue
    }
    used.push(example)
    const value = String(example.value)
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value))
    else if (p.in === 'query') query.append(p.name, value)
    else throw new Error(`${entry.operationId}: ${p.in} parameters are not supported by the suite yet`)
  }
  const request: RequestSpec = {
    method: entry.method.toUpperCase(),
    path: query.size ? `${path}?${query}` : path,
    auth: entry.secured ? { kind: 'principal' } : { kind: 'none' },
  }
  const requestBody = entry.operation.requestBody
  if (requestBody) {
    const media = jsonMedia(requestBody.content)
    const example =
      media?.examples?.[name] ?? (requestBody.required ? firstEntry(media?.examples)?.[1] : undefined)
    if (example) {
      used.push(example)
      request.contentType = JSON_TYPE
      request.body = JSON.stringify(example.value)
    } else if (requestBody.required) {
      throw new Error(`${entry.operationId}: the required body has no application/json example`)
    }
  }
  const givenPlants = new Map<string, Plant>()
  for (const example of used) {
    for (const plant of (example['x-given-plants'] ?? []) as Plant[])
      givenPlants.set(JSON.stringify(plant), plant)
  }
  return { request, givenPlants: [...givenPlants.values()] }
}

/** The name of the operation's first success example: its request is the base of derived requests. */
function baseExampleName(entry: OperationEntry): string | undefined {
  const status = lowestSuccess(entry)
  if (status === undefined) return undefined
  const response = entry.operation.responses[String(status)]
  const media = response?.content ? Object.values(response.content)[0] : undefined
  return firstEntry(media?.examples)?.[0] ?? response?.['x-example-names']?.[0]
}

function derive(base: RequestSpec, derivation: Derivation): { request: RequestSpec; keepGivens: boolean } {
  switch (derivation.kind) {
    case 'no-token':
      return { request: { ...base, auth: { kind: 'none' } }, keepGivens: false }
    case 'unknown-token':
      return { request: { ...base, auth: { kind: 'unknown' } }, keepGivens: false }
    case 'oversized-body': {
      const body = JSON.parse(base.body ?? '{}') as Record<string, unknown>
      const padding = Math.max(0, derivation.bytes - (base.body ?? '').length)
      body.name = `${String(body.name ?? '')}${'x'.repeat(padding)}`
      return { request: { ...base, contentType: JSON_TYPE, body: JSON.stringify(body) }, keepGivens: true }
    }
    case 'raw-body':
      return {
        request: { ...base, contentType: derivation.contentType, body: derivation.body },
        keepGivens: true,
      }
  }
}

function headersFor(status: number, example?: string): string[] {
  return [
    ...(requiredHeaders.byStatus[status] ?? []),
    ...((example && requiredHeaders.byExample[example]) || []),
  ]
}

export function exampleCases(
  operations: OperationEntry[],
  problems: ConventionProblem[] = [],
): ExampleCase[] {
  const cases: ExampleCase[] = []
  for (const entry of operations) {
    const responses = responseExamples(entry, problems)
    const requestNames = requestExampleNames(entry)
    for (const name of requestNames) {
      if (!responses.has(name)) {
        problems.push({
          operationId: entry.operationId,
          message: `request example "${name}" has no response example of the same name, so its answer is unspecified`,
        })
      }
    }
    const baseName = baseExampleName(entry)
    for (const [name, documented] of responses) {
      const derivation = requestNames.has(name) ? undefined : derivedExamples[name]
      let built: { request: RequestSpec; givenPlants: Plant[] }
      try {
        if (requestNames.has(name)) {
          built = requestFor(entry, name)
        } else if (derivation && baseName !== undefined) {
          const base = requestFor(entry, baseName)
          const { request, keepGivens } = derive(base.request, derivation)
          built = { request, givenPlants: keepGivens ? base.givenPlants : [] }
        } else {
          problems.push({
            operationId: entry.operationId,
            message: `response example "${name}" (${documented.status}) has no request example of the same name and no derivation in contracts/fixtures.ts`,
          })
          continue
        }
      } catch (error) {
        problems.push({ operationId: entry.operationId, message: (error as Error).message })
        continue
      }
      cases.push({
        kind: 'example',
        id: `${entry.operationId} · ${name}`,
        entry,
        example: name,
        status: documented.status,
        response: documented.response,
        body:
          documented.mediaType === undefined
            ? undefined
            : { mediaType: documented.mediaType, value: documented.value },
        request: built.request,
        givenPlants: built.givenPlants,
        requiredHeaders: headersFor(documented.status, name),
        derivation,
      })
    }
  }
  return cases
}

// ---- Generated cases -----------------------------------------------------------------------------

/** The properties and required names of an object schema, allOf branches merged. */
export function objectShape(schema: JsonSchema | undefined): {
  properties: Record<string, JsonSchema>
  required: string[]
} {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  const visit = (s: JsonSchema | undefined) => {
    if (!s) return
    Object.assign(properties, (s.properties as Record<string, JsonSchema> | undefined) ?? {})
    required.push(...((s.required as string[] | undefined) ?? []))
    for (const branch of (s.allOf as JsonSchema[] | undefined) ?? []) visit(branch)
  }
  visit(schema)
  return { properties, required: [...new Set(required)] }
}

/** A JSON value of a type the schema does not allow. */
function wrongTypeValue(schema: JsonSchema): unknown {
  const type = schema.type
  return type === 'string' ? 42 : 'not-a-number'
}

/** A query or path value the schema rejects because of its type, or undefined when any string passes. */
function wrongTypeParameter(schema: JsonSchema | undefined): string[] {
  const type = schema?.type
  if (type === 'integer') return ['abc', '1.5']
  if (type === 'number' || type === 'boolean') return ['abc']
  return []
}

export function generatedCases(operations: OperationEntry[]): GeneratedCase[] {
  const cases: GeneratedCase[] = []
  const add = (
    entry: OperationEntry | undefined,
    label: string,
    request: RequestSpec,
    status: number,
    givenPlants: Plant[] = [],
    prefix = 'unknown path',
  ) => {
    cases.push({
      kind: 'generated',
      id: `${entry?.operationId ?? prefix} · ${label}`,
      entry,
      request,
      status,
      requiredHeaders: headersFor(status),
      givenPlants,
    })
  }

  for (const entry of operations) {
    const baseName = baseExampleName(entry)
    if (baseName === undefined) continue
    const { request: base, givenPlants: baseGivens } = requestFor(entry, baseName)

    if (entry.secured) {
      add(entry, 'no token', { ...base, auth: { kind: 'none' } }, 401)
      const malformed: [string, string][] = [
        ['Basic scheme', 'Basic dXNlcjpwYXNz'],
        ['Bearer without a token', 'Bearer'],
        ['token without a scheme', 'token-a'],
      ]
      for (const [label, value] of malformed) {
        add(entry, `malformed Authorization (${label})`, { ...base, auth: { kind: 'header', value } }, 401)
      }
    }

    for (const p of entry.parameters) {
      const replace = (value: string): RequestSpec => {
        if (p.in === 'path') {
          const path = entry.path.replace(`{${p.name}}`, encodeURIComponent(value))
          const query = base.path.includes('?') ? base.path.slice(base.path.indexOf('?')) : ''
          return { ...base, path: `${path}${query}` }
        }
        const [pathOnly = '', search = ''] = base.path.split('?')
        const query = new URLSearchParams(search)
        query.set(p.name, value)
        return { ...base, path: `${pathOnly}?${query}` }
      }
      if (p.in !== 'path' && p.in !== 'query') continue
      for (const value of wrongTypeParameter(p.schema))
        add(entry, `${p.in} ${p.name}=${value} (wrong type)`, replace(value), 400)
      const min = p.schema?.minimum
      const max = p.schema?.maximum
      if (typeof min === 'number')
        add(entry, `${p.in} ${p.name} below its minimum`, replace(String(min - 1)), 400)
      if (typeof max === 'number')
        add(entry, `${p.in} ${p.name} above its maximum`, replace(String(max + 1)), 400)
    }

    const requestBody = entry.operation.requestBody
    const media = jsonMedia(requestBody?.content)
    if (requestBody && media && base.body !== undefined) {
      const baseBody = JSON.parse(base.body) as Record<string, unknown>
      const withBody = (body: unknown): RequestSpec => ({
        ...base,
        contentType: JSON_TYPE,
        body: JSON.stringify(body),
      })
      if (requestBody.required) {
        add(entry, 'no body', { ...base, contentType: undefined, body: undefined }, 400)
      }
      const shape = objectShape(media.schema)
      for (const field of shape.required) {
        const { [field]: _left, ...rest } = baseBody
        add(entry, `body without required ${field}`, withBody(rest), 400)
      }
      for (const [field, schema] of Object.entries(shape.properties)) {
        add(
          entry,
          `body ${field} of the wrong type`,
          withBody({ ...baseBody, [field]: wrongTypeValue(schema) }),
          400,
        )
      }
      add(entry, 'body is an array, not an object', withBody([baseBody]), 400)
      add(entry, 'malformed JSON', { ...base, contentType: JSON_TYPE, body: base.body.slice(0, -1) }, 400)
      add(entry, 'text/plain body', { ...base, contentType: 'text/plain', body: 'Basil' }, 415)
      add(
        entry,
        'form-encoded body',
        { ...base, contentType: 'application/x-www-form-urlencoded', body: 'name=Basil' },
        415,
      )
    }

    // An operation without a body must not care about a Content-Type header on an empty request:
    // some HTTP clients send `Content-Type: application/json` on every request. The document gives
    // such an operation no 400 for it and no 415 at all, so the base request must still succeed.
    const success = lowestSuccess(entry)
    if (!requestBody && success !== undefined) {
      for (const contentType of [JSON_TYPE, 'text/plain']) {
        add(
          entry,
          `Content-Type ${contentType} without a body`,
          { ...base, contentType },
          success,
          baseGivens,
        )
      }
    }
  }

  // A method the document lacks on a path it has.
  const methodsOf = new Map<string, Set<string>>()
  for (const entry of operations) {
    const set = methodsOf.get(entry.path) ?? new Set<string>()
    set.add(entry.method)
    methodsOf.set(entry.path, set)
  }
  for (const [pathTemplate, methods] of methodsOf) {
    if (methods.has('patch')) continue
    const path = pathTemplate.replace(/\{[^}]+\}/g, '1')
    const request: RequestSpec = { method: 'PATCH', path, auth: { kind: 'principal' } }
    add(undefined, `PATCH ${pathTemplate}`, request, 405, [], 'unknown method')
  }

  const auth: Auth = { kind: 'principal' }
  add(undefined, 'GET /no-such-path', { method: 'GET', path: '/no-such-path', auth }, 404)
  add(undefined, 'GET /plants/1/leaves', { method: 'GET', path: '/plants/1/leaves', auth }, 404)
  return cases
}
