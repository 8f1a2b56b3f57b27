import { type Document, isSecured, listOperations, type OperationEntry } from '../document.js'
import { at } from './pointer.js'
import type { RuleId } from './rules.js'
import { type Direction, isNode, type Node, nodeOf, SchemaDiff } from './schema-diff.js'
import { alternatives, describeSecurity, satisfies } from './security-diff.js'

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
  private readonly schemas: SchemaDiff

  constructor(
    private readonly baseDoc: Document,
    private readonly headDoc: Document,
    private readonly base: OperationEntry,
    private readonly head: OperationEntry,
    private readonly report: (rule: RuleId, pointer: string, detail: string) => void,
    pointer?: string,
  ) {
    this.pointer = pointer ?? at('/paths', head.path, head.method)
    this.schemas = new SchemaDiff(report)
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
      this.schemas.schema(was.schema, p.schema, at(where, 'schema'), 'response', 0)
      this.schemas.examples(was, p, where)
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
      this.schemas.schema(old.schema, p.schema, at(pointer, 'schema'), 'request', 0)
      this.schemas.examples(old, p, pointer)
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
      this.schemas.schema(was.schema, h.schema, at(headerPointer, 'schema'), 'response', 0)
      this.schemas.examples(was, h, headerPointer)
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
      this.schemas.schema(was.schema, m.schema, at(mediaPointer, 'schema'), direction, 0)
      this.schemas.examples(was, m, mediaPointer)
    }
  }
}

// ---- Parameter helpers ------------------------------------------------------------

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
