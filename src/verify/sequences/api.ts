// The operations the sequence model explores (commands.ts), derived from the document's links.
//
// What the document says, and so what is explored:
// - the create operation is the one whose 2xx response has `links`;
// - each link names an operation (operationId or operationRef) and fills its parameters from the
//   create request (`$request.body#/<pointer>`); all links read the same pointer, the plant's key;
// - the list operation is the GET on the create operation's path, walked page by page through Link.
// Request bodies are generated from the operations' schemas. An operation added later with a link
// from the create is explored with no new code here, as long as the model knows its method.

import { flatten, type JsonSchema, type OperationEntry, type Parameter } from '../document.js'
import type { Judging } from '../judge/plant.js'
import { unescapePointer } from './json-pointer.js'

/** The fields a response shows of a plant: the properties of its (item) schema. */
export function fieldsOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return []
  const flat = flatten(schema)
  if (flat.type === 'array') return fieldsOf(flat.schema.items as JsonSchema | undefined)
  return Object.keys(flat.properties)
}

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
        /** The string query parameters named for a field of the plants listed: each keeps the plants whose field holds exactly its value. */
        filters: Array<{ name: string; schema: JsonSchema }>
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
    const itemFields = fieldsOf(jsonSchemaOf(listEntry.operation.responses[String(success)]?.content))
    const filters = listEntry.parameters
      .filter((p) => p.in === 'query' && p.schema && flatten(p.schema).type === 'string')
      .filter((p) => itemFields.includes(p.name) && p.name !== keyField)
      .map((p) => ({ name: p.name, schema: p.schema as JsonSchema }))
    list = {
      entry: listEntry,
      success,
      itemFields,
      pageSize: sizeParam ? { name: sizeParam.name, min, max } : undefined,
      filters,
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

/** The list commands draw page sizes from the smallest few the document allows: small pages, many Links. */
export const SMALL_PAGES = 5

/** One line per derived command, for the report. */
export function describeApi(api: Api): string[] {
  return [
    `create: ${api.create.entry.operationId} (${api.create.entry.method.toUpperCase()} ${api.create.entry.path}), key ${api.keyPointer} of its body`,
    ...api.linked.map(
      (l) =>
        `linked (${l.link}): ${l.entry.operationId} (${l.entry.method.toUpperCase()} ${l.entry.path}), ${l.parameters.map((p) => `${p.in} ${p.name}`).join(', ')} = $request.body#${api.keyPointer}${l.bodySchema ? ', body from its schema' : ''}`,
    ),
    api.list
      ? `list: ${api.list.entry.operationId} (GET ${api.list.entry.path}), following Link${api.list.pageSize ? `, ${api.list.pageSize.name} ${api.list.pageSize.min}..${Math.min(api.list.pageSize.max, api.list.pageSize.min + SMALL_PAGES - 1)}` : ''}${api.list.filters.map((f) => `, ${f.name} as held or a near miss of it`).join('')}, creating and deleting between page reads`
      : 'list: none (no GET on the create path)',
  ]
}
