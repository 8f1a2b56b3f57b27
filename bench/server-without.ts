// For measurement only: the layers of the server that the ledger (ledger.ts) takes away, one at a time,
// to tell what each costs per request, and the parts buildApp is given in their place. A server built
// so lacks checks the document promises, so it is never for use.
import type { PlantRepository, SchemaDef, StoredPlant } from '@plant-store/core'
import fp from 'fastify-plugin'
import type { AppParts, BuildOptions, Config } from '../src/server/index.js'
import type { Outbox } from '../src/server/repository/outbox.js'

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
  'turn-end',
] as const

export type Layer = (typeof LAYERS)[number]

/** The layers named by `value` (comma-separated); a name that is no layer stops the start. */
export function layersWithout(value: string | undefined): ReadonlySet<Layer> {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = names.filter((name) => !(LAYERS as readonly string[]).includes(name))
  if (unknown.length > 0) {
    throw new Error(`unknown layer ${unknown.join(', ')}: the layers are ${LAYERS.join(', ')}`)
  }
  return new Set(names as Layer[])
}

type Schema = SchemaDef['schema']

/**
 * Without validation: no check, but path and query strings still become the numbers handlers read,
 * and defaults are still filled in, so that the operations run as usual.
 */
function coercingOnly({ schema, httpPart }: SchemaDef) {
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
async function constantRepository(): Promise<PlantRepository & { outbox: Outbox }> {
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
const noAuth = fp(
  async (app, { config }: { config: Config }) => {
    app.decorateRequest('principal', config.tokens.values().next().value ?? '')
  },
  { name: 'auth' },
)

/** Without rate limits: nothing is counted, and a failed authentication is never over the limit. */
const noRateLimit = fp(
  async (app) => {
    app.decorate('authFailureLimited', async () => ({ limited: false, retryAfter: 0 }))
  },
  { name: 'rate-limit' },
)

// Logging and CORS are not parts: see optionsWithout.
const partsWithout: Record<Layer, AppParts> = {
  logging: {},
  auth: { auth: noAuth },
  'rate-limit': { rateLimit: noRateLimit },
  'security-headers': { securityHeaders: false },
  cors: {},
  overload: { overloadGuard: false },
  validation: { validatorCompiler: coercingOnly },
  'int64-body': { parseJson: (text) => JSON.parse(text) },
  // Every answer's body is the same two bytes.
  serialization: { serializerCompiler: () => () => '{}' },
  store: { openRepository: constantRepository },
  'turn-end': { answersAtTurnEnd: false },
}

/** buildApp's options for the server less these layers. */
export function optionsWithout(options: BuildOptions, layers: ReadonlySet<Layer>): BuildOptions {
  return {
    ...options,
    ...(layers.has('logging') ? { logger: false } : {}),
    // No origin allowed is how the server goes without CORS: it registers nothing for it then.
    config: layers.has('cors') ? { ...options.config, corsOrigins: [] } : options.config,
    parts: Object.assign({}, options.parts, ...[...layers].map((layer) => partsWithout[layer])),
  }
}
