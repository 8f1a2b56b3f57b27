// Deterministic coverage probes, sent before the random ones (as Schemathesis runs its coverage phase
// before its random one): for every operation of the document, each keyword of each parameter and
// body property at its boundaries as valid probes, and one invalid probe per keyword per field with
// exactly one defect. A bug that only one value shows (a number accepted as `name`, a `limit` of 101
// let through) is then found on every run, not by chance. Everything is read from the document: the
// same operations, body limit and id base give the same list.

import { HEADER_LIMIT, INT64_MAX, INT64_MIN } from '@plant-store/core'
import { flatten, type JsonSchema, type OperationEntry, type Parameter } from '../document.js'
import type { Auth } from '../http.js'
import {
  bodyFeatures,
  type Defect,
  entriesOf,
  type Feature,
  JSON_TYPE,
  type Parts,
  type Probe,
  SAFE,
  toProbe,
  withField,
} from './generated.js'
import { integer, type JsonNode, render, string, value } from './json-text.js'

const INT32_MIN = -(2n ** 31n)
const INT32_MAX = 2n ** 31n - 1n
/** One character outside the Basic Multilingual Plane: 1 code point, 2 UTF-16 units, 4 UTF-8 bytes. */
const ASTRAL = '🌵'
/** A string longer than this cannot be built in memory sensibly: its bound is no bound. */
const BUILDABLE = 2 ** 24

// ---- Reading schemas -----------------------------------------------------------------------------

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object'

/** The JSON types a schema allows (3.1 type arrays included); none when it says nothing. */
function typesOf(schema: JsonSchema): JsonType[] {
  const { type } = schema
  if (Array.isArray(type)) return type as JsonType[]
  if (typeof type === 'string') return [type as JsonType]
  if (schema.allOf || schema.properties) return ['object']
  return []
}

const mainType = (schema: JsonSchema): JsonType | undefined => typesOf(schema).find((t) => t !== 'null')

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** An integer schema's bounds, and whether the schema states them or only its format implies them. */
function integerBounds(schema: JsonSchema): {
  min: bigint
  max: bigint
  minStated: boolean
  maxStated: boolean
} {
  const int64 = schema.format === 'int64'
  const minimum = num(schema.minimum)
  const exclusiveMinimum = num(schema.exclusiveMinimum)
  const maximum = num(schema.maximum)
  const exclusiveMaximum = num(schema.exclusiveMaximum)
  const min =
    minimum !== undefined
      ? BigInt(Math.ceil(minimum))
      : exclusiveMinimum !== undefined
        ? BigInt(Math.floor(exclusiveMinimum)) + 1n
        : undefined
  const max =
    maximum !== undefined
      ? BigInt(Math.floor(maximum))
      : exclusiveMaximum !== undefined
        ? BigInt(Math.ceil(exclusiveMaximum)) - 1n
        : undefined
  return {
    min: min ?? (int64 ? INT64_MIN : INT32_MIN),
    max: max ?? (int64 ? INT64_MAX : INT32_MAX),
    minStated: min !== undefined,
    maxStated: max !== undefined,
  }
}

/** How a bound is named in a label: `minimum 1`, or `minimum int64 -9223372036854775808`. */
const boundLabel = (keyword: string, stated: boolean, schema: JsonSchema, v: bigint) =>
  `${keyword}${stated ? '' : ` ${schema.format === 'int64' ? 'int64' : 'int32'}`} ${v}`

const clamp = (v: bigint, min: bigint, max: bigint) => (v < min ? min : v > max ? max : v)

/** The values an enum or const allows, when the schema lists them. */
function listed(schema: JsonSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

/** A JSON value as a node; integers as bigint so that no digit is lost. */
function nodeOf(v: unknown): JsonNode {
  if (v === null || v === undefined) return { kind: 'null' }
  if (typeof v === 'bigint') return integer(v)
  if (typeof v === 'number') return Number.isInteger(v) ? integer(BigInt(v)) : { kind: 'number', value: v }
  if (typeof v === 'string') return string(v)
  if (typeof v === 'boolean') return { kind: 'boolean', value: v }
  if (Array.isArray(v)) return { kind: 'array', items: v.map(nodeOf) }
  return {
    kind: 'object',
    entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, nodeOf(x)]),
  }
}

/** A string of `length` code points that fits the schema: the field's own name, cut or padded. */
function plainString(name: string, schema: JsonSchema): string {
  const min = num(schema.minLength) ?? 0
  const max = num(schema.maxLength) ?? Number.POSITIVE_INFINITY
  const text = name.length >= min ? name : name + 'x'.repeat(min - name.length)
  return [...text].slice(0, Math.max(0, Math.min(max, text.length))).join('')
}

/** An ordinary valid value of a schema: required properties only, integers near 1, strings short. */
function baseNode(schema: JsonSchema, name: string): JsonNode {
  const values = listed(schema)
  if (values?.length) return nodeOf(values[0])
  switch (mainType(schema)) {
    case 'object': {
      const shape = flatten(schema)
      return {
        kind: 'object',
        entries: shape.required
          .filter((field) => shape.properties[field] !== undefined)
          .map((field) => [field, baseNode(shape.properties[field] as JsonSchema, field)]),
      }
    }
    case 'integer': {
      const { min, max } = integerBounds(schema)
      return integer(clamp(1n, min, max))
    }
    case 'number':
      return { kind: 'number', value: num(schema.minimum) ?? 1.5 }
    case 'string':
      return string(plainString(name, schema))
    case 'boolean':
      return { kind: 'boolean', value: true }
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {}
      const count = num(schema.minItems) ?? 0
      return { kind: 'array', items: Array.from({ length: count }, () => baseNode(items, name)) }
    }
    default:
      return { kind: 'null' }
  }
}

/** Values of the wrong JSON type for a schema: one of each type it does not allow. */
function wrongTypes(schema: JsonSchema): [string, JsonNode][] {
  const allowed = typesOf(schema)
  const candidates: [JsonType, JsonNode][] = [
    ['string', string('1')],
    ['number', integer(7n)],
    ['boolean', { kind: 'boolean', value: true }],
    ['null', { kind: 'null' }],
    ['array', { kind: 'array', items: [] }],
    ['object', { kind: 'object', entries: [] }],
  ]
  // An integer is a number: a field that takes numbers takes 7.
  const takes = (t: JsonType) => allowed.includes(t) || (t === 'number' && allowed.includes('integer'))
  return candidates.filter(([t]) => !takes(t))
}

// ---- The plants the verifier's state holds -------------------------------------------------------

/** The ids of the plants the document's examples assume (`x-given-plants`), in ascending order. */
function givenIds(operations: OperationEntry[]): bigint[] {
  const found = new Set<bigint>()
  const seen = new WeakSet<object>()
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    for (const [key, item] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(item)) {
        for (const plant of item as { id?: unknown }[])
          if (typeof plant?.id === 'number' || typeof plant?.id === 'bigint') found.add(BigInt(plant.id))
      } else visit(item)
    }
  }
  for (const entry of operations) visit(entry.operation)
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The values the given plants of an operation's examples hold in a property, in order of first use. */
function givenValues(entry: OperationEntry, property: string): string[] {
  const values = new Set<string>()
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) return node.forEach(visit)
    for (const [key, item] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(item)) {
        for (const plant of item as Record<string, unknown>[])
          if (typeof plant?.[property] === 'string') values.add(plant[property] as string)
      } else visit(item)
    }
  }
  visit(entry.operation)
  return [...values]
}

// ---- Drafts --------------------------------------------------------------------------------------

/** A probe before its body is rendered and its create id numbered. */
interface Draft {
  covers: string
  defect?: Defect
  features?: Feature[]
  pathValues: Record<string, string>
  /** The int64 the path names, when its value is one. */
  pathId?: bigint
  query: [string, string][]
  auth: Auth
  node?: JsonNode
  contentType?: string
  /** Whether a correct reader makes a plant of the body (bodyValue): a valid body, sent as JSON. */
  readable?: boolean
}

/** A field of a body, as the path of keys that leads to it. */
type FieldPath = string[]

/** The node with the field at `path` replaced, or removed when `replacement` is undefined. */
function atPath(node: JsonNode, path: FieldPath, replacement: JsonNode | undefined): JsonNode {
  const [head, ...rest] = path
  if (head === undefined) return replacement ?? node
  if (rest.length === 0) {
    if (replacement !== undefined) return withField(node, head, replacement)
    return { kind: 'object', entries: entriesOf(node).filter(([k]) => k !== head) }
  }
  const child = entriesOf(node).find(([k]) => k === head)?.[1] ?? { kind: 'object', entries: [] }
  return withField(node, head, atPath(child, rest, replacement))
}

/** The top-level `id` of a body node, when it is an int64 a correct reader takes as one. */
function bodyId(node: JsonNode | undefined): bigint | undefined {
  const id = node?.kind === 'object' ? node.entries.findLast(([k]) => k === 'id')?.[1] : undefined
  return id?.kind === 'integer' && id.value >= INT64_MIN && id.value <= INT64_MAX ? id.value : undefined
}

// ---- Cases per location --------------------------------------------------------------------------

interface Case {
  covers: string
  node: JsonNode
  defect?: Defect
  features?: Feature[]
}

/**
 * The cases of one body field: valid values at each keyword's boundaries, then one invalid value per
 * keyword. `base` is the whole valid body the field's value goes into.
 */
function fieldCases(
  base: JsonNode,
  path: FieldPath,
  schema: JsonSchema,
  required: boolean,
  bodyLimit: number,
): Case[] {
  const label = path.join('.')
  const out: Case[] = []
  const put = (covers: string, replacement: JsonNode, defect?: Defect) =>
    out.push({ covers, node: atPath(base, path, replacement), ...(defect ? { defect } : {}) })

  if (required)
    out.push({
      covers: `${label} missing (required)`,
      node: atPath(base, path, undefined),
      defect: 'body: required field missing',
    })
  else {
    out.push({ covers: `${label} absent (valid)`, node: atPath(base, path, undefined) })
    put(`${label} present (valid)`, baseNode(schema, path.at(-1) ?? label))
  }

  const values = listed(schema)
  if (values?.length) {
    for (const v of values)
      put(`${label} ${'const' in schema ? 'const' : 'enum'} ${JSON.stringify(v)} (valid)`, nodeOf(v))
    const outside = typeof values[0] === 'string' ? 'not-listed' : 987654321
    if (!values.includes(outside)) put(`${label} not in enum`, nodeOf(outside), 'body: not in enum')
  } else {
    const type = mainType(schema)
    if (type === 'string') {
      const min = num(schema.minLength)
      const max = num(schema.maxLength)
      put(min ? `${label} minLength ${min} (valid)` : `${label} empty (valid)`, string('x'.repeat(min ?? 0)))
      if (min) put(`${label} minLength-1`, string('x'.repeat(min - 1)), 'body: string too short')
      if (max !== undefined && max <= BUILDABLE) {
        // The bounds are the document's: a boundary body past the body limit is still sent, so that
        // the oracle reports the inconsistency.
        put(`${label} maxLength ${max} (valid)`, string('x'.repeat(max)))
        // maxLength counts code points, as JSON Schema does: a reader that counts UTF-16 units refuses it.
        out.push({
          covers: `${label} maxLength ${max} astral (valid)`,
          node: atPath(base, path, string(ASTRAL.repeat(max))),
        })
        const tooLong = atPath(base, path, string('x'.repeat(max + 1)))
        // One character past a bound at the body limit makes a body too large: that is its status.
        const large = Buffer.byteLength(render(tooLong)) > bodyLimit
        out.push({
          covers: `${label} maxLength+1${large ? ' (body too large)' : ''}`,
          node: tooLong,
          defect: large ? 'body: too large' : 'body: string too long',
        })
      }
      put(`${label} not Unicode text (lone surrogate)`, string('\ud800'), 'body: not Unicode text')
    } else if (type === 'integer') {
      const bounds = integerBounds(schema)
      put(
        `${label} ${boundLabel('minimum', bounds.minStated, schema, bounds.min)} (valid)`,
        integer(bounds.min),
      )
      put(
        `${label} ${boundLabel('maximum', bounds.maxStated, schema, bounds.max)} (valid)`,
        integer(bounds.max),
      )
      put(`${label} minimum-1`, integer(bounds.min - 1n), 'body: integer out of range')
      put(`${label} maximum+1`, integer(bounds.max + 1n), 'body: integer out of range')
      put(`${label} not an integer (1.5)`, { kind: 'raw', text: '1.5' }, 'body: not an integer')
      // The same integer in the other forms JSON allows.
      const current = entriesAt(base, path)
      const plain = current?.kind === 'integer' ? current.value : clamp(1n, bounds.min, bounds.max)
      put(`${label} written with a fraction (valid)`, integer(plain, 'fraction'))
      const tens = largestPowerOfTen(bounds.min, bounds.max)
      if (tens !== undefined) put(`${label} written with an exponent (valid)`, integer(tens, 'exponent'))
    } else if (type === 'object') {
      const shape = flatten(schema)
      const inner = entriesAt(base, path) ?? baseNode(schema, label)
      const whole = atPath(base, path, inner)
      for (const [name, property] of Object.entries(shape.properties))
        out.push(...fieldCases(whole, [...path, name], property, shape.required.includes(name), bodyLimit))
    }
  }
  for (const [type, wrong] of wrongTypes(schema)) put(`${label} type: ${type}`, wrong, 'body: wrong type')
  return out
}

function entriesAt(node: JsonNode, path: FieldPath): JsonNode | undefined {
  let here: JsonNode | undefined = node
  for (const key of path) here = here ? entriesOf(here).findLast(([k]) => k === key)?.[1] : undefined
  return here
}

/** The largest power of ten (10 at least) in [min, max]: an integer `1e<n>` can write. */
function largestPowerOfTen(min: bigint, max: bigint): bigint | undefined {
  let tens = 10n
  if (tens > max) return undefined
  while (tens * 10n <= max) tens *= 10n
  return tens >= min ? tens : undefined
}

/** The cases of one query parameter: each as the value or values it sends, and what it covers. */
interface QueryCase {
  covers: string
  values: string[] | undefined
  defect?: Defect
  features?: Feature[]
}

function queryCases(p: Parameter): QueryCase[] {
  const schema = p.schema ?? {}
  const out: QueryCase[] = []
  const name = p.name
  if (p.required)
    out.push({
      covers: `${name} missing (required)`,
      values: undefined,
      defect: 'query: required parameter missing',
    })
  const values = listed(schema)
  if (values?.length) {
    for (const v of values)
      out.push({ covers: `${name} enum ${JSON.stringify(v)} (valid)`, values: [String(v)] })
    if (!values.map(String).includes('not-listed'))
      out.push({ covers: `${name} not in enum`, values: ['not-listed'], defect: 'query: not in enum' })
    return out
  }
  const type = mainType(schema)
  if (type === 'integer') {
    const b = integerBounds(schema)
    out.push(
      {
        covers: `${name} ${boundLabel('minimum', b.minStated, schema, b.min)} (valid)`,
        values: [String(b.min)],
      },
      {
        covers: `${name} ${boundLabel('maximum', b.maxStated, schema, b.max)} (valid)`,
        values: [String(b.max)],
      },
      { covers: `${name} minimum-1`, values: [String(b.min - 1n)], defect: 'query: out of range' },
      { covers: `${name} maximum+1`, values: [String(b.max + 1n)], defect: 'query: out of range' },
      { covers: `${name} not an integer (1.5)`, values: ['1.5'], defect: 'query: not an integer' },
      { covers: `${name} type: string`, values: ['ten'], defect: 'query: not an integer' },
      // Two valid values: the repetition is the one defect.
      { covers: `${name} repeated`, values: [String(b.min), String(b.max)], defect: 'query: repeated' },
    )
  } else if (type === 'string') {
    const min = num(schema.minLength)
    const max = num(schema.maxLength)
    // A cursor is the server's to make: no value a client makes up is valid, whatever its length.
    const opaque = name === 'cursor'
    if (opaque)
      out.push({
        covers: `${name} not made by the server`,
        values: ['not-a-cursor'],
        defect: 'query: unknown cursor',
      })
    else {
      out.push({
        covers: min ? `${name} minLength ${min} (valid)` : `${name} empty (valid)`,
        values: ['x'.repeat(min ?? 0)],
        ...(min ? {} : { features: ['query: empty value'] as Feature[] }),
      })
      if (max !== undefined && max <= BUILDABLE)
        out.push(
          { covers: `${name} maxLength ${max} (valid)`, values: ['x'.repeat(max)] },
          {
            covers: `${name} maxLength ${max} astral (valid)`,
            values: [ASTRAL.repeat(max)],
            features: ['string: astral or combining'],
          },
        )
    }
    if (min)
      out.push({
        covers: `${name} minLength-1`,
        values: ['x'.repeat(min - 1)],
        defect: 'query: string too short',
      })
    // A bound at or past the request line's limit cannot be passed: a longer query is a 431, which no
    // defect names (as generated.ts does).
    if (max !== undefined && max + 1 < HEADER_LIMIT - 1024)
      out.push({
        covers: `${name} maxLength+1`,
        values: ['x'.repeat(max + 1)],
        defect: 'query: string too long',
      })
  }
  return out
}

/** The longest valid value of a query parameter, when it has one. */
function longestQueryValue(p: Parameter): string | undefined {
  const schema = p.schema ?? {}
  if (p.name === 'cursor') return undefined
  const values = listed(schema)
  if (values?.length) return values.map(String).sort((a, b) => b.length - a.length)[0]
  const type = mainType(schema)
  if (type === 'integer') {
    const b = integerBounds(schema)
    return String(b.max)
  }
  const max = num(schema.maxLength)
  return type === 'string' && max !== undefined && max <= BUILDABLE ? 'x'.repeat(max) : undefined
}

/** A valid value of a query parameter, for probes about something else (only required ones get one). */
function baseQueryValue(p: Parameter): string {
  const node = baseNode(p.schema ?? {}, p.name)
  return node.kind === 'string' ? node.value : node.kind === 'integer' ? String(node.value) : render(node)
}

// ---- Operations ----------------------------------------------------------------------------------

/**
 * The deterministic coverage probes of every operation: boundary values of each keyword of each
 * parameter and body property as valid probes, and one invalid probe per keyword per field, each with
 * exactly one defect; content types and the three ways to fail authentication once per operation.
 * Item probes name ids around `idBase`: the plants the document's examples assume (`x-given-plants`,
 * kept by the verifier at idBase + their id) and ids just past them, so that some hit and some miss;
 * a create names ids past those (idBase + 100 + n), but for one that collides with a given plant.
 */
export function coverageProbes(operations: OperationEntry[], bodyLimit: number, idBase: bigint): Probe[] {
  const given = givenIds(operations).map((id) => idBase + id)
  const last = given.at(-1) ?? idBase
  const misses = [last + 1n, last + 6n]
  const itemIds = [...given.slice(0, 3), ...misses]
  const present = given[0] ?? misses[0] ?? idBase + 1n
  // The ids a create gets, one each, well past the given plants and the misses.
  let nextFresh = (last - idBase < 100n ? idBase : last) + 100n

  const probes: Probe[] = []
  for (const entry of operations) {
    const drafts = operationDrafts(entry, bodyLimit, { base: idBase, itemIds, present, given })
    for (const draft of drafts) probes.push(finish(entry, draft, () => nextFresh++))
  }
  return probes
}

interface Ids {
  base: bigint
  itemIds: bigint[]
  present: bigint
  given: bigint[]
}

/**
 * Where a create's body takes a fresh id: a value no int64 field can hold, replaced by the next fresh
 * id when the probe is finished (in whatever form the case writes it).
 */
const FRESH = 2n ** 100n + 7n

function operationDrafts(entry: OperationEntry, bodyLimit: number, ids: Ids): Draft[] {
  const pathParams = entry.parameters.filter((p) => p.in === 'path')
  const queryParams = entry.parameters.filter((p) => p.in === 'query')
  const bodySchema = entry.operation.requestBody?.content[JSON_TYPE]?.schema
  const drafts: Draft[] = []

  // The base: every path parameter at a plant the state holds, required query parameters at an
  // ordinary value, the principal's token, an ordinary body with a fresh id.
  const pathValues: Record<string, string> = {}
  let pathId: bigint | undefined
  for (const p of pathParams) {
    if (mainType(p.schema ?? {}) === 'integer') {
      pathValues[p.name] = String(ids.present)
      if (p.schema?.format === 'int64') pathId = ids.present
    } else pathValues[p.name] = encodeURIComponent(baseQueryValue(p))
  }
  const requiredQuery: [string, string][] = queryParams
    .filter((p) => p.required)
    .map((p) => [p.name, baseQueryValue(p)])
  let bodyBase: JsonNode | undefined
  let takesFreshId = false
  if (bodySchema) {
    const shape = flatten(bodySchema)
    bodyBase = baseNode(bodySchema, 'body')
    const idSchema = shape.properties.id
    // The plant's id a body names: fresh for each probe, so that a valid create succeeds.
    if (idSchema && mainType(idSchema) === 'integer' && pathParams.length === 0) {
      bodyBase = withField(bodyBase, 'id', integer(FRESH))
      takesFreshId = true
    }
  }
  const base: Draft = {
    covers: '',
    pathValues,
    ...(pathId === undefined ? {} : { pathId }),
    query: requiredQuery,
    auth: { kind: 'principal' },
    ...(bodyBase ? { node: bodyBase, contentType: JSON_TYPE, readable: true } : {}),
  }
  const add = (draft: Partial<Draft> & { covers: string }) => drafts.push({ ...base, ...draft })

  // Valid: the base, once per id for an item (given plants and ids just past them).
  const idParam = pathParams.find((p) => p.schema?.format === 'int64')
  if (idParam) {
    for (const id of ids.itemIds)
      add({
        covers: `${idParam.name} idBase+${id - ids.base} (${ids.given.includes(id) ? 'a given plant' : 'no plant'}, valid)`,
        pathValues: { ...pathValues, [idParam.name]: String(id) },
        pathId: id,
      })
  } else add({ covers: 'an ordinary request (valid)' })
  if (bodyBase && takesFreshId && ids.given[0] !== undefined) {
    // A create that names a plant the state holds: 409.
    add({
      covers: `id idBase+${ids.given[0] - ids.base} (a given plant: 409)`,
      node: withField(bodyBase, 'id', integer(ids.given[0])),
    })
  }

  // Path parameters.
  for (const p of pathParams) {
    const schema = p.schema ?? {}
    if (mainType(schema) !== 'integer') continue
    const b = integerBounds(schema)
    const int64 = schema.format === 'int64'
    const at = (v: bigint, covers: string) =>
      add({
        covers,
        pathValues: { ...pathValues, [p.name]: String(v) },
        ...(int64 ? { pathId: v } : {}),
      })
    at(b.min, `${p.name} ${boundLabel('minimum', b.minStated, schema, b.min)} (valid)`)
    at(b.max, `${p.name} ${boundLabel('maximum', b.maxStated, schema, b.max)} (valid)`)
    const bad = (text: string, covers: string, defect: Defect = 'path: not an int64') => {
      const { pathId: _named, ...rest } = base
      drafts.push({ ...rest, covers, pathValues: { ...pathValues, [p.name]: text }, defect })
    }
    const pastEdge = (v: bigint, stated: boolean): Defect =>
      stated && v >= INT64_MIN && v <= INT64_MAX ? 'path: out of range' : 'path: not an int64'
    bad(String(b.min - 1n), `${p.name} minimum-1 (${b.min - 1n})`, pastEdge(b.min - 1n, b.minStated))
    bad(String(b.max + 1n), `${p.name} maximum+1 (${b.max + 1n})`, pastEdge(b.max + 1n, b.maxStated))
    bad('abc', `${p.name} type: string (abc)`)
    bad('1.0', `${p.name} not an integer (1.0)`)
    bad('007', `${p.name} leading zeros (007)`)
    bad('+1', `${p.name} plus sign (+1)`)
  }

  // Query parameters: each at its boundaries, the others at their base.
  for (const p of queryParams) {
    const others = requiredQuery.filter(([k]) => k !== p.name)
    for (const c of queryCases(p))
      add({
        covers: c.covers,
        query: [...others, ...(c.values ?? []).map((v): [string, string] => [p.name, v])],
        ...(c.defect ? { defect: c.defect } : {}),
        ...(c.features ? { features: c.features } : {}),
      })
  }
  const longest = queryParams
    .map((p) => [p.name, longestQueryValue(p)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined)
  if (longest.length)
    add({
      covers: `longest query (${longest.map(([k, v]) => `${k} ${v.length > 8 ? `${v.length} characters` : v}`).join(', ')}) (valid)`,
      query: [
        ...requiredQuery.filter(([k]) => !longest.some(([l]) => l === k)),
        ...longest.map(([k, v]): [string, string] => [k, v]),
      ],
    })
  // A filtered listing that spans pages, for each filter value the caller's plants hold: its Link must
  // keep the filter to the end (the generated layer follows every Link).
  const pageSize = queryParams.find(
    (q) => mainType(q.schema ?? {}) === 'integer' && num(q.schema?.minimum) !== undefined,
  )
  for (const q of queryParams.filter((q) => mainType(q.schema ?? {}) === 'string'))
    for (const value of givenValues(entry, q.name))
      add({
        covers: `${q.name} ${value}, a page at a time (valid)`,
        query: [
          ...requiredQuery.filter(([k]) => k !== q.name && k !== pageSize?.name),
          [q.name, value],
          ...(pageSize ? [[pageSize.name, String(num(pageSize.schema?.minimum))] as [string, string]] : []),
        ],
      })
  // The document's servers ignore a query parameter it does not name.
  add({
    covers: 'unknown query parameter (valid)',
    query: [...requiredQuery, ['colour', 'green']],
    features: ['query: unknown parameter'],
  })

  // The body: each property at its boundaries and past them, then the body as a whole.
  if (bodySchema && bodyBase) {
    const shape = flatten(bodySchema)
    for (const [name, property] of Object.entries(shape.properties)) {
      for (const c of fieldCases(bodyBase, [name], property, shape.required.includes(name), bodyLimit))
        add({
          covers: c.covers,
          node: c.node,
          ...(c.defect ? { defect: c.defect, readable: false } : {}),
          ...(c.features ? { features: c.features } : {}),
        })
    }
    const refused = (covers: string, defect: Defect, node: JsonNode | undefined, contentType?: string) => {
      const { node: _node, contentType: _type, ...rest } = base
      drafts.push({
        ...rest,
        covers,
        defect,
        readable: false,
        ...(node ? { node } : {}),
        ...(contentType ? { contentType } : {}),
      })
    }
    refused(
      'body: not an object (an array)',
      'body: not an object',
      { kind: 'array', items: [bodyBase] },
      JSON_TYPE,
    )
    refused(
      'body: malformed JSON',
      'body: malformed JSON',
      { kind: 'raw', text: render(bodyBase).slice(0, -1) },
      JSON_TYPE,
    )
    refused('body: empty', 'body: empty', { kind: 'raw', text: '' }, JSON_TYPE)
    refused('body: none', 'body: none', undefined)
    refused(
      `body: over the limit (${bodyLimit} bytes)`,
      'body: too large',
      withField(bodyBase, 'padding', string('x'.repeat(bodyLimit))),
      JSON_TYPE,
    )
    add({ covers: 'body: an unknown key (valid)', node: withField(bodyBase, 'colour', string('green')) })
    add({
      covers: 'body: a __proto__ key (valid)',
      node: {
        kind: 'object',
        entries: [
          ['__proto__', { kind: 'object', entries: [['polluted', string('yes')]] }],
          ...entriesOf(bodyBase),
        ],
      },
    })
    // Content types.
    refused('content type: none', 'content type: none', bodyBase)
    refused('content type: text/plain', 'content type: unsupported', bodyBase, 'text/plain')
    add({
      covers: 'content type: application/json; charset=utf-8 (valid)',
      contentType: 'application/json; charset=utf-8',
      features: ['content type: parameters or case'],
    })
  } else if (entry.method !== 'get') {
    // A body sent along to an operation that takes none is ignored (the document's convention).
    add({
      covers: 'a body the operation does not take (valid)',
      node: { kind: 'object', entries: [['name', string('ignored')]] },
      contentType: JSON_TYPE,
      readable: false,
      features: ['body on an operation without one'],
    })
  }

  // Authentication, once each per secured operation.
  if (entry.secured) {
    add({ covers: 'auth: no token', auth: { kind: 'none' }, defect: 'auth: none' })
    add({
      covers: 'auth: malformed (Basic)',
      auth: { kind: 'header', value: 'Basic dXNlcjpwYXNz' },
      defect: 'auth: malformed',
    })
    add({
      covers: 'auth: a token no principal holds',
      auth: { kind: 'unknown' },
      defect: 'auth: unknown token',
    })
  }
  return drafts
}

/** Numbers the fresh create ids, renders the body and builds the probe as generated.ts does. */
function finish(entry: OperationEntry, draft: Draft, nextId: () => bigint): Probe {
  let id: bigint | undefined
  const renumber = (n: JsonNode): JsonNode => {
    if (n.kind === 'integer' && n.value === FRESH) {
      id ??= nextId()
      return { ...n, value: id }
    }
    if (n.kind === 'object') return { kind: 'object', entries: n.entries.map(([k, v]) => [k, renumber(v)]) }
    if (n.kind === 'array') return { kind: 'array', items: n.items.map(renumber) }
    if (n.kind === 'raw' && n.text.includes(String(FRESH))) {
      id ??= nextId()
      return { kind: 'raw', text: n.text.replaceAll(String(FRESH), String(id)) }
    }
    return n
  }
  const node = draft.node && renumber(draft.node)
  const features: Feature[] = [...(draft.features ?? [])]
  const readable =
    node !== undefined && draft.readable === true && !/^(body|content type):/.test(draft.defect ?? '')
  const named = draft.pathId ?? bodyId(node)
  if (draft.pathId !== undefined && (draft.pathId > SAFE || draft.pathId < -SAFE))
    features.push('id beyond 2^53')
  if (node && readable) features.push(...bodyFeatures(node))
  if (draft.query.some(([, v]) => v === '') && !features.includes('query: empty value'))
    features.push('query: empty value')
  const parts: Parts = {
    defect: draft.defect,
    features,
    pathValues: draft.pathValues,
    query: draft.query,
    auth: draft.auth,
    ...(draft.contentType === undefined ? {} : { contentType: draft.contentType }),
    ...(node === undefined ? {} : { body: render(node) }),
    ...(node && readable ? { bodyValue: value(node) } : {}),
    ...(named === undefined ? {} : { id: named }),
  }
  return { ...toProbe(entry, parts), covers: draft.covers }
}
