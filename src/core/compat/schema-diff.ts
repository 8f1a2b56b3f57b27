// Compares two schemas (with their `allOf` merged) and two sets of examples, and names each change by a
// rule of rules.ts: what the operation-by-operation comparison (diff.ts) asks of every body, parameter
// and header.
import { isDeepStrictEqual } from 'node:util'
import { BODY_LIMIT, HEADER_LIMIT } from '../lib/limits.js'
import { at } from './pointer.js'
import type { RuleId } from './rules.js'

export type Node = Record<string, unknown>
export type Direction = 'request' | 'response'
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

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
export const nodeOf = (value: unknown): Node => (isNode(value) ? value : {})
export const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value))

// Schemas nest without end when they refer to themselves; real ones stop long before this.
export const MAX_DEPTH = 64

/** The comparisons of one operation's schemas and examples, each change handed to `report`. */
export class SchemaDiff {
  // The pairs of schemas being compared on the way down to this one: a schema that refers to itself
  // is compared once on each path, and the same schema used twice is compared at both uses.
  private readonly open = new Map<object, Set<object>>()

  constructor(private readonly report: (rule: RuleId, pointer: string, detail: string) => void) {}

  /** `example` and the named `examples` of a media type, parameter or header. */
  examples(before: Node, after: Node, pointer: string): void {
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

  schema(rawBefore: unknown, rawAfter: unknown, pointer: string, direction: Direction, depth = 0): void {
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
