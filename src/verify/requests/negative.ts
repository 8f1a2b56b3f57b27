// Generated negative cases per operation, from its schemas, parameters and security: tokens,
// missing and mistyped fields, out-of-range parameters, bodies that are not JSON, unknown paths.

import { flatten, type JsonSchema, lowestSuccess, type OperationEntry } from '../document.js'
import type { Auth, RequestSpec } from '../http.js'
import {
  baseExampleName,
  type GeneratedCase,
  headersFor,
  JSON_TYPE,
  jsonMedia,
  type Plant,
  requestFor,
} from './cases.js'

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
    let built: ReturnType<typeof requestFor>
    try {
      built = requestFor(entry, baseName)
    } catch {
      // No base request without examples to build it from (a draft without them): the example
      // cases report that as a breach of the document's conventions; nothing to derive here.
      continue
    }
    const { request: base, givenPlants: baseGivens } = built

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
      const shape = flatten(media.schema ?? {})
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
