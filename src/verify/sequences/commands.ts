// The sequence model: the commands of the stateful sequences, derived from the document's links, which
// fast-check's model-based testing (fc.commands, fc.asyncModelRun; run.ts) runs against a target and
// the model of store-model.ts.
//
// What the document says, and so what is explored:
// - the create operation is the one whose 2xx response has `links`;
// - each link names an operation (operationId or operationRef) and fills its parameters from the
//   create request (`$request.body#/<pointer>`); all links read the same pointer, the plant's key;
// - the list operation is the GET on the create operation's path, walked page by page through Link.
// Request bodies are generated from the operations' schemas. An operation added later with a link
// from the create is explored with no new code here, as long as the model knows its method.

import { INT64_MAX, INT64_MIN, nextAddress } from '@plant-store/core'
import fc from 'fast-check'
import type { CheckName, Finding } from '../checks.js'
import { flatten, type JsonSchema, type OperationEntry, type Parameter } from '../document.js'
import { canonical, jsonText, parseExact } from '../exact-json.js'
import type { Answer, RequestSpec } from '../http.js'
import { judgeAnswer } from '../judge/answer.js'
import { linkLeaves, resolveLink, shownAddress } from '../judge/listing.js'
import { answerOptions, EXACT, type Judging, plantProblem } from '../judge/plant.js'
import {
  type Expected,
  expectCreate,
  expectLinked,
  expectList,
  keyText,
  ownerHint,
  type Plant,
  type PrincipalModel,
  type StoreModel,
  TAKEN,
} from './store-model.js'

export { canonical, jsonText, parseExact } from '../exact-json.js'

// ---- Schemas -------------------------------------------------------------------------------------

/** The fields a response shows of a plant: the properties of its (item) schema. */
export function fieldsOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return []
  const flat = flatten(schema)
  if (flat.type === 'array') return fieldsOf(flat.schema.items as JsonSchema | undefined)
  return Object.keys(flat.properties)
}

export function project(plant: Plant, fields: string[]): Plant {
  const shown: Plant = {}
  for (const field of fields) if (plant[field] !== undefined) shown[field] = plant[field]
  return shown
}

const WORDS = ['Basil', 'Fern', 'Mint', 'Thai basil', 'Oak', 'herb', 'tree', '']

/** Values of a schema, with the arbitraries in `overrides` (by JSON pointer) standing in for parts of it. */
export function valueArbitrary(
  schema: JsonSchema,
  overrides: Map<string, fc.Arbitrary<unknown>> = new Map(),
  pointer = '',
): fc.Arbitrary<unknown> {
  const override = overrides.get(pointer)
  if (override) return override
  const flat = flatten(schema)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  if ('const' in schema) return fc.constant(schema.const)
  switch (flat.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [name, property] of Object.entries(flat.properties))
        model[name] = valueArbitrary(property, overrides, `${pointer}/${escapePointer(name)}`)
      const required = flat.required.filter((name) => name in model)
      for (const name of Object.keys(model))
        if (overrides.has(`${pointer}/${escapePointer(name)}`) && !required.includes(name))
          required.push(name)
      return fc.record(model, { requiredKeys: required })
    }
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0
      const max = (schema.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY
      // No filter: for bounds that no word and no short string meets, a filter would never end. A
      // bounded string is ASCII, so that the length drawn is the length JSON Schema counts.
      const text =
        min === 0 && max === Number.POSITIVE_INFINITY
          ? fc.string({ unit: 'grapheme', maxLength: 12 })
          : fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, min + 12) })
      const words = WORDS.filter((w) => w.length >= min && w.length <= max)
      if (words.length === 0) return text
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...words) }, { weight: 1, arbitrary: text })
    }
    case 'integer':
      return integerArbitrary(flat.format, schema)
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(
        valueArbitrary((schema.items as JsonSchema | undefined) ?? {}, overrides, `${pointer}/0`),
        {
          maxLength: 3,
        },
      )
    default:
      throw new Error(`no generator for the schema at ${pointer || '/'}: ${JSON.stringify(schema)}`)
  }
}

function integerArbitrary(format: string | undefined, schema: JsonSchema): fc.Arbitrary<unknown> {
  const min = schema.minimum as number | undefined
  const max = schema.maximum as number | undefined
  if (format === 'int64')
    return fc.bigInt(min === undefined ? INT64_MIN : BigInt(min), max === undefined ? INT64_MAX : BigInt(max))
  return fc.integer({ min: min ?? -(2 ** 31), max: max ?? 2 ** 31 - 1 })
}

/**
 * Keys: mostly from a small pool, so that creates collide, reads miss and both principals share ids;
 * sometimes the edges of the type (±(2^63−1), −2^63, ±(2^53+1), where a double would lose digits);
 * sometimes any value of the type.
 */
export const KEY_POOL = { min: -3n, max: 10n }
/** Part of the pool drawn more often, so that creates collide (the sandbox's seed ids among them). */
const HOT_KEYS = { min: 0n, max: 3n }
const INT64_EDGES = [INT64_MAX, -INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n + 1n)]

export function keyArbitrary(schema: JsonSchema, base = 0n): fc.Arbitrary<bigint> {
  const flat = flatten(schema)
  if (flat.type !== 'integer')
    throw new Error(`the key's schema is not an integer: ${JSON.stringify(schema)}`)
  const int64 = flat.format === 'int64'
  const lowest = int64 ? INT64_MIN : -(2n ** 31n)
  const highest = int64 ? INT64_MAX : 2n ** 31n - 1n
  const edges = int64 ? INT64_EDGES : [highest, -highest, lowest]
  return fc.oneof(
    { weight: 8, arbitrary: fc.bigInt(base + HOT_KEYS.min, base + HOT_KEYS.max) },
    { weight: 8, arbitrary: fc.bigInt(base + KEY_POOL.min, base + KEY_POOL.max) },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.bigInt(lowest, highest) },
  )
}

// ---- The operations, from the document's links -----------------------------------------------------

interface Link {
  operationId?: string
  operationRef?: string
  parameters?: Record<string, unknown>
  requestBody?: unknown
  description?: string
}

export interface LinkedOperation {
  /** The link's name in the document. */
  link: string
  entry: OperationEntry
  /** Each parameter the link fills, and where it puts it. */
  parameters: Array<{ name: string; in: Parameter['in'] }>
  bodySchema: JsonSchema | undefined
  success: number
  answerFields: string[]
}

export interface Api {
  create: {
    entry: OperationEntry
    bodySchema: JsonSchema
    success: number
    answerFields: string[]
  }
  /** The JSON pointer into the create request body that every link reads: the plant's key. */
  keyPointer: string
  keyField: string
  /** How plants in answers are judged: exactly, as the kit's server writes them, unless set otherwise. */
  judging?: Judging
  keySchema: JsonSchema
  linked: LinkedOperation[]
  /** The GET linked operation, to read a plant back (after a 409, to see that nothing changed). */
  read: LinkedOperation | undefined
  list:
    | {
        entry: OperationEntry
        success: number
        itemFields: string[]
        /** The integer query parameter that sizes a page, with its bounds. */
        pageSize: { name: string; min: number; max: number } | undefined
      }
    | undefined
}

const successOf = (entry: OperationEntry): number | undefined =>
  Object.keys(entry.operation.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number)
    .sort((a, b) => a - b)[0]

const jsonSchemaOf = (content: Record<string, { schema?: JsonSchema }> | undefined): JsonSchema | undefined =>
  content?.['application/json']?.schema

const escapePointer = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')
const unescapePointer = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~')

/** The value at a JSON pointer (RFC 6901) of a value. */
export function atPointer(value: unknown, pointer: string): unknown {
  let node = value
  for (const token of pointer.split('/').slice(1).map(unescapePointer)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

function linkedEntry(operations: OperationEntry[], link: Link, name: string): OperationEntry {
  if (link.operationId) {
    const entry = operations.find((e) => e.operationId === link.operationId)
    if (!entry) throw new Error(`link ${name}: no operation ${link.operationId}`)
    return entry
  }
  // `#/paths/~1plants~1{id}/get`: a reference into this document.
  const match = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(link.operationRef ?? '')
  const entry =
    match?.[1] && match[2]
      ? operations.find((e) => e.path === unescapePointer(match[1] as string) && e.method === match[2])
      : undefined
  if (!entry) throw new Error(`link ${name}: cannot resolve ${link.operationRef ?? '(no operation)'}`)
  return entry
}

/** Reads the create operation, its links and the list operation from the document's operations. */
export function deriveApi(operations: OperationEntry[]): Api {
  const withLinks = operations.flatMap((entry) =>
    Object.entries(entry.operation.responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .map(([status, response]) => ({
        entry,
        status: Number(status),
        links: ((response as { links?: Record<string, Link> }).links ?? {}) as Record<string, Link>,
      }))
      .filter(({ links }) => Object.keys(links).length > 0),
  )
  const [source, ...others] = withLinks
  if (!source) throw new Error('no operation of the document has links on a 2xx response: nothing to derive')
  if (others.length) {
    throw new Error(
      `more than one response has links (${withLinks.map((w) => `${w.entry.operationId} ${w.status}`).join(', ')}): the model knows one create operation`,
    )
  }
  const createEntry = source.entry
  const bodySchema = jsonSchemaOf(createEntry.operation.requestBody?.content)
  if (!bodySchema) throw new Error(`${createEntry.operationId} has links but no JSON request body`)

  let keyPointer: string | undefined
  const linked: LinkedOperation[] = []
  for (const [name, link] of Object.entries(source.links)) {
    if (link.requestBody !== undefined)
      throw new Error(`link ${name}: a requestBody expression is not supported`)
    const entry = linkedEntry(operations, link, name)
    const parameters: LinkedOperation['parameters'] = []
    for (const [qualified, expression] of Object.entries(link.parameters ?? {})) {
      const found = /^\$request\.body#(\/.*)$/.exec(String(expression))
      if (!found?.[1]) throw new Error(`link ${name}: unsupported runtime expression ${String(expression)}`)
      if (keyPointer !== undefined && keyPointer !== found[1])
        throw new Error(`link ${name} reads ${found[1]}, another link ${keyPointer}: the model has one key`)
      keyPointer = found[1]
      const dot = /^(path|query|header|cookie)\.(.+)$/.exec(qualified)
      const paramName = dot?.[2] ?? qualified
      const param = entry.parameters.find((p) => p.name === paramName && (!dot || p.in === dot[1]))
      if (!param) throw new Error(`link ${name}: ${entry.operationId} has no parameter ${qualified}`)
      if (param.in !== 'path' && param.in !== 'query')
        throw new Error(`link ${name}: a ${param.in} parameter is not supported`)
      parameters.push({ name: param.name, in: param.in })
    }
    const missing = entry.parameters.filter(
      (p) => p.required && !parameters.some((q) => q.name === p.name && q.in === p.in),
    )
    if (missing.length)
      throw new Error(`link ${name}: ${entry.operationId} requires ${missing.map((p) => p.name)}, unfilled`)
    const success = successOf(entry)
    if (success === undefined) throw new Error(`${entry.operationId} documents no 2xx response`)
    linked.push({
      link: name,
      entry,
      parameters,
      bodySchema: jsonSchemaOf(entry.operation.requestBody?.content),
      success,
      answerFields: fieldsOf(jsonSchemaOf(entry.operation.responses[String(success)]?.content)),
    })
  }
  if (keyPointer === undefined) throw new Error('no link fills a parameter from the create request body')
  const keyTokens = keyPointer.split('/').slice(1)
  if (keyTokens.length !== 1 || !keyTokens[0])
    throw new Error(`the key ${keyPointer} is not a top-level field of the body: not supported`)
  const keyField = unescapePointer(keyTokens[0])
  const keySchema = flatten(bodySchema).properties[keyField]
  if (!keySchema) throw new Error(`${createEntry.operationId}'s body schema has no ${keyField}`)

  const listEntry = operations.find((e) => e.method === 'get' && e.path === createEntry.path)
  let list: Api['list']
  if (listEntry) {
    const success = successOf(listEntry)
    if (success === undefined) throw new Error(`${listEntry.operationId} documents no 2xx response`)
    const sizeParam = listEntry.parameters.find(
      (p) => p.in === 'query' && p.schema && flatten(p.schema).type === 'integer',
    )
    const min = (sizeParam?.schema?.minimum as number | undefined) ?? 1
    const max = (sizeParam?.schema?.maximum as number | undefined) ?? 100
    list = {
      entry: listEntry,
      success,
      itemFields: fieldsOf(jsonSchemaOf(listEntry.operation.responses[String(success)]?.content)),
      pageSize: sizeParam ? { name: sizeParam.name, min, max } : undefined,
    }
  }
  return {
    create: {
      entry: createEntry,
      bodySchema,
      success: source.status,
      answerFields: fieldsOf(jsonSchemaOf(createEntry.operation.responses[String(source.status)]?.content)),
    },
    keyPointer,
    keyField,
    keySchema,
    linked,
    read: linked.find((l) => l.entry.method === 'get'),
    list,
  }
}

/** One line per derived command, for the report. */
export function describeApi(api: Api): string[] {
  return [
    `create: ${api.create.entry.operationId} (${api.create.entry.method.toUpperCase()} ${api.create.entry.path}), key ${api.keyPointer} of its body`,
    ...api.linked.map(
      (l) =>
        `linked (${l.link}): ${l.entry.operationId} (${l.entry.method.toUpperCase()} ${l.entry.path}), ${l.parameters.map((p) => `${p.in} ${p.name}`).join(', ')} = $request.body#${api.keyPointer}${l.bodySchema ? ', body from its schema' : ''}`,
    ),
    api.list
      ? `list: ${api.list.entry.operationId} (GET ${api.list.entry.path}), following Link${api.list.pageSize ? `, ${api.list.pageSize.name} ${api.list.pageSize.min}..${Math.min(api.list.pageSize.max, api.list.pageSize.min + SMALL_PAGES - 1)}` : ''}`
      : 'list: none (no GET on the create path)',
  ]
}

// ---- The real system, as the commands see it ---------------------------------------------------------

export type Phase = 'command' | 'read-back' | 'final check' | 'cleanup'

/** The target under test, seen by the commands: sends a request as one of the principals and records it. */
export interface Real {
  send(principal: number, entry: OperationEntry, request: RequestSpec, phase: Phase): Promise<Answer>
}

/** A failed expectation, with the exchange that broke it and the check whose promise it broke. */
export class Mismatch extends Error {
  override name = 'Mismatch'
  constructor(
    readonly check: CheckName,
    message: string,
  ) {
    super(message)
  }
}

/** A mismatch that shows another principal's plant is one of isolation, whatever else it is. */
const isolationOr = (hint: string, check: CheckName): CheckName =>
  hint.includes('isolation between principals is broken') ? 'principal_isolation' : check

function verify(
  api: Api,
  model: StoreModel,
  principal: number,
  entry: OperationEntry,
  answer: Answer,
  expected: Expected,
  fields: string[],
): void {
  const found = judgeAnswer(entry, answer, answerOptions(api.judging ?? EXACT))
  const where = `${entry.operationId} as p${principal}`
  if (answer.status !== expected.status) {
    let hint = ''
    if (answer.isJson) {
      const shown = parseExact(answer.text)
      hint = ownerHint(model, principal, api.keyField, [shown as Plant])
    }
    throw new Mismatch(
      isolationOr(hint, 'status_code_conformance'),
      `${where}: expected ${expected.status} (${expected.rule}), got ${answer.status} ${answer.text}${hint}`,
    )
  }
  if (expected.plant && answer.isJson) {
    const judging = api.judging ?? EXACT
    const got = parseExact(answer.text)
    // A create's answer (a Plant) may show the key it was created with, or leave it out.
    const optional = fields.includes(api.keyField) || judging.exact ? [] : [api.keyField]
    const problem = plantProblem(entry.operationId, got, expected.plant, fields, judging, optional)
    if (problem) {
      const hint = ownerHint(model, principal, api.keyField, [got as Plant])
      throw new Mismatch(
        isolationOr(hint, 'store_conformance'),
        `${where}: the body is not the model's plant (${expected.rule}): ${problem}${hint}`,
      )
    }
  }
  const first = found[0]
  if (first) throw mismatchOf(`${where}: the answer does not conform to the document`, found, first)
}

/** One mismatch for the findings of the document's checks, under the first one's check. */
function mismatchOf(where: string, found: Finding[], first: Finding): Mismatch {
  return new Mismatch(first.check, `${where}:\n    ${found.map((f) => f.message).join('\n    ')}`)
}

const SMALL_PAGES = 5
const MAX_PAGES = 200

/**
 * Walks the list through every page and checks it against the model: each page at most `limit`
 * plants, ascending ids with no gap and no repeat, and a Link exactly when more plants follow.
 */
export async function walkList(
  api: Api,
  model: StoreModel,
  real: Real,
  principal: number,
  limit: number | undefined,
  phase: Phase,
): Promise<void> {
  const list = api.list
  if (!list) return
  const self = model.principals[principal] as PrincipalModel
  const expected = expectList(self, api.keyField).map((p) => project(p, list.itemFields))
  const wanted = expected.map(canonical)
  const pageMax =
    limit ??
    (list.entry.parameters.find((p) => p.name === list.pageSize?.name)?.schema?.default as
      | number
      | undefined) ??
    Number.POSITIVE_INFINITY
  const query = limit !== undefined && list.pageSize ? `?${list.pageSize.name}=${limit}` : ''
  let address: string | undefined = `${list.entry.path}${query}`
  /** The page's address as messages show it. */
  let addressShown = address
  const seen: string[] = []
  const seenKeys: bigint[] = []
  const where = `${list.entry.operationId} as p${principal}${limit === undefined ? '' : ` (limit ${limit})`}`
  const judging = api.judging ?? EXACT
  for (let page = 1; address !== undefined; page++) {
    if (page > Math.min(expected.length + 2, MAX_PAGES))
      throw new Mismatch(
        'link_conformance',
        `${where}: more than ${page - 1} pages for ${expected.length} plants`,
      )
    const answer: Answer = await real.send(
      principal,
      list.entry,
      { method: 'GET', path: address, auth: { kind: 'principal' } },
      phase,
    )
    const through = page > 1 ? ', reached through the Link of the page before' : ''
    if (answer.status !== list.success)
      throw new Mismatch(
        page > 1 ? 'link_conformance' : 'status_code_conformance',
        `${where}: page ${page} (${addressShown}${through}) answered ${answer.status} ${answer.text}`,
      )
    const found = judgeAnswer(list.entry, answer, answerOptions(judging))
    const first = found[0]
    if (first) throw mismatchOf(`${where}: page ${page} does not conform to the document`, found, first)
    const items = parseExact(answer.text)
    if (!Array.isArray(items))
      throw new Mismatch(
        'response_schema_conformance',
        `${where}: page ${page} is not an array: ${answer.text}`,
      )
    if (items.length > pageMax)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} holds ${items.length} plants, more than ${pageMax}`,
      )
    const keys = items.map((item) => (item as Plant)[api.keyField])
    if (
      keys.some(
        (key, i) =>
          i > 0 &&
          typeof key === 'bigint' &&
          typeof keys[i - 1] === 'bigint' &&
          key <= (keys[i - 1] as bigint),
      )
    )
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} is not in ascending order of id: ${jsonText(keys)}`,
      )
    for (const [i, item] of items.entries()) {
      const text = canonical(item)
      const key = (item as Plant)[api.keyField]
      const at = `page ${page}, item ${i + 1}`
      if (typeof key === 'bigint') {
        if (seenKeys.some((k) => k === key))
          throw new Mismatch(
            'link_conformance',
            `${where}: ${at} repeats plant ${keyText(key)}${through}: ${text}`,
          )
        const last = seenKeys.at(-1)
        if (last !== undefined && key < last)
          throw new Mismatch(
            'link_conformance',
            `${where}: ${at}: plant ${keyText(key)} after ${keyText(last)}${through}, not ascending`,
          )
      }
      const wantPlant = expected[seen.length]
      const problem =
        wantPlant === undefined
          ? 'the model has no more plants'
          : judging.exact
            ? text === wanted[seen.length]
              ? undefined
              : 'not the model’s next plant'
            : plantProblem(list.entry.operationId, item, wantPlant, list.itemFields, judging)
      if (problem) {
        const hint = ownerHint(model, principal, api.keyField, [item as Plant])
        const skipped = typeof key === 'bigint' && wantPlant !== undefined && wanted.includes(text)
        const check = skipped ? 'link_conformance' : page > 1 ? 'link_conformance' : 'store_conformance'
        throw new Mismatch(
          isolationOr(hint, check),
          `${where}: ${at}${through}: ${problem}${skipped ? ` (the model's ${wanted[seen.length]} is skipped)` : ''}${hint}\n    expected ${wanted[seen.length] ?? '(no more plants)'}\n    got      ${text}\n    the model: [${wanted.join(', ')}]`,
        )
      }
      seen.push(text)
      if (typeof key === 'bigint') seenKeys.push(key)
    }
    const next = nextAddress(answer.headers.link)
    const more = seen.length < wanted.length
    if (next && !more)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} links to a next page, but no plants follow: ${answer.headers.link}`,
      )
    if (!next && more)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} has no Link, but ${wanted.length - seen.length} more plants follow: [${wanted.slice(seen.length).join(', ')}]`,
      )
    if (next === undefined) return
    // Resolved against the address the page came from (RFC 3986 §5), whatever form the target has.
    const from = answer.url ?? address
    address = resolveLink(next, from)
    addressShown = shownAddress(address, from)
    const leaves = linkLeaves(address, from)
    if (leaves) throw new Mismatch('link_conformance', `${where}: page ${page}: ${leaves}`)
  }
}

// ---- Commands ----------------------------------------------------------------------------------------

type Command = fc.AsyncCommand<StoreModel, Real>

const principalOf = (model: StoreModel, index: number): PrincipalModel => {
  const principal = model.principals[index]
  if (!principal) throw new Error(`the model has no principal ${index}`)
  return principal
}

export class CreateCommand implements Command {
  constructor(
    readonly api: Api,
    readonly principal: number,
    readonly body: Plant,
  ) {}
  check = () => true
  async run(model: StoreModel, real: Real): Promise<void> {
    const { api, principal } = this
    const self = principalOf(model, principal)
    const expected = expectCreate(self, api.keyField, this.body, api.create.success)
    const request: RequestSpec = {
      method: api.create.entry.method.toUpperCase(),
      path: api.create.entry.path,
      contentType: 'application/json',
      body: jsonText(this.body),
      auth: { kind: 'principal' },
    }
    const answer = await real.send(principal, api.create.entry, request, 'command')
    verify(api, model, principal, api.create.entry, answer, expected, api.create.answerFields)
    expected.apply?.()
    // A 409 changes nothing: the plant already there reads back as the model holds it.
    if (expected.status === TAKEN && api.read) {
      const key = this.body[api.keyField] as bigint
      await followLink(api, api.read, model, real, principal, key, undefined, 'read-back')
    }
  }
  toString = () => `${this.api.create.entry.operationId}(p${this.principal}, ${jsonText(this.body)})`
}

/** Where a linked command takes its key: a create's request body, as the link says, or a given key. */
export interface KeySource {
  /** Follow the link from the (index mod count)-th successful create, if there is one. */
  created: number | undefined
  /** Whose create: the other principal's probes isolation (its plant must stay out of reach). */
  other: boolean
  /** The key when not following a create (a pool key, to hit plants that are not there). */
  key: bigint
}

async function followLink(
  api: Api,
  linked: LinkedOperation,
  model: StoreModel,
  real: Real,
  principal: number,
  key: bigint,
  body: Plant | undefined,
  phase: Phase,
): Promise<void> {
  const self = principalOf(model, principal)
  const { entry } = linked
  const expected = expectLinked(
    entry.method,
    entry.operationId,
    self,
    api.keyField,
    key,
    body,
    linked.success,
  )
  let path = entry.path
  const query = new URLSearchParams()
  for (const p of linked.parameters) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(keyText(key)))
    else query.set(p.name, keyText(key))
  }
  const request: RequestSpec = {
    method: entry.method.toUpperCase(),
    path: query.size ? `${path}?${query}` : path,
    auth: { kind: 'principal' },
    ...(body === undefined ? {} : { contentType: 'application/json', body: jsonText(body) }),
  }
  const answer = await real.send(principal, entry, request, phase)
  verify(api, model, principal, entry, answer, expected, linked.answerFields)
  expected.apply?.()
}

export class LinkedCommand implements Command {
  constructor(
    readonly api: Api,
    readonly linked: LinkedOperation,
    readonly principal: number,
    readonly source: KeySource,
    readonly body: Plant | undefined,
  ) {}
  check = () => true
  async run(model: StoreModel, real: Real): Promise<void> {
    const owner = this.source.other ? (this.principal + 1) % model.principals.length : this.principal
    const created = principalOf(model, owner).created
    const from = this.source.created === undefined ? undefined : created[this.source.created % created.length]
    // The link's runtime expression, `$request.body#<keyPointer>`, evaluated on that create's body.
    const key = from === undefined ? this.source.key : (atPointer(from, this.api.keyPointer) as bigint)
    await followLink(this.api, this.linked, model, real, this.principal, key, this.body, 'command')
  }
  toString = () => {
    const key =
      this.source.created === undefined
        ? keyText(this.source.key)
        : `${this.source.other ? "the other's " : ''}created[${this.source.created}] else ${keyText(this.source.key)}`
    const body = this.body === undefined ? '' : `, ${jsonText(this.body)}`
    return `${this.linked.entry.operationId}(p${this.principal}, ${key}${body})`
  }
}

export class ListCommand implements Command {
  constructor(
    readonly api: Api,
    readonly principal: number,
    readonly limit: number | undefined,
  ) {}
  check = () => true
  run = (model: StoreModel, real: Real) =>
    walkList(this.api, model, real, this.principal, this.limit, 'command')
  toString = () =>
    `${this.api.list?.entry.operationId}(p${this.principal}${this.limit === undefined ? '' : `, limit ${this.limit}`})`
}

/**
 * The command arbitraries for fc.commands: create (twice the weight), list, and each linked operation.
 * Keys come from a pool around `keyBase` and never equal one of `avoid` (a server under test's
 * existing plants, which a sequence must not touch).
 */
export function commandArbitraries(
  api: Api,
  principals: number,
  keyBase = 0n,
  avoid: ReadonlySet<bigint> = new Set(),
): fc.Arbitrary<Command>[] {
  const principal = fc.integer({ min: 0, max: principals - 1 })
  const pool = keyArbitrary(api.keySchema, keyBase)
  // A small set, a rare hit among int64 keys: the filter passes almost every draw.
  const key = avoid.size ? pool.filter((k) => !avoid.has(k)) : pool
  const createBody = valueArbitrary(
    api.create.bodySchema,
    new Map([[api.keyPointer, key]]),
  ) as fc.Arbitrary<Plant>
  const create = fc
    .record({ principal, body: createBody })
    .map(({ principal, body }) => new CreateCommand(api, principal, body) as Command)
  // Mostly the principal's own creates; sometimes the other principal's, or a key of the pool.
  const source: fc.Arbitrary<KeySource> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ created: fc.nat(24), other: fc.constant(false), key }) },
    { weight: 1, arbitrary: fc.record({ created: fc.nat(24), other: fc.constant(true), key }) },
    { weight: 2, arbitrary: fc.record({ created: fc.constant(undefined), other: fc.constant(false), key }) },
  )
  const linked = api.linked.map((l) =>
    fc
      .record({
        principal,
        source,
        body: l.bodySchema ? (valueArbitrary(l.bodySchema) as fc.Arbitrary<Plant>) : fc.constant(undefined),
      })
      .map(({ principal, source, body }) => new LinkedCommand(api, l, principal, source, body) as Command),
  )
  const arbitraries = [create, create, ...linked]
  const list = api.list
  if (list) {
    const size = list.pageSize
    const limit = size
      ? fc.integer({ min: size.min, max: Math.min(size.max, size.min + SMALL_PAGES - 1) })
      : fc.constant(undefined)
    arbitraries.push(
      fc.record({ principal, limit }).map(({ principal, limit }) => new ListCommand(api, principal, limit)),
    )
  }
  return arbitraries
}
