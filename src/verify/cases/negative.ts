// The negative cases of each operation, each a probe (the case model every generated request has) of
// the operation's base request with one defect, named: tokens, missing and mistyped fields,
// out-of-range parameters, bodies that are not JSON; and the paths and methods the document lacks.
import { flatten, type JsonSchema, lowestSuccess, type OperationEntry } from '../document.js'
import type { Auth, RequestSpec } from '../http.js'
import {
  baseExampleName,
  exampleParts,
  type GeneratedCase,
  headersFor,
  JSON_TYPE,
  jsonMedia,
  type Plant,
} from './document-cases.js'
import { type Defect, type Parts, requestOf, toProbe } from './probe.js'

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
  const push = (id: string, entry: OperationEntry | undefined, request: RequestSpec, status: number) =>
    cases.push({
      kind: 'generated',
      id,
      entry,
      request,
      status,
      requiredHeaders: headersFor(status),
      givenPlants: [],
    })

  for (const entry of operations) {
    const baseName = baseExampleName(entry)
    if (baseName === undefined) continue
    let built: ReturnType<typeof exampleParts>
    try {
      built = exampleParts(entry, baseName)
    } catch {
      // No base request without examples to build it from (a draft without them): the example
      // cases report that as a breach of the document's conventions; nothing to derive here.
      continue
    }
    const { parts: base, givenPlants: baseGivens } = built
    /** The base request with `change` made: the probe of one defect (or none), and the status it gets. */
    const add = (
      label: string,
      defect: Defect | undefined,
      change: Partial<Parts>,
      status: number,
      givenPlants: Plant[] = [],
    ) => {
      const probe = toProbe(entry, { ...base, features: [], ...change, defect })
      cases.push({
        kind: 'generated',
        id: `${entry.operationId} · ${label}`,
        entry,
        probe,
        request: requestOf(probe),
        status,
        requiredHeaders: headersFor(status),
        givenPlants,
      })
    }

    if (entry.secured) {
      add('no token', 'auth: none', { auth: { kind: 'none' } }, 401)
      const malformed: [string, string][] = [
        ['Basic scheme', 'Basic dXNlcjpwYXNz'],
        ['Bearer without a token', 'Bearer'],
        ['token without a scheme', 'token-a'],
      ]
      for (const [label, value] of malformed)
        add(`malformed Authorization (${label})`, 'auth: malformed', { auth: { kind: 'header', value } }, 401)
    }

    for (const p of entry.parameters) {
      if (p.in !== 'path' && p.in !== 'query') continue
      const replace = (value: string): Partial<Parts> =>
        p.in === 'path'
          ? { pathValues: { ...base.pathValues, [p.name]: encodeURIComponent(value) } }
          : {
              query: base.query.some(([k]) => k === p.name)
                ? base.query.map(([k, v]): [string, string] => [k, k === p.name ? value : v])
                : [...base.query, [p.name, value]],
            }
      for (const value of wrongTypeParameter(p.schema))
        add(
          `${p.in} ${p.name}=${value} (wrong type)`,
          p.in === 'path' ? 'path: not an int64' : 'query: not an integer',
          replace(value),
          400,
        )
      const outOfRange: Defect = p.in === 'path' ? 'path: out of range' : 'query: out of range'
      const min = p.schema?.minimum
      const max = p.schema?.maximum
      if (typeof min === 'number')
        add(`${p.in} ${p.name} below its minimum`, outOfRange, replace(String(min - 1)), 400)
      if (typeof max === 'number')
        add(`${p.in} ${p.name} above its maximum`, outOfRange, replace(String(max + 1)), 400)
    }

    const requestBody = entry.operation.requestBody
    const media = jsonMedia(requestBody?.content)
    if (requestBody && media && base.body !== undefined) {
      const baseBody = JSON.parse(base.body) as Record<string, unknown>
      const withBody = (body: unknown): Partial<Parts> => ({
        contentType: JSON_TYPE,
        body: JSON.stringify(body),
      })
      const none = { contentType: undefined, body: undefined, bodyValue: undefined }
      if (requestBody.required) add('no body', 'body: none', none, 400)
      const shape = flatten(media.schema ?? {})
      for (const field of shape.required) {
        const { [field]: _left, ...rest } = baseBody
        add(`body without required ${field}`, 'body: required field missing', withBody(rest), 400)
      }
      for (const [field, schema] of Object.entries(shape.properties))
        add(
          `body ${field} of the wrong type`,
          'body: wrong type',
          withBody({ ...baseBody, [field]: wrongTypeValue(schema) }),
          400,
        )
      add('body is an array, not an object', 'body: not an object', withBody([baseBody]), 400)
      add(
        'malformed JSON',
        'body: malformed JSON',
        { contentType: JSON_TYPE, body: base.body.slice(0, -1), bodyValue: undefined },
        400,
      )
      add(
        'text/plain body',
        'content type: unsupported',
        { contentType: 'text/plain', body: 'Basil', bodyValue: undefined },
        415,
      )
      add(
        'form-encoded body',
        'content type: unsupported',
        { contentType: 'application/x-www-form-urlencoded', body: 'name=Basil', bodyValue: undefined },
        415,
      )
    }

    // An operation without a body must not care about a Content-Type header on an empty request:
    // some HTTP clients send `Content-Type: application/json` on every request. The document gives
    // such an operation no 400 for it and no 415 at all, so the base request must still succeed.
    const success = lowestSuccess(entry)
    if (!requestBody && success !== undefined)
      for (const contentType of [JSON_TYPE, 'text/plain'])
        add(
          `Content-Type ${contentType} without a body`,
          undefined,
          { contentType, features: ['content type without a body'] },
          success,
          baseGivens,
        )
  }

  // A method the document lacks on a path it has: no operation's case, the path's.
  const methodsOf = new Map<string, Set<string>>()
  for (const entry of operations) {
    const set = methodsOf.get(entry.path) ?? new Set<string>()
    set.add(entry.method)
    methodsOf.set(entry.path, set)
  }
  for (const [pathTemplate, methods] of methodsOf) {
    if (methods.has('patch')) continue
    const path = pathTemplate.replace(/\{[^}]+\}/g, '1')
    push(
      `unknown method · PATCH ${pathTemplate}`,
      undefined,
      { method: 'PATCH', path, auth: { kind: 'principal' } },
      405,
    )
  }

  const auth: Auth = { kind: 'principal' }
  push('unknown path · GET /no-such-path', undefined, { method: 'GET', path: '/no-such-path', auth }, 404)
  push(
    'unknown path · GET /plants/1/leaves',
    undefined,
    { method: 'GET', path: '/plants/1/leaves', auth },
    404,
  )
  return cases
}
