// Compares two dereferenced OpenAPI 3.1 documents, operation by operation, and names each change by a
// rule of rules.ts with the JSON pointer where it happened.
import { isDeepStrictEqual } from 'node:util'
import {
  BODY_LIMIT,
  type Document,
  HEADER_LIMIT,
  isSecured,
  listOperations,
  type OperationEntry,
} from '../../scripts/lib/spec.js'
import { at } from './pointer.js'
import type { RuleId } from './rules.js'

export interface Change {
  rule: RuleId
  /**
   * Where, in the newer document (the older one for a removal), as a JSON pointer. Inside a schema
   * the pointer follows the schema as seen with its `$ref`s resolved and its `allOf` merged, so a
   * field of `NewPlant` is `…/schema/properties/tag` wherever the document defines it.
   */
  pointer: string
  /** What exactly changed, e.g. `maximum 100 → 50`. */
  detail: string
}

type Node = Record<string, unknown>
type Direction = 'request' | 'response'
type Kind = 'narrowed' | 'widened' | 'changed'
type Facet = 'type' | 'format' | 'enum' | 'pattern' | 'bound' | 'additionalProperties'

// Which rule a narrowed, widened or otherwise changed constraint falls under, by where it is read.
// A request narrowed refuses what a client sends; a response widened sends what a client cannot read.
const facetRules: Record<Facet, Record<Direction, Record<Kind, RuleId>>> = {
  type: {
    request: {
      narrowed: 'request-type-narrowed',
      changed: 'request-type-narrowed',
      widened: 'request-type-widened',
    },
    response: {
      narrowed: 'response-type-narrowed',
      changed: 'response-type-changed',
      widened: 'response-type-changed',
    },
  },
  format: {
    request: {
      narrowed: 'request-format-narrowed',
      changed: 'request-format-narrowed',
      widened: 'request-format-widened',
    },
    response: {
      narrowed: 'response-format-narrowed',
      changed: 'response-format-changed',
      widened: 'response-format-changed',
    },
  },
  enum: {
    request: {
      narrowed: 'request-enum-narrowed',
      changed: 'request-enum-narrowed',
      widened: 'request-enum-widened',
    },
    response: {
      narrowed: 'response-enum-narrowed',
      changed: 'response-enum-widened',
      widened: 'response-enum-widened',
    },
  },
  pattern: {
    request: {
      narrowed: 'request-pattern-narrowed',
      changed: 'request-pattern-narrowed',
      widened: 'request-pattern-widened',
    },
    response: {
      narrowed: 'response-constraint-narrowed',
      changed: 'response-constraint-widened',
      widened: 'response-constraint-widened',
    },
  },
  bound: {
    request: {
      narrowed: 'request-bound-narrowed',
      changed: 'request-bound-narrowed',
      widened: 'request-bound-widened',
    },
    response: {
      narrowed: 'response-constraint-narrowed',
      changed: 'response-constraint-widened',
      widened: 'response-constraint-widened',
    },
  },
  additionalProperties: {
    request: {
      narrowed: 'request-additional-properties-narrowed',
      changed: 'request-additional-properties-narrowed',
      widened: 'request-additional-properties-widened',
    },
    response: {
      narrowed: 'response-constraint-narrowed',
      changed: 'response-constraint-widened',
      widened: 'response-constraint-widened',
    },
  },
}

/**
 * The longest string a request can carry at a pointer: a body's is bounded by the body limit, a
 * parameter's by the request line's; a maxLength at or past it refuses nothing that can arrive.
 */
function reach(pointer: string): number {
  if (pointer.includes('/requestBody/')) return BODY_LIMIT
  if (pointer.includes('/parameters/')) return HEADER_LIMIT
  return Number.POSITIVE_INFINITY
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const nodeOf = (value: unknown): Node => (isNode(value) ? value : {})
const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value))

// Schemas nest without end when they refer to themselves; real ones stop long before this.
const MAX_DEPTH = 64

/** Every change from `base` to `head`, both dereferenced (scripts/lib/spec.ts's loadSpec gives them). */
export function diffDocuments(base: Document, head: Document): Change[] {
  const changes: Change[] = []
  const report = (rule: RuleId, pointer: string, detail: string) => {
    if (!changes.some((c) => c.rule === rule && c.pointer === pointer && c.detail === detail))
      changes.push({ rule, pointer, detail })
  }
  const baseOps = new Map(listOperations(base).map((e) => [operationKey(e), e]))
  const headOps = new Map(listOperations(head).map((e) => [operationKey(e), e]))
  for (const [key, entry] of baseOps) {
    if (!headOps.has(key))
      report('operation-removed', at('/paths', entry.path, entry.method), `${opName(entry)} removed`)
  }
  for (const [key, entry] of headOps) {
    const before = baseOps.get(key)
    if (!before) report('operation-added', at('/paths', entry.path, entry.method), `${opName(entry)} added`)
    else new OperationDiff(base, head, before, entry, report).run()
  }
  const baseHooks = listWebhooks(base)
  const headHooks = listWebhooks(head)
  for (const [key, hook] of baseHooks) {
    if (!headHooks.has(key)) report('webhook-removed', hook.pointer, `webhook ${hook.name} removed`)
  }
  for (const [key, hook] of headHooks) {
    const before = baseHooks.get(key)
    if (!before) report('webhook-added', hook.pointer, `webhook ${hook.name} added`)
    else new OperationDiff(base, head, before.entry, hook.entry, report, hook.pointer).runWebhook()
  }
  return changes
}

interface Webhook {
  name: string
  pointer: string
  entry: OperationEntry
}

/** The document's webhooks by name and method, each read as an operation that the server sends. */
function listWebhooks(doc: Document): Map<string, Webhook> {
  const out = new Map<string, Webhook>()
  const hooks = nodeOf((doc as { webhooks?: unknown }).webhooks)
  for (const [name, item] of Object.entries(hooks)) {
    for (const [method, operation] of Object.entries(nodeOf(item))) {
      if (!webhookMethods.has(method) || !isNode(operation)) continue
      const parameters = [
        ...((nodeOf(item).parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ]
      const entry = {
        operationId: String(operation.operationId ?? name),
        method,
        path: name,
        operation,
        parameters,
        security: [],
        secured: false,
      } as unknown as OperationEntry
      out.set(`${method} ${name}`, { name, pointer: at('/webhooks', name, method), entry })
    }
  }
  return out
}

const webhookMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

// A path's parameters may be renamed without a client noticing: `/plants/{id}` is `/plants/{plantId}`.
const templateOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}')
const operationKey = (entry: OperationEntry) => `${entry.method} ${templateOf(entry.path)}`
const opName = (entry: OperationEntry) => `${entry.operationId} (${entry.method.toUpperCase()} ${entry.path})`

class OperationDiff {
  private readonly pointer: string
  // The pairs of schemas being compared on the way down to this one: a schema that refers to itself
  // is compared once on each path, and the same schema used twice is compared at both uses.
  private readonly open = new Map<object, Set<object>>()

  constructor(
    private readonly baseDoc: Document,
    private readonly headDoc: Document,
    private readonly base: OperationEntry,
    private readonly head: OperationEntry,
    private readonly report: (rule: RuleId, pointer: string, detail: string) => void,
    pointer?: string,
  ) {
    this.pointer = pointer ?? at('/paths', head.path, head.method)
  }

  /**
   * A webhook, which the server sends: its body and headers are compared as a response's, since a
   * receiver must be ready to read them. What a receiver answers is read by the server alone, which
   * takes any 2xx, so its responses are not compared; nor is security, which a webhook's signature
   * headers carry instead.
   */
  runWebhook(): void {
    this.operationId()
    this.sentHeaders()
    const before = nodeOf(this.base.operation.requestBody)
    const after = nodeOf(this.head.operation.requestBody)
    this.content(before, after, at(this.pointer, 'requestBody'), 'response')
  }

  private operationId(): void {
    const { base, head, pointer } = this
    if (base.operationId !== head.operationId)
      this.report(
        'operation-id-changed',
        at(pointer, 'operationId'),
        `${base.operationId} → ${head.operationId}`,
      )
  }

  /** A webhook's header parameters, which the server sends, as a response's headers. */
  private sentHeaders(): void {
    const headersOf = (entry: OperationEntry) =>
      new Map(
        (entry.parameters as unknown as Node[])
          .filter((p) => p.in === 'header')
          .map((p) => [String(p.name).toLowerCase(), p]),
      )
    const old = headersOf(this.base)
    const now = headersOf(this.head)
    const pointerOf = (entry: OperationEntry, p: Node) =>
      at(
        this.pointer,
        'parameters',
        Math.max(0, ((entry.operation.parameters ?? []) as unknown[]).indexOf(p)),
      )
    for (const [key, p] of old) {
      if (!now.has(key))
        this.report('response-header-removed', pointerOf(this.base, p), `header ${String(p.name)} removed`)
    }
    for (const [key, p] of now) {
      const where = pointerOf(this.head, p)
      const was = old.get(key)
      if (!was) {
        this.report('response-header-added', where, `header ${String(p.name)} added`)
        continue
      }
      if (was.required === true && p.required !== true)
        this.report('response-header-optional', where, `header ${String(p.name)} no longer always sent`)
      if (was.required !== true && p.required === true)
        this.report('response-header-required', where, `header ${String(p.name)} now always sent`)
      this.schema(was.schema, p.schema, at(where, 'schema'), 'response', 0)
      this.examples(was, p, where)
    }
  }

  run(): void {
    this.operationId()
    this.security()
    this.parameters()
    this.requestBody()
    this.responses()
  }

  // ---- Security: can every client that got in before still get in? -----------------------------

  private security(): void {
    const pointer = at(this.pointer, 'security')
    const before = alternatives(this.base.security, this.baseDoc)
    const after = alternatives(this.head.security, this.headDoc)
    const baseOpen = !isSecured(this.base.security)
    const headOpen = !isSecured(this.head.security)
    if (baseOpen && !headOpen) {
      this.report('security-added', pointer, `now requires ${describeSecurity(this.head.security)}`)
      return
    }
    const lost = before.filter((a) => !after.some((b) => satisfies(a, b)))
    if (lost.length > 0) {
      this.report(
        'security-changed',
        pointer,
        `${describeSecurity(this.base.security)} → ${describeSecurity(this.head.security)}`,
      )
      return
    }
    const gained = after.filter((b) => !before.some((a) => satisfies(b, a)))
    if (gained.length > 0 || (headOpen && !baseOpen))
      this.report(
        'security-relaxed',
        pointer,
        `${describeSecurity(this.base.security)} → ${describeSecurity(this.head.security)}`,
      )
  }

  // ---- Parameters ------------------------------------------------------------------------------

  private parameters(): void {
    const before = new Map(
      this.base.parameters.map((p) => [parameterKey(this.base, p), p as unknown as Node]),
    )
    const after = new Map(this.head.parameters.map((p) => [parameterKey(this.head, p), p as unknown as Node]))
    for (const [key, p] of before) {
      if (!after.has(key))
        this.report(
          'request-parameter-removed',
          parameterPointer(this.baseDoc, this.base, p),
          `${p.in} parameter ${p.name}`,
        )
    }
    for (const [key, p] of after) {
      const pointer = parameterPointer(this.headDoc, this.head, p)
      const old = before.get(key)
      if (!old) {
        if (p.required === true)
          this.report('request-parameter-required-added', pointer, `new required ${p.in} parameter ${p.name}`)
        else this.report('request-parameter-added', pointer, `new optional ${p.in} parameter ${p.name}`)
        continue
      }
      if (old.required !== true && p.required === true)
        this.report('request-parameter-required-added', pointer, `${p.in} parameter ${p.name} now required`)
      if (old.required === true && p.required !== true)
        this.report('request-parameter-optional', pointer, `${p.in} parameter ${p.name} now optional`)
      this.schema(old.schema, p.schema, at(pointer, 'schema'), 'request', 0)
      this.examples(old, p, pointer)
    }
  }

  // ---- Request body ----------------------------------------------------------------------------

  private requestBody(): void {
    const pointer = at(this.pointer, 'requestBody')
    const before = this.base.operation.requestBody as Node | undefined
    const after = this.head.operation.requestBody as Node | undefined
    if (!before && !after) return
    if (before && !after) {
      this.report('request-body-removed', pointer, 'the request body is no longer read')
      return
    }
    if (!before) {
      if (after?.required === true)
        this.report('request-body-required', pointer, 'a new required request body')
      else this.report('request-body-optional', pointer, 'a new optional request body')
      return
    }
    if (before.required !== true && after?.required === true)
      this.report('request-body-required', pointer, 'the request body is now required')
    if (before.required === true && after?.required !== true)
      this.report('request-body-optional', pointer, 'the request body is now optional')
    this.content(before, nodeOf(after), pointer, 'request')
  }

  // ---- Responses -------------------------------------------------------------------------------

  private responses(): void {
    const before = nodeOf(this.base.operation.responses)
    const after = nodeOf(this.head.operation.responses)
    for (const status of Object.keys(before)) {
      if (!(status in after))
        this.report(
          'response-status-removed',
          at(this.pointer, 'responses', status),
          `status ${status} removed`,
        )
    }
    for (const [status, answer] of Object.entries(after)) {
      const pointer = at(this.pointer, 'responses', status)
      if (!(status in before)) {
        this.report('response-status-added', pointer, `status ${status} added`)
        continue
      }
      const old = nodeOf(before[status])
      this.headers(old, nodeOf(answer), pointer)
      this.content(old, nodeOf(answer), pointer, 'response')
    }
  }

  private headers(before: Node, after: Node, pointer: string): void {
    // Header names are case-insensitive; the pointer keeps the document's spelling.
    const byName = (node: Node) =>
      new Map(
        Object.entries(nodeOf(node.headers)).map(([name, h]) => [name.toLowerCase(), { name, h: nodeOf(h) }]),
      )
    const old = byName(before)
    const now = byName(after)
    for (const [key, { name }] of old) {
      if (!now.has(key))
        this.report('response-header-removed', at(pointer, 'headers', name), `header ${name} removed`)
    }
    for (const [key, { name, h }] of now) {
      const headerPointer = at(pointer, 'headers', name)
      const was = old.get(key)?.h
      if (!was) {
        this.report('response-header-added', headerPointer, `header ${name} added`)
        continue
      }
      if (was.required === true && h.required !== true)
        this.report('response-header-optional', headerPointer, `header ${name} no longer always sent`)
      if (was.required !== true && h.required === true)
        this.report('response-header-required', headerPointer, `header ${name} now always sent`)
      this.schema(was.schema, h.schema, at(headerPointer, 'schema'), 'response', 0)
      this.examples(was, h, headerPointer)
    }
  }

  private content(before: Node, after: Node, pointer: string, direction: Direction): void {
    const byType = (node: Node) =>
      new Map(
        Object.entries(nodeOf(node.content)).map(([type, m]) => [type.toLowerCase(), { type, m: nodeOf(m) }]),
      )
    const old = byType(before)
    const now = byType(after)
    for (const [key, { type }] of old) {
      if (!now.has(key))
        this.report(
          `${direction}-content-type-removed`,
          at(pointer, 'content', type),
          `content type ${type} removed`,
        )
    }
    for (const [key, { type, m }] of now) {
      const mediaPointer = at(pointer, 'content', type)
      const was = old.get(key)?.m
      if (!was) {
        this.report(`${direction}-content-type-added`, mediaPointer, `content type ${type} added`)
        continue
      }
      this.schema(was.schema, m.schema, at(mediaPointer, 'schema'), direction, 0)
      this.examples(was, m, mediaPointer)
    }
  }

  /** `example` and the named `examples` of a media type, parameter or header. */
  private examples(before: Node, after: Node, pointer: string): void {
    this.example(before.example, after.example, at(pointer, 'example'))
    const old = nodeOf(before.examples)
    const now = nodeOf(after.examples)
    const exampleValue = (e: unknown) => {
      const node = nodeOf(e)
      return { value: node.value, externalValue: node.externalValue }
    }
    for (const name of Object.keys(old)) {
      if (!(name in now))
        this.report('example-changed', at(pointer, 'examples', name), `example ${name} removed`)
    }
    for (const [name, e] of Object.entries(now)) {
      const examplePointer = at(pointer, 'examples', name)
      if (!(name in old)) this.report('example-added', examplePointer, `example ${name} added`)
      else if (!isDeepStrictEqual(exampleValue(old[name]), exampleValue(e)))
        this.report(
          'example-changed',
          examplePointer,
          `${show(exampleValue(old[name]).value)} → ${show(exampleValue(e).value)}`,
        )
    }
  }

  private example(before: unknown, after: unknown, pointer: string): void {
    if (isDeepStrictEqual(before, after)) return
    if (before === undefined) this.report('example-added', pointer, `example ${show(after)} added`)
    else this.report('example-changed', pointer, `${show(before)} → ${show(after)}`)
  }

  // ---- Schemas ---------------------------------------------------------------------------------

  private schema(
    rawBefore: unknown,
    rawAfter: unknown,
    pointer: string,
    direction: Direction,
    depth: number,
  ): void {
    if (rawBefore === undefined && rawAfter === undefined) return
    if (depth > MAX_DEPTH) return
    if (!isNode(rawBefore) || !isNode(rawAfter)) {
      this.compareSchema(merged(rawBefore), merged(rawAfter), pointer, direction, depth)
      return
    }
    const pairs = this.open.get(rawBefore) ?? new Set<object>()
    if (pairs.has(rawAfter)) return
    pairs.add(rawAfter)
    this.open.set(rawBefore, pairs)
    try {
      this.compareSchema(merged(rawBefore), merged(rawAfter), pointer, direction, depth)
    } finally {
      pairs.delete(rawAfter)
    }
  }

  private compareSchema(b: Node, h: Node, pointer: string, direction: Direction, depth: number): void {
    const facet = (name: Facet, kind: Kind | undefined, detail: string, where = pointer) => {
      if (kind) this.report(facetRules[name][direction][kind], where, detail)
    }

    facet('type', compareTypes(typesOf(b), typesOf(h)), `type ${show(b.type)} → ${show(h.type)}`)
    facet('format', compareFormats(b.format, h.format), `format ${show(b.format)} → ${show(h.format)}`)
    this.enumeration(b, h, pointer, direction)
    if (b.pattern !== h.pattern)
      facet(
        'pattern',
        h.pattern === undefined ? 'widened' : b.pattern === undefined ? 'narrowed' : 'changed',
        `pattern ${show(b.pattern)} → ${show(h.pattern)}`,
      )
    for (const [keyword, lower] of bounds) {
      const [x, y] = [b[keyword], h[keyword]]
      if (x === y || (typeof x !== 'number' && x !== undefined) || (typeof y !== 'number' && y !== undefined))
        continue
      const tighter = y === undefined ? false : x === undefined ? true : lower ? y > x : y < x
      if (tighter && direction === 'request' && keyword === 'maxLength' && (y ?? 0) >= reach(pointer)) {
        this.report('request-bound-unreachable', pointer, `${keyword} ${show(x)} → ${show(y)}`)
        continue
      }
      facet('bound', tighter ? 'narrowed' : 'widened', `${keyword} ${show(x)} → ${show(y)}`)
    }
    if (!isDeepStrictEqual(b.default, h.default))
      this.report(
        'default-changed',
        at(pointer, 'default'),
        `default ${show(b.default)} → ${show(h.default)}`,
      )
    this.example(b.example, h.example, at(pointer, 'example'))
    this.example(b.examples, h.examples, at(pointer, 'examples'))

    this.properties(b, h, pointer, direction, depth)
    const [apBefore, apAfter] = [openness(b.additionalProperties), openness(h.additionalProperties)]
    if (apBefore === 'schema' && apAfter === 'schema')
      this.schema(
        b.additionalProperties,
        h.additionalProperties,
        at(pointer, 'additionalProperties'),
        direction,
        depth + 1,
      )
    else if (apBefore !== apAfter)
      facet(
        'additionalProperties',
        rank[apAfter] > rank[apBefore] ? 'widened' : 'narrowed',
        `additionalProperties ${show(b.additionalProperties)} → ${show(h.additionalProperties)}`,
        at(pointer, 'additionalProperties'),
      )
    if (b.items !== undefined || h.items !== undefined)
      this.schema(b.items ?? {}, h.items ?? {}, at(pointer, 'items'), direction, depth + 1)
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const [x, y] = [b[keyword], h[keyword]]
      if (x === undefined && y === undefined) continue
      if (!Array.isArray(x) || !Array.isArray(y)) {
        facet('type', 'changed', `${keyword} ${x === undefined ? 'added' : 'removed'}`, at(pointer, keyword))
        continue
      }
      for (let i = 0; i < Math.min(x.length, y.length); i++)
        this.schema(x[i], y[i], at(pointer, keyword, i), direction, depth + 1)
      if (x.length !== y.length)
        facet(
          'type',
          y.length > x.length ? 'widened' : 'narrowed',
          `${keyword}: ${x.length} → ${y.length} alternatives`,
          at(pointer, keyword),
        )
    }
  }

  private enumeration(b: Node, h: Node, pointer: string, direction: Direction): void {
    const [x, y] = [enumOf(b), enumOf(h)]
    if (x === undefined && y === undefined) return
    const rule = (kind: Kind) => facetRules.enum[direction][kind]
    if (x === undefined) {
      this.report(rule('narrowed'), at(pointer, 'enum'), `enum ${show(y)} added`)
      return
    }
    if (y === undefined) {
      this.report(rule('widened'), at(pointer, 'enum'), `enum ${show(x)} dropped`)
      return
    }
    const key = (v: unknown) => JSON.stringify(v)
    const added = y.filter((v) => !x.some((w) => key(w) === key(v)))
    const removed = x.filter((v) => !y.some((w) => key(w) === key(v)))
    if (added.length === 0 && removed.length === 0) return
    const detail = [
      added.length ? `values added: ${added.map(show).join(', ')}` : '',
      removed.length ? `values removed: ${removed.map(show).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ')
    const kind: Kind = added.length && removed.length ? 'changed' : added.length ? 'widened' : 'narrowed'
    this.report(rule(kind), at(pointer, 'enum'), detail)
  }

  private properties(b: Node, h: Node, pointer: string, direction: Direction, depth: number): void {
    const [bp, hp] = [nodeOf(b.properties), nodeOf(h.properties)]
    const [bReq, hReq] = [requiredOf(b), requiredOf(h)]
    const names = new Set([...Object.keys(bp), ...bReq, ...Object.keys(hp), ...hReq])
    for (const name of names) {
      const where = at(pointer, 'properties', name)
      const inBase = name in bp || bReq.has(name)
      const inHead = name in hp || hReq.has(name)
      if (direction === 'request') {
        if (!inBase) {
          if (hReq.has(name))
            this.report('request-property-required-added', where, `new required field ${name}`)
          else this.report('request-property-added', where, `new optional field ${name}`)
        } else if (!inHead) {
          if (h.additionalProperties === false)
            this.report('request-property-rejected', where, `field ${name} removed and now refused`)
          else this.report('request-property-removed', where, `field ${name} removed`)
        } else if (!bReq.has(name) && hReq.has(name))
          this.report('request-property-required-added', where, `field ${name} now required`)
        else if (bReq.has(name) && !hReq.has(name))
          this.report('request-property-optional', where, `field ${name} now optional`)
      } else {
        if (!inBase) this.report('response-property-added', where, `new field ${name}`)
        else if (!inHead) this.report('response-property-removed', where, `field ${name} removed`)
        else if (bReq.has(name) && !hReq.has(name))
          this.report('response-property-optional', where, `field ${name} no longer required`)
        else if (!bReq.has(name) && hReq.has(name))
          this.report('response-property-required', where, `field ${name} now required`)
      }
      if (inBase && inHead && (name in bp || name in hp))
        this.schema(bp[name] ?? {}, hp[name] ?? {}, where, direction, depth + 1)
    }
  }
}

// ---- Schema helpers ----------------------------------------------------------------------------

const mergedCache = new WeakMap<object, Node>()

/** A schema with its `allOf` folded in: properties merged, `required` united, the first value of any other keyword kept. */
export function merged(schema: unknown, depth = 0): Node {
  if (!isNode(schema)) return {}
  if (!Array.isArray(schema.allOf) || depth > MAX_DEPTH) return schema
  const cached = mergedCache.get(schema)
  if (cached) return cached
  const { allOf, ...own } = schema
  const parts = [own, ...(allOf as unknown[]).map((part) => merged(part, depth + 1))]
  const out: Node = {}
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') {
        const props = { ...nodeOf(out.properties) }
        for (const [name, s] of Object.entries(nodeOf(value)))
          props[name] = name in props ? merged({ allOf: [props[name], s] }, depth + 1) : s
        out.properties = props
      } else if (key === 'required') {
        out.required = [...new Set([...((out.required as string[]) ?? []), ...((value as string[]) ?? [])])]
      } else if (key === 'type' && out.type !== undefined) {
        const both = [...(typesOf(out) ?? [])].filter((t) => typesOf(part)?.has(t))
        out.type = both.length === 1 ? both[0] : both
      } else if (!(key in out)) out[key] = value
    }
  }
  mergedCache.set(schema, out)
  return out
}

const requiredOf = (schema: Node) =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [])

/** The types a schema allows, or undefined for any. */
function typesOf(schema: Node): Set<string> | undefined {
  if (schema.type === undefined) return undefined
  return new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)])
}

const accepts = (types: Set<string> | undefined, type: string) =>
  types === undefined || types.has(type) || (type === 'integer' && types.has('number'))
const covers = (outer: Set<string> | undefined, inner: Set<string> | undefined) =>
  inner === undefined ? outer === undefined : [...inner].every((t) => accepts(outer, t))

function compareTypes(before: Set<string> | undefined, after: Set<string> | undefined): Kind | undefined {
  const wider = covers(after, before)
  const narrower = covers(before, after)
  if (wider && narrower) return undefined
  return wider ? 'widened' : narrower ? 'narrowed' : 'changed'
}

// Formats whose values are a subset of another's: an int32 is an int64, a float a double.
const wider: Record<string, string> = { int32: 'int64', float: 'double' }

function compareFormats(before: unknown, after: unknown): Kind | undefined {
  if (before === after) return undefined
  if (after === undefined) return 'widened'
  if (before === undefined) return 'narrowed'
  if (wider[String(before)] === after) return 'widened'
  if (wider[String(after)] === before) return 'narrowed'
  return 'changed'
}

/** `enum`, or `const` as an enum of one; undefined when any value goes. */
function enumOf(schema: Node): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

// [keyword, whether it is a lower bound]: raising a lower bound or lowering an upper one narrows.
const bounds: [string, boolean][] = [
  ['minimum', true],
  ['exclusiveMinimum', true],
  ['minLength', true],
  ['minItems', true],
  ['minProperties', true],
  ['maximum', false],
  ['exclusiveMaximum', false],
  ['maxLength', false],
  ['maxItems', false],
  ['maxProperties', false],
]

type Openness = 'closed' | 'schema' | 'open'
const rank: Record<Openness, number> = { closed: 0, schema: 1, open: 2 }
const openness = (value: unknown): Openness =>
  value === false
    ? 'closed'
    : value === undefined || value === true || (isNode(value) && Object.keys(value).length === 0)
      ? 'open'
      : 'schema'

// ---- Parameter and security helpers ------------------------------------------------------------

// Path parameters by position, so that renaming one is no change; the others by where and name.
function parameterKey(entry: OperationEntry, p: { in: string; name: string }): string {
  if (p.in === 'path') {
    const names = [...entry.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
    return `path:#${names.indexOf(p.name)}`
  }
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`
}

/** Where the parameter is written: the operation's own list, else its path's. */
function parameterPointer(doc: Document, entry: OperationEntry, p: Node): string {
  const own = (entry.operation.parameters ?? []) as unknown[]
  const i = own.indexOf(p)
  if (i >= 0) return at('/paths', entry.path, entry.method, 'parameters', i)
  const shared = (doc.paths?.[entry.path]?.parameters ?? []) as unknown[]
  return at('/paths', entry.path, 'parameters', Math.max(0, shared.indexOf(p)))
}

type Requirement = Record<string, string[]>

interface Alternative {
  /** Each scheme of the requirement by what it is (not by its name, which clients never see), with its scopes. */
  schemes: { shape: string; scopes: string[] }[]
}

function alternatives(security: Requirement[], doc: Document): Alternative[] {
  // No requirement at all lets anyone in, as an empty one does.
  if (security.length === 0) return [{ schemes: [] }]
  const defined = nodeOf(doc.components?.securitySchemes)
  return security.map((requirement) => ({
    schemes: Object.entries(requirement).map(([name, scopes]) => ({
      shape: schemeShape(defined[name], name),
      scopes: scopes ?? [],
    })),
  }))
}

function schemeShape(scheme: unknown, name: string): string {
  if (!isNode(scheme)) return `undefined:${name}`
  const { type, in: where, name: key, openIdConnectUrl, flows } = scheme
  const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : scheme.scheme
  return JSON.stringify({ type, scheme: kind, in: where, name: key, openIdConnectUrl, flows })
}

/** Whether a client holding what `have` asks for also holds what `need` asks for. */
const satisfies = (have: Alternative, need: Alternative) =>
  need.schemes.every((n) =>
    have.schemes.some((h) => h.shape === n.shape && n.scopes.every((scope) => h.scopes.includes(scope))),
  )

function describeSecurity(security: Requirement[]): string {
  if (!isSecured(security)) return 'no credentials'
  return security
    .map((r) =>
      Object.entries(r)
        .map(([name, scopes]) => (scopes?.length ? `${name} [${scopes.join(', ')}]` : name))
        .join(' + '),
    )
    .join(' or ')
}
