// Generated requests ("probes") for every operation of the document, as fast-check arbitraries
// derived from its schemas, parameters, security and content types: a new operation is covered
// without new code. A probe is valid, or carries exactly one defect, so that the document says
// which status it must get; `features` name what else is notable about it (an id beyond 2^53, an
// integer written `1e18`, a `__proto__` key, …) so that deviations can be listed by class.

import {
  BODY_LIMIT,
  HEADER_LIMIT,
  INT64_MAX,
  INT64_MIN,
  isUnicodeText,
  plantFieldNames,
} from '@plant-store/core'
import fc from 'fast-check'
import { flatten, type JsonSchema, type OperationEntry, type Parameter } from '../document.js'
import { type Auth, describeRequest, type RequestSpec } from '../http.js'
import { type IntegerForm, integer, type JsonNode, render, string, value } from './json-text.js'

/** The one thing wrong with a request; the document gives each a status (see `defectStatus`). */
export type Defect =
  | 'auth: none'
  | 'auth: malformed'
  | 'auth: unknown token'
  | 'auth: token in the query string'
  | 'body: none'
  | 'body: empty'
  | 'body: malformed JSON'
  | 'body: not an object'
  | 'body: required field missing'
  | 'body: wrong type'
  | 'body: integer out of range'
  | 'body: not an integer'
  | 'body: not Unicode text'
  | 'body: string too long'
  | 'body: too large'
  | 'content type: unsupported'
  | 'content type: none'
  | 'path: not an int64'
  | 'query: out of range'
  | 'query: not an integer'
  | 'query: repeated'
  | 'query: unknown cursor'
  | 'query: string too long'
  // Keywords the shipped document does not use yet, for the deterministic coverage probes
  // (coverage-phase.ts): each is a 400, as the oracle gives any defect it does not name.
  | 'body: string too short'
  | 'body: not in enum'
  | 'path: out of range'
  | 'query: required parameter missing'
  | 'query: string too short'
  | 'query: not in enum'

export type Feature =
  | 'id beyond 2^53'
  | 'integer form: exponent'
  | 'integer form: fraction'
  | 'integer form: negative zero'
  | 'key: __proto__'
  | 'key: constructor'
  | 'key: duplicate'
  | 'key: unknown'
  | 'string: NUL'
  | 'string: astral or combining'
  | 'content type: parameters or case'
  | 'content type: +json suffix'
  | 'path: percent-encoded'
  | 'query: unknown parameter'
  | 'query: empty value'
  | 'body on an operation without one'

export interface Probe {
  entry: OperationEntry
  defect: Defect | undefined
  features: Feature[]
  method: string
  /** Path and query string, as sent. */
  path: string
  auth: Auth
  contentType?: string
  body?: string
  /** What a correct reader makes of the body (ids as bigint), when it is valid JSON. */
  bodyValue?: unknown
  /** The plant id the request names, in its path or its body. */
  id?: bigint
  /** The parameters a correct server reads from the query string. */
  query: Record<string, string>
  /** What a deterministic coverage probe covers, e.g. `name maxLength 256 (valid)` (coverage-phase.ts). */
  covers?: string
}

export const JSON_TYPE = 'application/json'
export const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

// ---- Values --------------------------------------------------------------------------------------

/**
 * Ids: a small pool around `base` (so that requests meet the plants a state holds), the int64 edges,
 * and any int64. The kit's own targets use base 0; a server under test gets a base far from small
 * numbers, so that its existing plants are left alone.
 */
export function idArbitraryFrom(base: bigint): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.bigInt(base - 2n, base + 6n) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(INT64_MAX, INT64_MIN, SAFE, -SAFE, SAFE + 2n, -SAFE - 2n, 10n ** 18n, 0n),
    },
    { weight: 2, arbitrary: fc.bigInt(INT64_MIN, INT64_MAX) },
  )
}

export const idArbitrary = idArbitraryFrom(0n)
// The pool that probeArbitrary is building probes from. The arbitraries are all built eagerly (no
// fc.chain), so setting it for the length of one probeArbitrary call is enough.
let ids = idArbitrary

/**
 * The ids of idArbitrary that lie in [min, max], drawn without a filter: a document may bound an id so
 * that almost no int64 passes, and a filter would then spin without end.
 */
function idsBetween(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  if (min <= INT64_MIN && max >= INT64_MAX) return ids
  const clamp = (v: bigint) => (v < min ? min : v > max ? max : v)
  return fc.oneof(ids.map(clamp), fc.bigInt(min, max))
}

const specialStrings = fc.constantFrom('', ' ', '\u0000', 'e\u0301', '🌵', 'Ἀλόη', 'a"b\\c', '\u2028')

/** A string's length as JSON Schema counts it (maxLength): in code points, not UTF-16 units. */
export const codePoints = (text: string) => [...text].length

/**
 * Strings valid against a string schema: within its maxLength, the longest allowed among them; without
 * one, up to near the body limit, with room left for the rest of the body.
 */
function stringArbitrary(schema: JsonSchema = {}): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined
  const fits = (text: string) => max === undefined || codePoints(text) <= max
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: Math.min(20, max ?? 20) }) },
    // A grapheme may be several code points: those that take a string past maxLength are left out.
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(10, max ?? 10) }).filter(fits),
    },
    { weight: 2, arbitrary: specialStrings.filter(fits) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.min(max ?? 40_000, 40_000))) },
  )
}

function integerNode(schema: JsonSchema): fc.Arbitrary<JsonNode> {
  const int64 = schema.format === 'int64'
  const min = typeof schema.minimum === 'number' ? BigInt(schema.minimum) : int64 ? INT64_MIN : -(2n ** 31n)
  const max = typeof schema.maximum === 'number' ? BigInt(schema.maximum) : int64 ? INT64_MAX : 2n ** 31n - 1n
  const values = int64 ? idsBetween(min, max) : fc.bigInt(min, max)
  const form = fc.constantFrom<IntegerForm>(
    'plain',
    'plain',
    'plain',
    'exponent',
    'fraction',
    'negative zero',
  )
  return fc.tuple(values, form).map(([v, f]) => integer(v, f))
}

/** A JSON value valid against the schema (the subset of JSON Schema the document uses). */
export function validNode(schema: JsonSchema): fc.Arbitrary<JsonNode> {
  if (schema.allOf || schema.type === 'object' || schema.properties) return objectNode(schema)
  if (schema.type === 'integer') return integerNode(schema)
  if (schema.type === 'string') return stringArbitrary(schema).map(string)
  if (schema.type === 'boolean') return fc.boolean().map((v) => ({ kind: 'boolean', value: v }) as JsonNode)
  if (schema.type === 'number')
    return fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((v) => ({ kind: 'number', value: v }) as JsonNode)
  if (schema.type === 'array' && schema.items) {
    return fc
      .array(validNode(schema.items as JsonSchema), { maxLength: 3 })
      .map((items) => ({ kind: 'array', items }) as JsonNode)
  }
  return fc.constant<JsonNode>({ kind: 'null' })
}

// Unknown keys, those that reach a prototype in a careless parser among them. The document allows
// unknown keys (no additionalProperties): a server must ignore them.
const unknownKeys = fc.constantFrom('colour', '__proto__', 'constructor', 'prototype', 'id ', 'NAME')
const unknownValue: fc.Arbitrary<JsonNode> = fc.oneof(
  stringArbitrary().map(string),
  fc.constant<JsonNode>({ kind: 'object', entries: [] }),
  fc.constant<JsonNode>({
    kind: 'object',
    entries: [['prototype', { kind: 'object', entries: [['polluted', string('yes')]] }]],
  }),
  fc.constant<JsonNode>({ kind: 'object', entries: [['polluted', string('yes')]] }),
  // Deep nesting: a reader that recurses must not fall over.
  fc
    .constantFrom(64, 512)
    .map((depth): JsonNode => ({ kind: 'raw', text: `${'['.repeat(depth)}${']'.repeat(depth)}` })),
)

// Keys another body schema of the document names (a create's `id`, sent in a replace): a server must
// ignore them where this schema does not name them. Set, like `ids`, for one probeArbitrary call.
let namedElsewhere = new Map<string, JsonSchema>()

function objectNode(schema: JsonSchema): fc.Arbitrary<JsonNode> {
  const shape = flatten(schema)
  const others = [...namedElsewhere].filter(([name]) => !(name in shape.properties))
  const fields = Object.entries(shape.properties).map(([name, property]) => {
    const node = validNode(property).map((v): [string, JsonNode] => [name, v])
    return shape.required.includes(name) ? node : fc.option(node, { nil: undefined })
  })
  for (const [name, property] of others)
    fields.push(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: validNode(property).map((v): [string, JsonNode] => [name, v]) },
      ),
    )
  const extras = fc.array(fc.tuple(unknownKeys, unknownValue), { maxLength: 2 })
  return fc.tuple(fc.tuple(...fields), extras, fc.boolean()).map(([own, extra, duplicate]) => {
    const entries = own.filter((e): e is [string, JsonNode] => e !== undefined)
    const all: [string, JsonNode][] = [...extra, ...entries]
    // A duplicate key before the real one: JSON.parse, and so the server, keep the last.
    const first = entries[0]
    if (duplicate && first) all.unshift([first[0], string('an earlier duplicate')])
    return { kind: 'object', entries: all } as JsonNode
  })
}

/** What is notable about a valid body, for the deviation classes. */
export function bodyFeatures(node: JsonNode, top = true): Feature[] {
  const found = new Set<Feature>()
  const visit = (n: JsonNode, depth: number) => {
    if (n.kind === 'integer') {
      if (n.value > SAFE || n.value < -SAFE) found.add('id beyond 2^53')
      if (n.form === 'exponent' && n.value % 10n === 0n && n.value !== 0n) found.add('integer form: exponent')
      if (n.form === 'fraction') found.add('integer form: fraction')
      if (n.form === 'negative zero' && n.value === 0n) found.add('integer form: negative zero')
    } else if (n.kind === 'string') {
      if (n.value.includes('\u0000')) found.add('string: NUL')
      if (/[\u0300-\u036f]|[\ud800-\udbff]/.test(n.value)) found.add('string: astral or combining')
    } else if (n.kind === 'object') {
      const keys = n.entries.map(([k]) => k)
      if (depth === 0 && new Set(keys).size < keys.length) found.add('key: duplicate')
      for (const [key, item] of n.entries) {
        if (key === '__proto__') found.add('key: __proto__')
        if (key === 'constructor' || key === 'prototype') found.add('key: constructor')
        if (depth === 0 && !plantFieldNames.includes(key)) found.add('key: unknown')
        visit(item, depth + 1)
      }
    } else if (n.kind === 'array') for (const item of n.items) visit(item, depth + 1)
  }
  visit(node, top ? 0 : 1)
  return [...found]
}

// ---- Defects -------------------------------------------------------------------------------------

/** A body with one defect of the schema's own making, and its label. */
function defectiveBody(schema: JsonSchema): fc.Arbitrary<{ node: JsonNode; defect: Defect }> {
  const shape = flatten(schema)
  const valid = objectNode(schema)
  const options: fc.Arbitrary<{ node: JsonNode; defect: Defect }>[] = [
    validNode(schema).map((node) => ({
      node: { kind: 'array', items: [node] } as JsonNode,
      defect: 'body: not an object' as Defect,
    })),
    fc
      .constantFrom<JsonNode>(string('Basil'), { kind: 'null' }, integer(1n))
      .map((node) => ({ node, defect: 'body: not an object' as Defect })),
  ]
  for (const field of shape.required) {
    options.push(
      valid.map((node) => ({
        node: { kind: 'object', entries: entriesOf(node).filter(([k]) => k !== field) } as JsonNode,
        defect: 'body: required field missing' as Defect,
      })),
    )
  }
  for (const [field, property] of Object.entries(shape.properties)) {
    // A bound at or past the body limit cannot be reached: a longer string is a body too large.
    if (
      property.type === 'string' &&
      typeof property.maxLength === 'number' &&
      property.maxLength < BODY_LIMIT - 1024
    ) {
      // One character past the bound: the shortest string the bound refuses.
      const tooLong = 'x'.repeat(property.maxLength + 1)
      options.push(
        valid.map((node) => ({
          node: withField(node, field, string(tooLong)),
          defect: 'body: string too long' as Defect,
        })),
      )
    }
    if (property.type === 'string') {
      options.push(
        fc.tuple(valid, fc.constantFrom('\ud800', 'x\udc00y', '\udbff\udbff')).map(([node, text]) => ({
          node: withField(node, field, string(text)),
          defect: 'body: not Unicode text' as Defect,
        })),
      )
    }
    const wrong: fc.Arbitrary<JsonNode> =
      property.type === 'string'
        ? fc.constantFrom<JsonNode>(
            integer(7n),
            { kind: 'null' },
            { kind: 'boolean', value: true },
            { kind: 'array', items: [] },
          )
        : fc.constantFrom<JsonNode>(
            string('1'),
            { kind: 'null' },
            { kind: 'boolean', value: false },
            { kind: 'object', entries: [] },
          )
    options.push(
      fc
        .tuple(valid, wrong)
        .map(([node, bad]) => ({ node: withField(node, field, bad), defect: 'body: wrong type' as Defect })),
    )
    if (property.type === 'integer') {
      const range =
        property.format === 'int64'
          ? [INT64_MIN - 1n, INT64_MAX + 1n, 2n ** 64n]
          : [-(2n ** 31n) - 1n, 2n ** 31n]
      options.push(
        fc
          .tuple(valid, fc.constantFrom(...range), fc.constantFrom<IntegerForm>('plain', 'exponent'))
          .map(([node, v, form]) => ({
            node: withField(node, field, integer(v, form)),
            defect: 'body: integer out of range' as Defect,
          })),
        fc
          .tuple(valid, fc.constantFrom('1.5', '-0.5', '9223372036854775807.5', '1e-3', '4.5e-1'))
          .map(([node, text]) => ({
            node: withField(node, field, { kind: 'raw', text }),
            defect: 'body: not an integer' as Defect,
          })),
      )
    }
  }
  return fc.oneof(...options)
}

export function entriesOf(node: JsonNode): [string, JsonNode][] {
  return node.kind === 'object' ? node.entries : []
}

export function withField(node: JsonNode, field: string, replacement: JsonNode): JsonNode {
  const entries = entriesOf(node).filter(([k]) => k !== field)
  return { kind: 'object', entries: [...entries, [field, replacement]] }
}

// ---- Requests ------------------------------------------------------------------------------------

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

/** A probe before it is rendered by `toProbe`: its path values and query as parts. */
export interface Parts {
  defect: Defect | undefined
  features: Feature[]
  pathValues: Record<string, string>
  query: [string, string][]
  auth: Auth
  contentType?: string
  body?: string
  bodyValue?: unknown
  id?: bigint
}

const authDefects: fc.Arbitrary<{ auth: Auth; defect: Defect; queryToken?: boolean }> = fc.oneof(
  fc.constant({ auth: { kind: 'none' } as Auth, defect: 'auth: none' as Defect }),
  fc
    .constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'token-a', 'Bearer a b', 'Bearertoken')
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
export function probesOf(entry: OperationEntry, bodyLimit: number): fc.Arbitrary<Probe> {
  const pathParams = entry.parameters.filter((p) => p.in === 'path')
  const queryParams = entry.parameters.filter((p) => p.in === 'query')
  const media = entry.operation.requestBody?.content[JSON_TYPE]
  const bodySchema = media?.schema

  const validPath = fc.tuple(...pathParams.map((p) => ids.map((id) => [p, id] as const)))
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
  const validBody = bodySchema ? validNode(bodySchema).filter(underLimit) : fc.constant(undefined)

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
        query: queryToken ? [...parts.query, ['access_token', 'token-of-a-principal']] : parts.query,
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
          defectiveBody(bodySchema).filter(({ node }) => underLimit(node)),
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

export function toProbe(entry: OperationEntry, parts: Parts): Probe {
  let path = entry.path
  for (const [name, v] of Object.entries(parts.pathValues)) path = path.replace(`{${name}}`, v)
  // Values are escaped so that each reaches the server as written; a path value keeps its own escapes.
  const search = parts.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  const query: Record<string, string> = {}
  for (const [k, v] of parts.query) query[k] ??= v
  if (Object.values(parts.pathValues).some((v) => v.includes('%')))
    parts.features.push('path: percent-encoded')
  return {
    entry,
    defect: parts.defect,
    features: [...new Set(parts.features)],
    method: entry.method.toUpperCase(),
    path: search ? `${path}?${search}` : path,
    auth: parts.auth,
    ...(parts.contentType === undefined ? {} : { contentType: parts.contentType }),
    ...(parts.body === undefined ? {} : { body: parts.body }),
    ...(parts.bodyValue === undefined ? {} : { bodyValue: parts.bodyValue }),
    ...(parts.id === undefined ? {} : { id: parts.id }),
    query,
  }
}

/** A probe of any operation of the document. */
export function probeArbitrary(
  operations: OperationEntry[],
  bodyLimit: number,
  idBase = 0n,
): fc.Arbitrary<Probe> {
  ids = idArbitraryFrom(idBase)
  for (const entry of operations) {
    const body = entry.operation.requestBody?.content[JSON_TYPE]?.schema
    for (const [name, schema] of Object.entries(body ? flatten(body).properties : {}))
      if (!namedElsewhere.has(name)) namedElsewhere.set(name, schema)
  }
  try {
    return fc.oneof(...operations.map((entry) => probesOf(entry, bodyLimit)))
  } finally {
    ids = idArbitrary
    namedElsewhere = new Map()
  }
}

/** One line that says what a probe is, for reports and failure messages. */
export function describeProbe(probe: Probe): string {
  return describeRequest(requestOf(probe))
}

/** The request a probe sends, as the suite's HTTP helper takes it. */
export function requestOf(probe: Probe): RequestSpec {
  return {
    method: probe.method,
    path: probe.path,
    auth: probe.auth,
    ...(probe.contentType === undefined ? {} : { contentType: probe.contentType }),
    ...(probe.body === undefined ? {} : { body: probe.body }),
  }
}
