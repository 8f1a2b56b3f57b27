// Requests in a consumer's own shape (--consumer): for each operation of its contract that the document
// has, the parameters and body fields it sent, each value drawn within the bounds its own requests
// reached: one request at every lower bound (the optional fields left out), one at every upper bound
// (all of them in), then requests drawn between. An opaque cursor is the server's to make, never drawn.
import {
  type ConsumerContract,
  type ContractOperation,
  type JsonSchema as ContractSchema,
  schemaTypes,
} from '@plant-store/core'
import fc from 'fast-check'
import { stringify } from 'lossless-json'
import type { OperationEntry } from '../document.js'
import { JSON_TYPE, type Probe } from './probe.js'

/** Where in its bounds a drawn value lies. */
type Reach = 'lowest' | 'highest' | 'any'

export interface ConsumerPlan {
  /** The probes, operation by operation, each with the contract operation it came from. */
  probes: { probe: Probe; contract: ContractOperation }[]
  /** The contract's operations the document does not have, or whose requests it does not know. */
  missing: string[]
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz')
const big = (value: unknown, fallback: bigint) =>
  typeof value === 'bigint' ? value : typeof value === 'number' ? BigInt(Math.trunc(value)) : fallback
const count = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback)

/** A value within what the consumer sent at this place, at its lowest, its highest or anywhere between. */
export function drawValue(schema: ContractSchema, reach: Reach): fc.Arbitrary<unknown> {
  const types = schemaTypes(schema)
  if (types.length > 1) {
    const pick = (type: string) => drawValue({ ...schema, type }, reach)
    return reach === 'any'
      ? fc.oneof(...types.map(pick))
      : pick(types[reach === 'lowest' ? 0 : types.length - 1] ?? '')
  }
  const choose = <T>(low: T, high: T, any: fc.Arbitrary<T>) =>
    reach === 'lowest' ? fc.constant(low) : reach === 'highest' ? fc.constant(high) : any
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return choose(schema.enum[0], schema.enum.at(-1), fc.constantFrom(...schema.enum))
  if (schema.const !== undefined) return fc.constant(schema.const)
  switch (types[0]) {
    case 'integer': {
      const [low, high] = [big(schema.minimum, 0n), big(schema.maximum, 0n)]
      return choose(low, high, fc.bigInt(low, high))
    }
    case 'number': {
      const [low, high] = [count(schema.minimum, 0), count(schema.maximum, 0)]
      return choose(low, high, fc.double({ min: low, max: high, noNaN: true }))
    }
    case 'string': {
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern))
      const [low, high] = [count(schema.minLength, 0), count(schema.maxLength, 0)]
      const of = (min: number, max: number) => fc.string({ unit: letters, minLength: min, maxLength: max })
      return reach === 'lowest' ? of(low, low) : reach === 'highest' ? of(high, high) : of(low, high)
    }
    case 'boolean':
      return choose(false, true, fc.boolean())
    case 'array': {
      const items = (schema.items ?? {}) as ContractSchema
      const [low, high] = [count(schema.minItems, 0), count(schema.maxItems, 0)]
      const length = reach === 'lowest' ? low : reach === 'highest' ? high : undefined
      return length === undefined
        ? fc.array(drawValue(items, 'any'), { minLength: low, maxLength: high })
        : fc.array(drawValue(items, reach), { minLength: length, maxLength: length })
    }
    case 'object':
      return drawFields((schema.properties ?? {}) as Record<string, ContractSchema>, schema.required, reach)
    default:
      return fc.constant(null)
  }
}

/** An object of the fields the consumer sent: those it always sent, and the others as `reach` has it. */
function drawFields(
  fields: Record<string, ContractSchema>,
  required: unknown,
  reach: Reach,
): fc.Arbitrary<Record<string, unknown>> {
  const always = new Set(Array.isArray(required) ? (required as string[]) : [])
  const entries = Object.entries(fields).map(([name, schema]) => {
    const value = drawValue(schema, reach).map((v): [string, unknown] => [name, v])
    if (always.has(name) || reach === 'highest') return value
    return reach === 'lowest' ? fc.constant(undefined) : fc.option(value, { nil: undefined })
  })
  return fc
    .tuple(...entries)
    .map((pairs) => Object.fromEntries(pairs.filter((p): p is [string, unknown] => p !== undefined)))
}

/** The probes of a contract: per operation, its lowest and highest requests and `perOperation` between. */
export function consumerProbes(
  contract: ConsumerContract,
  operations: OperationEntry[],
  perOperation: number,
  seed: number,
): ConsumerPlan {
  const plan: ConsumerPlan = { probes: [], missing: [] }
  for (const [i, [path, item]] of Object.entries(contract.paths).entries()) {
    for (const [method, operation] of Object.entries(item) as [string, ContractOperation][]) {
      const entry = operations.find((e) => e.method === method && e.path === path)
      const name = `${operation.operationId} (${method.toUpperCase()} ${path})`
      if (!entry) {
        plan.missing.push(`${name}, which the consumer calls: the document has no such operation`)
        continue
      }
      if (!operation.parameters) {
        plan.missing.push(`${name}: the document refused every request the consumer made to it`)
        continue
      }
      const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema
      const draw = (reach: Reach) =>
        fc.record({
          parameters: drawFields(
            Object.fromEntries(
              operation.parameters
                ?.filter((p) => p.name !== 'cursor')
                .map((p) => [`${p.in}:${p.name}`, p.schema]) ?? [],
            ),
            operation.parameters?.filter((p) => p.required).map((p) => `${p.in}:${p.name}`),
            reach,
          ),
          body:
            body && (operation.requestBody?.required || reach !== 'lowest')
              ? drawValue(body, reach)
              : fc.constant(undefined),
        })
      const samples = [
        ...fc.sample(draw('lowest'), { numRuns: 1, seed }),
        ...fc.sample(draw('highest'), { numRuns: 1, seed }),
        ...fc.sample(draw('any'), { numRuns: perOperation, seed: seed + i }),
      ]
      for (const { parameters, body: value } of samples)
        plan.probes.push({ probe: probeOf(entry, parameters, value), contract: operation })
    }
  }
  return plan
}

/** The request the drawn values make: path parameters in the path, the query string, the body as JSON. */
function probeOf(entry: OperationEntry, parameters: Record<string, unknown>, body: unknown): Probe {
  let id: bigint | undefined
  const query = new URLSearchParams()
  let path = entry.path
  for (const [key, value] of Object.entries(parameters)) {
    const [where, name = ''] = key.split(':')
    if (where === 'path') {
      path = path.replace(`{${name}}`, encodeURIComponent(String(value)))
      if (typeof value === 'bigint') id = value
    } else if (where === 'query')
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item))
  }
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  if (id === undefined && typeof fields.id === 'bigint') id = fields.id
  const search = query.toString()
  return {
    entry,
    defect: undefined,
    features: [],
    method: entry.method.toUpperCase(),
    path: search ? `${path}?${search}` : path,
    auth: entry.secured ? { kind: 'principal' } : { kind: 'none' },
    ...(body === undefined ? {} : { contentType: JSON_TYPE, body: stringify(body) ?? '', bodyValue: body }),
    ...(id === undefined ? {} : { id }),
    query: Object.fromEntries(query),
    covers: 'the consumer’s request',
  }
}
