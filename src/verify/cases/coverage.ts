// The coverage phase, sent before the random requests (as Schemathesis runs its coverage phase before
// its random one) and the same on every run: for every operation of the document, each keyword of each
// parameter and body property at its boundaries as valid probes, and one invalid probe per keyword per
// field with exactly one defect (boundaries.ts gives a field's values); the body as a whole, content
// types and authentication. A bug that only one value shows (a number accepted as `name`, a `limit`
// of 101 let through) is then found on every run, not by chance. Everything is read from the
// document: the same operations, body limit and id base give the same probes.
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import { flatten, type OperationEntry } from '../document.js'
import type { Auth } from '../http.js'
import { baseQueryValue, fieldCases, longestQueryValue, queryCases } from './boundaries.js'
import { givenIds, givenValues } from './given-plants.js'
import { integer, type JsonNode, render, string, value } from './json-text.js'
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
} from './probe.js'
import { baseNode, boundLabel, integerBounds, mainType, num } from './schema-values.js'

/** The top-level `id` of a body node, when it is an int64 a correct reader takes as one. */
function bodyId(node: JsonNode | undefined): bigint | undefined {
  const id = node?.kind === 'object' ? node.entries.findLast(([k]) => k === 'id')?.[1] : undefined
  return id?.kind === 'integer' && id.value >= INT64_MIN && id.value <= INT64_MAX ? id.value : undefined
}

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

/** Numbers the fresh create ids, renders the body and builds the probe from its parts. */
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

/** A probe before its body is rendered and its create id numbered. */
export interface Draft {
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
export const FRESH = 2n ** 100n + 7n

export function operationDrafts(entry: OperationEntry, bodyLimit: number, ids: Ids): Draft[] {
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
