// The sequence model's commands, which fast-check's model-based testing (fc.commands, fc.asyncModelRun;
// run.ts) runs against a target and the model of store-model.ts: a create, each operation the
// create's links name (api.ts), and the list; with the arbitraries that draw them.
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import fc from 'fast-check'
import { flatten, type JsonSchema } from '../document.js'
import { jsonText } from '../exact-json.js'
import type { RequestSpec } from '../http.js'
import { NEAR_MISSES, type NearMiss, nearMiss } from '../requests/filter-values.js'
import { type Api, type LinkedOperation, SMALL_PAGES } from './api.js'
import { keyArbitrary, valueArbitrary } from './arbitraries.js'
import { atPointer } from './json-pointer.js'
import { walkList } from './list-walk.js'
import { verify } from './mismatch.js'
import type { Phase, Real } from './real.js'
import {
  expectCreate,
  expectLinked,
  expectList,
  keyText,
  type ListFilter,
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

/** Where a list's filter value comes from: a value the principal's plants hold, as it is or a near miss of it. */
export interface FilterSource {
  name: string
  /** Which of the values held (its index, modulo their count). */
  held: number
  form: 'exact' | NearMiss
  /** The value to start from when the principal's plants hold none. */
  fallback: string
  maxLength: number | undefined
}

/**
 * A write between two page reads, its key chosen against the walk so far: a create just below the
 * last plant listed (a store that pages by position then shows a plant twice) or just past it, or a
 * delete of a plant the sequence created, listed already (one paging by position then skips one) or
 * not yet.
 */
export type PageWrite =
  | { kind: 'create'; below: boolean }
  | { kind: 'delete'; listed: boolean; index: number }

export class ListCommand implements Command {
  constructor(
    readonly api: Api,
    readonly principal: number,
    readonly limit: number | undefined,
    readonly filter: FilterSource | undefined = undefined,
    /** What to write after each page (the first entry after page 1), and a plant's body to write. */
    readonly writes: { after: PageWrite[][]; body: Plant } | undefined = undefined,
    readonly avoid: ReadonlySet<bigint> = new Set(),
  ) {}
  check = () => true
  async run(model: StoreModel, real: Real): Promise<void> {
    const { api, limit, writes } = this
    const self = principalOf(model, this.principal)
    const filter = this.filter && { name: this.filter.name, value: filterValue(self, this.filter) }
    // A walk that writes has a page after the first: it creates the plants that takes, if need be.
    if (writes && limit !== undefined) {
      const from = (writes.body[api.keyField] as bigint) - 1n
      for (let n = expectList(self, api.keyField, filter).length; n <= limit; n++)
        if (!(await this.create(model, real, writes.body, from, 1n, filter))) break
    }
    const between = async (page: number, listed: bigint[]) => {
      for (const write of writes?.after[page - 1] ?? []) await this.write(write, model, real, listed, filter)
    }
    await walkList(api, model, real, this.principal, { limit, filter, between }, 'command')
  }

  /** Creates a plant at the nearest free key past `from` (`step` the direction), kept by the filter. */
  private async create(
    model: StoreModel,
    real: Real,
    body: Plant,
    from: bigint,
    step: bigint,
    filter: ListFilter | undefined,
  ): Promise<boolean> {
    const { api, principal } = this
    const key = freeKey(principalOf(model, principal), from, step, this.avoid)
    if (key === undefined) return false
    const kept = { ...body, ...(filter ? { [filter.name]: filter.value } : {}), [api.keyField]: key }
    await new CreateCommand(api, principal, kept).run(model, real)
    return true
  }

  private async write(
    write: PageWrite,
    model: StoreModel,
    real: Real,
    listed: bigint[],
    filter: ListFilter | undefined,
  ): Promise<void> {
    const { api, principal } = this
    const self = principalOf(model, principal)
    const last = listed.at(-1)
    if (last === undefined) return
    if (write.kind === 'create') {
      await this.create(model, real, this.writes?.body ?? {}, last, write.below ? -1n : 1n, filter)
      return
    }
    const remove = api.linked.find((l) => l.entry.method === 'delete')
    // Only a plant this sequence created: never one a server under test's principal had.
    const ours = new Set(self.created.map((body) => keyText(body[api.keyField] as bigint)))
    const keys = [...self.plants.values()]
      .map((plant) => plant[api.keyField] as bigint)
      .filter((key) => ours.has(keyText(key)) && key <= last === write.listed)
    const key = keys[write.index % Math.max(1, keys.length)]
    if (!remove || key === undefined) return
    await followLink(api, remove, model, real, principal, key, undefined, 'command')
  }

  // The plan, resolved against the model only as it runs: the requests of the report show the values.
  toString = () => {
    const plan = [
      ...(this.limit === undefined ? [] : [`limit ${this.limit}`]),
      ...(this.filter
        ? [
            `${this.filter.name} ${this.filter.form === 'exact' ? 'as held' : `a near miss (${this.filter.form}) of one held`}`,
          ]
        : []),
      ...(this.writes ? ['with a page after the first'] : []),
      ...(this.writes?.after ?? []).map(
        (writes, i) =>
          `after page ${i + 1}: ${writes.map((w) => (w.kind === 'create' ? `create ${w.below ? 'below' : 'past'} the last listed` : `delete ${w.listed ? 'a listed' : 'an unlisted'} plant`)).join(', ')}`,
      ),
    ]
    return `${this.api.list?.entry.operationId}(p${this.principal}${plan.map((p) => `, ${p}`).join('')})`
  }
}

/** The value a filter asks for: one the principal's plants hold, or a near miss of one. */
function filterValue(self: PrincipalModel, source: FilterSource): string {
  const held = [
    ...new Set(
      [...self.plants.values()].map((p) => p[source.name]).filter((v): v is string => typeof v === 'string'),
    ),
  ]
  const { form, maxLength } = source
  const values =
    form === 'exact'
      ? held
      : held.map((v) => nearMiss(v, form, maxLength)).filter((v): v is string => v !== undefined)
  const fallback = form === 'exact' ? source.fallback : nearMiss(source.fallback, form, maxLength)
  return values[source.held % Math.max(1, values.length)] ?? fallback ?? source.fallback
}

/** The nearest key past `from` in the direction `step` that the principal does not hold, nor avoids. */
function freeKey(self: PrincipalModel, from: bigint, step: bigint, avoid: ReadonlySet<bigint>) {
  for (let key = from + step, tries = 0; tries < 64; key += step, tries++) {
    if (key < INT64_MIN || key > INT64_MAX) return undefined
    if (!self.plants.has(keyText(key)) && !avoid.has(key)) return key
  }
  return undefined
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
  // A linked body sometimes carries the create's key, which its own schema does not name (a
  // replace's `id`): the store must ignore it, and the plant stays at the key the link gave.
  const linkedBody = (schema: JsonSchema) =>
    fc
      .tuple(valueArbitrary(schema) as fc.Arbitrary<Plant>, fc.option(key, { nil: undefined, freq: 2 }))
      .map(([body, other]) =>
        other === undefined || api.keyField in flatten(schema).properties
          ? body
          : { ...body, [api.keyField]: other },
      )
  const linked = api.linked.map((l) =>
    fc
      .record({
        principal,
        source,
        body: l.bodySchema ? linkedBody(l.bodySchema) : fc.constant(undefined),
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
    // Half the lists filtered: by a value held, or one that differs from it as loose filters blur them.
    const filter: fc.Arbitrary<FilterSource | undefined> = list.filters.length
      ? fc.oneof(
          fc.constant(undefined),
          fc.oneof(
            ...list.filters.map((f) =>
              fc.record({
                name: fc.constant(f.name),
                held: fc.nat(24),
                form: fc.constantFrom<FilterSource['form']>('exact', 'exact', ...NEAR_MISSES),
                fallback: valueArbitrary(f.schema) as fc.Arbitrary<string>,
                maxLength: fc.constant(f.schema.maxLength as number | undefined),
              }),
            ),
          ),
        )
      : fc.constant(undefined)
    // Half the lists write between page reads: what a page promises then is the document's too.
    const write: fc.Arbitrary<PageWrite> = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), below: fc.boolean() }),
      fc.record({ kind: fc.constant('delete' as const), listed: fc.boolean(), index: fc.nat(24) }),
    )
    const writes = fc.record({
      after: fc.array(fc.array(write, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }),
      body: createBody,
    })
    // The smallest pages when writing, so that most walks have a page after the first.
    const smallest = size ? fc.integer({ min: size.min, max: Math.min(size.max, size.min + 1) }) : limit
    arbitraries.push(
      fc
        .oneof(
          fc.record({ principal, limit, filter, writes: fc.constant(undefined) }),
          fc.record({ principal, limit: smallest, filter, writes }),
        )
        .map(
          ({ principal, limit, filter, writes }) =>
            new ListCommand(api, principal, limit, filter, writes, avoid),
        ),
    )
  }
  return arbitraries
}
