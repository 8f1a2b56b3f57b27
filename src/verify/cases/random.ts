// The random requests: fast-check arbitraries of probes for every operation of the document, derived
// from its parameters, security, content types and schemas (random-values.ts), valid ones and ones
// with exactly one defect: a new operation is covered without new code.
import { HEADER_LIMIT, isUnicodeText } from '@plant-store/core'
import fc from 'fast-check'
import { flatten, type JsonSchema, type OperationEntry, type Parameter } from '../document.js'
import type { Auth } from '../http.js'
import { type JsonNode, render, value } from './json-text.js'
import {
  bodyFeatures,
  type Defect,
  type Feature,
  JSON_TYPE,
  type Parts,
  type Probe,
  SAFE,
  toProbe,
} from './probe.js'
import { type Draws, defectiveBody, idArbitraryFrom, stringArbitrary, validNode } from './random-values.js'
import { MALFORMED_AUTHORIZATIONS, QUERY_TOKEN } from './refused-tokens.js'

const canonical = (id: bigint) => String(id)
/** Path forms of an id that are not the decimal integer the document asks for. */
const badPathIds = fc.constantFrom(
  '007',
  '+1',
  '0x10',
  '%201',
  '1%20',
  '1.0',
  '1e3',
  '-',
  'abc',
  '9223372036854775808',
  '-9223372036854775809',
  '%20',
)

const authDefects: fc.Arbitrary<{ auth: Auth; defect: Defect; queryToken?: boolean }> = fc.oneof(
  fc.constant({ auth: { kind: 'none' } as Auth, defect: 'auth: none' as Defect }),
  fc
    .constantFrom('Bearer ', ...MALFORMED_AUTHORIZATIONS.map(([, value]) => value))
    .map((value) => ({ auth: { kind: 'header', value } as Auth, defect: 'auth: malformed' as Defect })),
  fc.constant({ auth: { kind: 'unknown' } as Auth, defect: 'auth: unknown token' as Defect }),
  fc.constant({
    auth: { kind: 'none' } as Auth,
    defect: 'auth: token in the query string' as Defect,
    queryToken: true,
  }),
)

const jsonTypes = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ type: JSON_TYPE, features: [] as Feature[] }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8')
      .map((type) => ({ type, features: ['content type: parameters or case'] as Feature[] })),
  },
)
const unsupportedTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'application/problem+json',
  'application/xml',
)

/** Every probe of one operation. */
export function probesOf(entry: OperationEntry, bodyLimit: number, draws: Draws): fc.Arbitrary<Probe> {
  const pathParams = entry.parameters.filter((p) => p.in === 'path')
  const queryParams = entry.parameters.filter((p) => p.in === 'query')
  const media = entry.operation.requestBody?.content[JSON_TYPE]
  const bodySchema = media?.schema

  const validPath = fc.tuple(...pathParams.map((p) => draws.ids.map((id) => [p, id] as const)))
  // A query string is bytes: a string that is not well-formed UTF-16 cannot travel in one.
  // An opaque cursor is the server's to make: a valid probe leaves it out (badQueryValues sends some).
  const validQuery = fc.tuple(
    ...queryParams
      .filter((p) => p.name !== 'cursor')
      .map((p) => fc.option(queryValue(p), { nil: undefined }).map((v) => [p.name, v] as const)),
  )
  const unknownQuery = fc.option(
    fc.constantFrom<[string, string]>(['colour', 'green'], ['page', '2'], ['LIMIT', '5']),
    { nil: undefined },
  )
  // Valid bodies stay under the limit, with room for a defect's changes: a longer one is another class.
  const underLimit = (node: JsonNode) => Buffer.byteLength(render(node)) < bodyLimit - 1024
  const validBody = bodySchema ? validNode(bodySchema, draws).filter(underLimit) : fc.constant(undefined)

  const base = fc.record({
    path: validPath,
    query: validQuery,
    extraQuery: unknownQuery,
    body: validBody,
    type: jsonTypes,
  })
  const valid: fc.Arbitrary<Parts> = base.map(({ path, query, extraQuery, body, type }) => {
    const features: Feature[] = []
    const pathValues: Record<string, string> = {}
    let id: bigint | undefined
    for (const [p, v] of path) {
      pathValues[p.name] = canonical(v)
      if (p.schema?.format === 'int64') id = v
      if (v > SAFE || v < -SAFE) features.push('id beyond 2^53')
    }
    const q = query
      .filter((e): e is readonly [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k, v] as [string, string])
    if (q.some(([, v]) => v === '')) features.push('query: empty value')
    if (extraQuery) {
      q.push(extraQuery)
      features.push('query: unknown parameter')
    }
    const parts: Parts = { defect: undefined, features, pathValues, query: q, auth: { kind: 'principal' } }
    if (body) {
      parts.body = render(body)
      parts.bodyValue = value(body)
      parts.contentType = type.type
      features.push(...bodyFeatures(body), ...type.features)
      // The path names the plant where it has an id; a body's id where it does not (a create).
      const bodyId = (parts.bodyValue as Record<string, unknown>).id
      if (typeof bodyId === 'bigint' && id === undefined) id = bodyId
    }
    if (id !== undefined) parts.id = id
    return parts
  })

  const defects: fc.Arbitrary<Parts>[] = []
  if (entry.secured) {
    defects.push(
      fc.tuple(valid, authDefects).map(([parts, { auth, defect, queryToken }]) => ({
        ...parts,
        auth,
        defect,
        query: queryToken ? [...parts.query, QUERY_TOKEN] : parts.query,
      })),
    )
  }
  for (const p of pathParams) {
    defects.push(
      fc.tuple(valid, badPathIds).map(([parts, bad]) => ({
        ...parts,
        pathValues: { ...parts.pathValues, [p.name]: bad },
        id: undefined,
        defect: 'path: not an int64' as Defect,
      })),
    )
  }
  for (const p of queryParams) {
    const bad = badQueryValues(p)
    if (bad)
      defects.push(
        fc.tuple(valid, bad).map(([parts, [v, defect]]) => ({
          ...parts,
          query: [...parts.query.filter(([k]) => k !== p.name), [p.name, v]],
          defect,
        })),
      )
    if (p.schema?.type === 'integer') {
      defects.push(
        valid.map((parts) => ({
          ...parts,
          query: [...parts.query.filter(([k]) => k !== p.name), [p.name, '1'], [p.name, '2']],
          defect: 'query: repeated' as Defect,
        })),
      )
    }
  }
  if (bodySchema) {
    const withBody = (
      parts: Parts,
      body: string | undefined,
      contentType: string | undefined,
      defect: Defect,
    ): Parts => {
      const { bodyValue: _unused, ...rest } = parts
      return {
        ...rest,
        body,
        contentType,
        defect,
        features: parts.features.filter((f) => !f.startsWith('content type')),
      }
    }
    defects.push(
      fc
        .tuple(
          valid,
          defectiveBody(bodySchema, draws).filter(({ node }) => underLimit(node)),
        )
        .map(([parts, { node, defect }]) => withBody(parts, render(node), JSON_TYPE, defect)),
      valid.map((parts) =>
        withBody(parts, (parts.body ?? '{}').slice(0, -1), JSON_TYPE, 'body: malformed JSON'),
      ),
      valid.map((parts) => withBody(parts, '', JSON_TYPE, 'body: empty')),
      valid.map((parts) => withBody(parts, undefined, undefined, 'body: none')),
      fc
        .tuple(valid, unsupportedTypes)
        .map(([parts, type]) => withBody(parts, parts.body, type, 'content type: unsupported')),
      valid.map((parts) => withBody(parts, parts.body, undefined, 'content type: none')),
      valid.map((parts) => {
        const padded = `{"name":"${'x'.repeat(bodyLimit)}","id":1}`
        return withBody(parts, padded, JSON_TYPE, 'body: too large')
      }),
    )
  } else if (entry.method !== 'get') {
    // A body sent along to an operation that takes none is ignored (the document's convention).
    defects.push(
      valid.map((parts) => ({
        ...parts,
        body: '{"name":"ignored"}',
        contentType: JSON_TYPE,
        features: [...parts.features, 'body on an operation without one' as Feature],
      })),
    )
  }
  return fc.oneof({ weight: 3, arbitrary: valid }, ...defects).map((parts) => toProbe(entry, parts))
}

function queryValue(p: Parameter): fc.Arbitrary<string> {
  const schema = p.schema ?? {}
  if (schema.type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : -(2 ** 31)
    const max = typeof schema.maximum === 'number' ? schema.maximum : 2 ** 31 - 1
    return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max })).map(String)
  }
  return stringArbitrary(schema).filter((text) => isUnicodeText(text) && text.length < 1000)
}

function badQueryValues(p: Parameter): fc.Arbitrary<[string, Defect]> | undefined {
  const schema = p.schema ?? {}
  if (schema.type === 'integer') {
    const out: [string, Defect][] = []
    if (typeof schema.minimum === 'number') out.push([String(schema.minimum - 1), 'query: out of range'])
    if (typeof schema.maximum === 'number') out.push([String(schema.maximum + 1), 'query: out of range'])
    out.push(
      ['2147483648', 'query: out of range'],
      ['1.5', 'query: not an integer'],
      ['ten', 'query: not an integer'],
      ['', 'query: not an integer'],
      ['0x10', 'query: not an integer'],
    )
    return fc.constantFrom(...out)
  }
  const tooLong: [string, Defect][] =
    // A bound at or past the request line's limit cannot be reached: a longer query is a 431.
    schema.type === 'string' && typeof schema.maxLength === 'number' && schema.maxLength < HEADER_LIMIT - 1024
      ? [['x'.repeat(schema.maxLength + 1), 'query: string too long']]
      : []
  if (p.name === 'cursor')
    return fc.constantFrom<[string, Defect]>(
      ['not-a-cursor', 'query: unknown cursor'],
      ['MQ==', 'query: unknown cursor'],
      ...tooLong,
    )
  return tooLong.length ? fc.constantFrom(...tooLong) : undefined
}
/** A probe of any operation of the document. */
export function probeArbitrary(
  operations: OperationEntry[],
  bodyLimit: number,
  idBase = 0n,
): fc.Arbitrary<Probe> {
  const named = new Map<string, JsonSchema>()
  for (const entry of operations) {
    const body = entry.operation.requestBody?.content[JSON_TYPE]?.schema
    for (const [name, schema] of Object.entries(body ? flatten(body).properties : {}))
      if (!named.has(name)) named.set(name, schema)
  }
  const draws: Draws = { ids: idArbitraryFrom(idBase), named }
  return fc.oneof(...operations.map((entry) => probesOf(entry, bodyLimit, draws)))
}
