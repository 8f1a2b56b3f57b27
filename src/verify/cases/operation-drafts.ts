// The coverage cases of one operation: its base request, then each path parameter, query parameter
// (a filter asked for a held value and for near misses of it), body field, the body as a whole,
// content types and authentication at and past their bounds, as drafts the coverage phase numbers and
// makes probes of (coverage.ts).
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import { flatten, type JsonSchema, type OperationEntry } from '../document.js'
import type { Auth } from '../http.js'
import { baseQueryValue, fieldCases, longestQueryValue, queryCases } from './boundaries.js'
import { NEAR_MISSES, type NearMiss, nearMiss } from './filter-values.js'
import { heldValues } from './given-plants.js'
import { integer, type JsonNode, render, string } from './json-text.js'
import { type Defect, entriesOf, type Feature, JSON_TYPE, withField } from './probe.js'
import { PRINCIPAL_TOKEN } from './refused-tokens.js'
import { baseNode, boundLabel, integerBounds, mainType, num } from './schema-values.js'

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

export interface Ids {
  base: bigint
  itemIds: bigint[]
  present: bigint
  given: bigint[]
  /** Each key some body schema of the document names, with its schema. */
  named: Map<string, JsonSchema>
}

/** A string as JSON writes it, every character past ASCII escaped: two Unicode forms then look apart. */
const escaped = (text: string) =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

const NEAR_MISS_WORDS: Record<NearMiss, string> = {
  case: 'another letter case',
  spaces: 'surrounding spaces',
  prefix: 'a prefix',
  unicode: 'another Unicode form',
}

/**
 * Where a create's body takes a fresh id: a value no int64 field can hold, replaced by the next fresh
 * id when the probe is finished (in whatever form the case writes it).
 */
export const FRESH = 2n ** 100n + 7n

/** The node with every key and string in it written as escapes. */
function escapedAll(node: JsonNode): JsonNode {
  if (node.kind === 'string') return { ...node, escaped: 'all' }
  if (node.kind === 'array') return { kind: 'array', items: node.items.map(escapedAll) }
  if (node.kind !== 'object') return node
  const entries = node.entries.map(([key, item]): [string, JsonNode] => [key, escapedAll(item)])
  return { kind: 'object', entries, escapedKeys: 'all' }
}

/** Where the ids of the cases about reading a body start: past 2^53, far from every other case's. */
const WIDE_IDS = 9_000_000_000_000_000_000n

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
  for (const q of queryParams.filter((q) => mainType(q.schema ?? {}) === 'string')) {
    const held = heldValues(entry, q.name)
    for (const value of held)
      add({
        covers: `${q.name} ${value}, a page at a time (valid)`,
        query: [
          ...requiredQuery.filter(([k]) => k !== q.name && k !== pageSize?.name),
          [q.name, value],
          ...(pageSize ? [[pageSize.name, String(num(pageSize.schema?.minimum))] as [string, string]] : []),
        ],
      })
    // A filter keeps exactly the plants with the value asked for: a value that differs from a held one
    // as hand-written filters blur them (case, spaces, a prefix, the Unicode form) keeps none of them.
    for (const value of held)
      for (const form of NEAR_MISSES) {
        const near = nearMiss(value, form, num(q.schema?.maxLength))
        if (near === undefined || held.includes(near)) continue
        add({
          covers: `${q.name} ${escaped(near)}, ${NEAR_MISS_WORDS[form]} of the held ${escaped(value)} (valid)`,
          query: [...requiredQuery.filter(([k]) => k !== q.name), [q.name, near]],
          ...(/[\u0300-\u036f]|[\ud800-\udbff]/.test(near)
            ? { features: ['string: astral or combining'] as Feature[] }
            : {}),
        })
      }
  }
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
    // A name past U+FFFF, written as an escaped surrogate pair (Unicode text, not a lone surrogate).
    const pair: JsonNode = { kind: 'string', value: 'Basil \u{1f331}', escaped: 'past ASCII' }
    // Cut short after that pair (the name is the last field): a reader that looks for lone surrogates
    // must not look into what it could not parse.
    refused(
      'body: malformed JSON, after an escaped surrogate pair',
      'body: malformed JSON',
      { kind: 'raw', text: render(withField(bodyBase, 'name', pair)).slice(0, -2) },
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
    // A key another body schema names (a create's `id` in a replace) is ignored here: an int64 names a
    // plant the caller does not have, so that a store that follows it shows it.
    for (const [key, schema] of ids.named) {
      if (key in shape.properties) continue
      const miss = ids.itemIds.at(-1) ?? ids.base
      add({
        covers: `body: ${key}, a key another schema names (valid)`,
        node: withField(
          bodyBase,
          key,
          mainType(schema) === 'integer' && schema.format === 'int64' ? integer(miss) : baseNode(schema, key),
        ),
      })
    }
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
    if (takesFreshId) {
      // How a body is read (the document's Bodies): ids past 2^53 in other forms JSON allows, digit for
      // digit; the last of duplicate keys; a character past U+FFFF as an escaped surrogate pair, which is
      // Unicode text, beside a null. Each at an id of its own, past 2^53 and past every other case's.
      const wide = (n: bigint) => WIDE_IDS + ids.base + n
      // Its digits end in zeros, so that it is written with an exponent (`…e3`).
      const roundId = integer(WIDE_IDS + (ids.base + 1n) * 1000n, 'exponent')
      add({
        covers:
          'body: an id past 2^53 written …e3, a name with an escaped surrogate pair, a key with null (valid)',
        node: withField(withField(withField(bodyBase, 'id', roundId), 'name', pair), 'colour', {
          kind: 'null',
        }),
      })
      add({
        covers: 'body: an id past 2^53 written 0.…0e+…, name given twice (valid)',
        node: {
          kind: 'object',
          entries: [
            ['name', string('not the last name')],
            ...entriesOf(withField(bodyBase, 'id', integer(wide(2n), 'scaled'))),
          ],
        },
      })
      // Every key and string escaped, so that no letter of the text stands next to its `.` or `e`.
      add({
        covers: 'body: an id past 2^53 written ….…e4, every key and string escaped (valid)',
        node: escapedAll(withField(bodyBase, 'id', integer(wide(3n), 'split'))),
      })
      // 0.01, with more digits than the exponent takes back.
      add({
        covers: 'body: id 100e-4 (not an integer)',
        node: withField(bodyBase, 'id', { kind: 'raw', text: '100e-4' }),
        defect: 'body: not an integer',
      })
    }
    // Content types.
    refused('content type: none', 'content type: none', bodyBase)
    refused('content type: text/plain', 'content type: unsupported', bodyBase, 'text/plain')
    add({
      covers: 'content type: application/json; charset=utf-8 (valid)',
      contentType: 'application/json; charset=utf-8',
      features: ['content type: parameters or case'],
    })
    // The type's case is no more significant than its parameters (RFC 9110, section 8.3.1).
    add({
      covers: 'content type: Application/JSON (valid)',
      contentType: 'Application/JSON',
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
      auth: { kind: 'header', value: `Basic ${PRINCIPAL_TOKEN}` },
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
