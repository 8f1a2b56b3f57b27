// The sequence model's commands, which fast-check's model-based testing (fc.commands, fc.asyncModelRun;
// run.ts) runs against a target and the model of store-model.ts: a create, each operation the
// create's links name (api.ts), and the list; with the arbitraries that draw them.
import fc from 'fast-check'
import { jsonText } from '../../exact-json.js'
import type { RequestSpec } from '../../http.js'
import { type Api, type LinkedOperation, SMALL_PAGES } from './api.js'
import { keyArbitrary, valueArbitrary } from './arbitraries.js'
import { atPointer } from './json-pointer.js'
import { judgeCommand } from './judged.js'
import { walkList } from './list-walk.js'
import type { Phase, Real } from './real.js'
import {
  expectCreate,
  expectLinked,
  keyText,
  type Plant,
  type PrincipalModel,
  type StoreModel,
  TAKEN,
} from './store-model.js'

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
    const key = this.body[api.keyField] as bigint
    const sent = { entry: api.create.entry, request, answer, key, creates: true }
    judgeCommand(api, model, principal, real, sent, expected, api.create.answerFields)
    expected.apply?.()
    // A 409 changes nothing: the plant already there reads back as the model holds it.
    if (expected.status === TAKEN && api.read)
      await followLink(api, api.read, model, real, principal, key, undefined, 'read-back')
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
  judgeCommand(api, model, principal, real, { entry, request, answer, key }, expected, linked.answerFields)
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
