// For measurement only: BENCH_WITHOUT names layers of the server that `npm run bench` takes away, one
// at a time, to tell what each costs per request. A server run so lacks checks the document promises,
// so it is never for use; unset (the default), every layer is there.
import type { PlantRepository, SchemaDef, StoredPlant } from '@plant-store/core'
import fp from 'fastify-plugin'
import type { Config } from '../config.js'
import type { Outbox } from '../repository/outbox.js'

export const LAYERS = [
  'logging',
  'auth',
  'rate-limit',
  'security-headers',
  'cors',
  'overload',
  'validation',
  'int64-body',
  'serialization',
  'store',
] as const

export type Layer = (typeof LAYERS)[number]

/** The layers a BENCH_WITHOUT value names; a name that is no layer stops the start. */
export function layersWithout(value: string | undefined): ReadonlySet<Layer> {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = names.filter((name) => !(LAYERS as readonly string[]).includes(name))
  if (unknown.length > 0) {
    throw new Error(
      `invalid configuration: BENCH_WITHOUT names ${unknown.join(', ')}; the layers are ${LAYERS.join(', ')}`,
    )
  }
  return new Set(names as Layer[])
}

type Schema = SchemaDef['schema']

/**
 * Without validation: no check, but path and query strings still become the numbers handlers read,
 * and defaults are still filled in, so that the operations run as usual.
 */
export function coercingOnly({ schema, httpPart }: SchemaDef) {
  if (httpPart !== 'params' && httpPart !== 'querystring') return () => true
  const properties = Object.entries(schema.properties ?? {}) as [string, Schema][]
  return (data: unknown) => {
    const value = { ...(data as Record<string, unknown>) }
    for (const [key, property] of properties) {
      const given = value[key]
      if (given === undefined && property.default !== undefined) value[key] = property.default
      else if (property.type === 'integer' && typeof given === 'string') {
        const n = Number(given)
        value[key] = Number.isSafeInteger(n) ? n : BigInt(given)
      }
    }
    return { value }
  }
}

/** Without the store: constant answers of the store's shapes, and no outbox. */
export async function constantRepository(): Promise<PlantRepository & { outbox: Outbox }> {
  const plant = (id: bigint): StoredPlant => ({ id: Number(id), name: 'Basil', tag: 'herb' })
  const outbox: Outbox = {
    claim: async () => [],
    attemptFailed: async () => {},
    stats: async () => ({ pending: 0, failed: 0, oldestPendingAt: undefined }),
    purgeFailed: async () => 0,
    onEvent: () => {},
  }
  return {
    outbox,
    create: async () => true,
    get: async (_owner, id) => plant(id),
    list: async (_owner, { limit, after = 0n }) =>
      Array.from({ length: limit }, (_, i) => plant(after + BigInt(i))),
    replace: async () => true,
    delete: async () => true,
    ping: async () => {},
    close: async () => {},
  }
}

/** Without authentication: every request is the first principal of AUTH_TOKENS, set with no work. */
export const noAuth = fp(
  async (app, { config }: { config: Config }) => {
    app.decorateRequest('principal', config.tokens.values().next().value ?? '')
  },
  { name: 'auth' },
)

/** Without rate limits: nothing is counted, and a failed authentication is never over the limit. */
export const noRateLimit = fp(
  async (app) => {
    app.decorate('authFailureLimited', async () => ({ limited: false, retryAfter: 0 }))
  },
  { name: 'rate-limit' },
)
