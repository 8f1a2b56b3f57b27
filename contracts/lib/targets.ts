// The targets of the contract run (the real server on SQLite and on PostgreSQL, sandbox, Prism mock,
// validating proxy, and the in-process handlers served over HTTP in both modes): starting them, with
// a receiver for the newPlant events of those that send them, a fresh principal per case, and setting
// up the plants a case needs.

import type { LoadedDocument } from '@plant-store/verify'
import {
  type Auth,
  type Endpoint,
  type Plant,
  type RequestSpec,
  send,
  type WebhookReceiver,
} from '@plant-store/verify/testing'
import * as commands from '../../scripts/lib/commands.js'
import { listAll as listPages } from '../../scripts/lib/paging.js'
import { type Cluster, startCluster } from '../../scripts/lib/postgres.js'
import { type Started, startProcess } from '../../scripts/lib/processes.js'
import { specPath } from '../../scripts/lib/spec.js'
import {
  nothingToJudge,
  sandboxHeaders,
  sandboxScopes,
  sandboxWebhookEnv,
  serverScopes,
  serverWebhookEnv,
  startReceiver,
  type WebhookTarget,
  watchedSend,
  webhookTargets,
} from './webhook-events.js'

// CONTRACT_SPEC points the suite and Prism at a draft of the document, to see what a proposed
// change would break before making it; the real server always serves spec/openapi.yaml.
export const contractSpecPath = process.env.CONTRACT_SPEC || specPath

export type TargetName = 'server' | 'postgres' | 'sandbox' | 'proxy' | 'mock' | 'handlers' | 'examples'

/** A well-formed bearer token no principal holds: each case's is this, numbered. */
export const UNKNOWN_TOKEN = 'not-a-token-anyone-holds'

/**
 * The targets of a layer that CONTRACT_TARGETS (e.g. `server,mock`) keeps, all of them without it: a run
 * narrowed while debugging says so, since CI runs them all.
 */
export function chosenTargets(all: readonly TargetName[]): TargetName[] {
  const chosen = (process.env.CONTRACT_TARGETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (chosen.length === 0) return [...all]
  const kept = all.filter((t) => chosen.includes(t))
  if (kept.length < all.length)
    console.warn(`CONTRACT_TARGETS=${chosen.join(',')}: only ${kept.join(', ')} will be tested`)
  return kept
}

/** The real server, on each of its stores: every documented response must be seen on one of them. */
export const REAL_SERVER_TARGETS: readonly TargetName[] = ['server', 'postgres']

/** Targets that answer from the document's examples alone, keeping no state: Prism and the handlers' examples mode. */
export const isStateless = (name: TargetName): boolean => name === 'mock' || name === 'examples'

export interface Target extends Endpoint {
  name: TargetName
  /** An instance of the same target whose store has stopped answering, where it has one. */
  storeDownUrl?: string
  unknownToken(): string
}

// Every case gets a principal of its own; the real server only knows the tokens it was started with.
const TOKEN_COUNT = 800
const serverTokens = Array.from({ length: TOKEN_COUNT }, (_, i) => `contract-token-${i + 1}`)
let nextServerToken = 0
let nextFreeToken = 0

function takeServerToken(): string {
  const token = serverTokens[nextServerToken++]
  if (token === undefined) throw new Error(`all ${TOKEN_COUNT} contract tokens are used: raise TOKEN_COUNT`)
  return token
}

/** Each token's principal, as AUTH_TOKENS names it. */
const serverPrincipals = new Map(serverTokens.map((token, i) => [token, `contract-${i + 1}`]))

export const authTokensEnv = [...serverPrincipals]
  .map(([token, principal]) => `${principal}:${token}`)
  .join(',')

export function authorization(target: Target, auth: Auth, token: string): string | undefined {
  switch (auth.kind) {
    case 'principal':
      return `Bearer ${token}`
    case 'none':
      return undefined
    case 'unknown':
      return `Bearer ${target.unknownToken()}`
    case 'header':
      return auth.value
  }
}

export interface Running {
  targets: Partial<Record<TargetName, Target>>
  /** The newPlant receiver of each process that sends its events to one; none when the document gives nothing to judge them by. */
  receivers: Partial<Record<WebhookTarget, WebhookReceiver>>
  processes: Started[]
  stop(): Promise<void>
}

/**
 * The real server on PostgreSQL: one instance on a throwaway cluster, and one more on a second
 * cluster that is then stopped, for the answers of an instance whose database is gone.
 */
async function startOnPostgres(
  track: (p: Promise<Started>) => Promise<Started>,
  clusters: Cluster[],
  limits: Record<string, string>,
  webhooks: Record<string, string>,
): Promise<{ server: Started; storeDown: Started }> {
  const [up, down] = await Promise.all([startCluster(), startCluster()])
  clusters.push(up, down)
  const env = (url: string) => ({
    AUTH_TOKENS: authTokensEnv,
    NODE_ENV: 'test',
    ...limits,
    DATABASE_URL: url,
  })
  const [upUrl, downUrl] = await Promise.all([up.createDatabase(), down.createDatabase()])
  const [server, storeDown] = await Promise.all([
    track(
      startProcess(
        commands.server({ name: 'real server on PostgreSQL', env: { ...env(upUrl), ...webhooks } }),
      ),
    ),
    // No receiver: a store that is down creates nothing, and its answers are judged as answers alone.
    track(startProcess(commands.server({ name: 'real server, its PostgreSQL stopped', env: env(downUrl) }))),
  ])
  await down.stopFast()
  return { server, storeDown }
}

export interface TargetOptions {
  /** RATE_LIMIT_MAX of the real server and the sandbox, so that a case can spend it; else never reached. */
  rateLimitMax?: number
  /** HEADERS_TIMEOUT_MS of the real server and the sandbox, so that a stalled request is answered soon. */
  headersTimeoutMs?: number
}

/** Starts the named targets; `loaded`, the document under test, is what their newPlant events are judged by. */
export async function startTargets(
  names: TargetName[],
  loaded: LoadedDocument,
  options: TargetOptions = {},
): Promise<Running> {
  const limits = {
    ...commands.generousLimits,
    // The 500, 503 and 507 of every operation are reachable through X-Simulate-Fault (the verifier's document-prose.ts).
    SIMULATE_FAULTS: 'true',
    ...(options.rateLimitMax === undefined ? {} : { RATE_LIMIT_MAX: String(options.rateLimitMax) }),
    ...(options.headersTimeoutMs === undefined
      ? {}
      : { HEADERS_TIMEOUT_MS: String(options.headersTimeoutMs) }),
  }
  const processes: Started[] = []
  const clusters: Cluster[] = []
  const receivers: Running['receivers'] = {}
  const stop = async () => {
    await Promise.allSettled(processes.map((p) => p.stop()))
    await Promise.allSettled(clusters.map((c) => c.destroy()))
    // Closed already where a layer judged its events; here after one that did not get that far.
    await Promise.allSettled(Object.values(receivers).map((r) => r.close()))
  }
  const track = async (p: Promise<Started>) => {
    const started = await p
    processes.push(started)
    return started
  }
  try {
    const want = new Set(names)
    // A receiver per process that sends events, listening before the process starts: its URL is in the
    // process's environment.
    const senders = webhookTargets(names)
    const inSandbox = sandboxScopes()
    if (senders.length > 0) {
      const why = nothingToJudge(loaded)
      if (why) console.warn(`newPlant events are not judged: ${why}`)
      else
        await Promise.all(
          senders.map(async (name) => {
            const scopes = name === 'sandbox' ? inSandbox : serverScopes(serverPrincipals)
            receivers[name] = await startReceiver(loaded, scopes)
          }),
        )
    }
    const webhookEnv = (name: WebhookTarget): Record<string, string> => {
      const receiver = receivers[name]
      if (!receiver) return {}
      return name === 'sandbox' ? sandboxWebhookEnv : serverWebhookEnv(receiver, serverPrincipals)
    }
    // allSettled, not all: when one fails to start, the others must have finished starting (and be
    // tracked) before the catch below stops them.
    const settled = await Promise.allSettled([
      want.has('server') || want.has('proxy')
        ? track(
            startProcess(
              commands.server({
                env: { AUTH_TOKENS: authTokensEnv, NODE_ENV: 'test', ...limits, ...webhookEnv('server') },
              }),
            ),
          )
        : undefined,
      want.has('sandbox')
        ? track(
            startProcess(
              commands.sandbox({ env: { NODE_ENV: 'test', ...limits, ...webhookEnv('sandbox') } }),
            ),
          )
        : undefined,
      want.has('mock') ? track(startProcess(commands.mock({ spec: contractSpecPath }))) : undefined,
      want.has('handlers') ? track(startProcess(commands.handlers('stateful'))) : undefined,
      want.has('examples') ? track(startProcess(commands.handlers('examples'))) : undefined,
      want.has('postgres') ? startOnPostgres(track, clusters, limits, webhookEnv('postgres')) : undefined,
    ])
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed.length) throw new Error(failed.map((f) => String(f.reason)).join('\n\n'))
    // Nothing was rejected (checked above): each is its value, or undefined when not wanted.
    const [server, sandbox, mock, handlers, examples, onPostgres] = settled.map((s) =>
      s.status === 'fulfilled' ? s.value : undefined,
    ) as [
      Started | undefined,
      Started | undefined,
      Started | undefined,
      Started | undefined,
      Started | undefined,
      Awaited<ReturnType<typeof startOnPostgres>> | undefined,
    ]
    const proxy =
      want.has('proxy') && server
        ? await track(startProcess(commands.proxy(server.url, { spec: contractSpecPath })))
        : undefined

    // Every request to a process with a receiver, through any target that reaches it, is shown to
    // the receiver: the creates among them are what its events are judged against.
    const watched = (name: WebhookTarget, urls: string[]): Pick<Target, 'send'> => {
      const receiver = receivers[name]
      if (!receiver) return {}
      const headers = name === 'sandbox' ? sandboxHeaders(receiver, inSandbox) : undefined
      return { send: watchedSend(receiver, urls, headers) }
    }
    const targets: Running['targets'] = {}
    const unknownToken = () => `${UNKNOWN_TOKEN}-${++nextFreeToken}`
    // The proxy's creates are its real server's: one receiver sees the requests of both.
    const toServer = server ? watched('server', [server.url, ...(proxy ? [proxy.url] : [])]) : {}
    if (server && want.has('server')) {
      targets.server = {
        name: 'server',
        url: server.url,
        stateUrl: server.url,
        seeded: false,
        newToken: takeServerToken,
        unknownToken,
        ...toServer,
      }
    }
    if (onPostgres) {
      targets.postgres = {
        name: 'postgres',
        url: onPostgres.server.url,
        stateUrl: onPostgres.server.url,
        storeDownUrl: onPostgres.storeDown.url,
        seeded: false,
        newToken: takeServerToken,
        unknownToken,
        ...watched('postgres', [onPostgres.server.url]),
      }
    }
    if (proxy && server) {
      targets.proxy = {
        name: 'proxy',
        url: proxy.url,
        stateUrl: server.url,
        seeded: false,
        newToken: takeServerToken,
        unknownToken,
        ...toServer,
      }
    }
    if (sandbox) {
      // Any token is a principal in the sandbox: a new string is a new, freshly seeded store.
      const fresh = () => `sandbox-token-${++nextFreeToken}`
      targets.sandbox = {
        name: 'sandbox',
        url: sandbox.url,
        stateUrl: sandbox.url,
        seeded: true,
        newToken: fresh,
        unknownToken,
        ...watched('sandbox', [sandbox.url]),
      }
    }
    if (handlers) {
      // The stateful handlers keep a store per token, seeded as the sandbox's are.
      targets.handlers = {
        name: 'handlers',
        url: handlers.url,
        stateUrl: handlers.url,
        seeded: true,
        newToken: () => `handlers-token-${++nextFreeToken}`,
        unknownToken,
      }
    }
    if (examples) {
      // The handlers' examples mode answers from the document alone, as the mock does.
      targets.examples = {
        name: 'examples',
        url: examples.url,
        stateUrl: undefined,
        seeded: false,
        newToken: () => `examples-token-${++nextFreeToken}`,
        unknownToken,
      }
    }
    if (mock) {
      targets.mock = {
        name: 'mock',
        url: mock.url,
        stateUrl: undefined,
        seeded: false,
        newToken: () => `mock-token-${++nextFreeToken}`,
        unknownToken,
      }
    }
    return { targets, receivers, processes, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

const json = (body: unknown): Pick<RequestSpec, 'contentType' | 'body'> => ({
  contentType: 'application/json',
  body: JSON.stringify(body),
})

/** Lists every plant of a principal, following the Link header from page to page. */
export function listAll(baseUrl: string, token: string): Promise<Plant[]> {
  return listPages<Plant>(baseUrl, '/plants?limit=100', { authorization: `Bearer ${token}` }, 100)
}

/**
 * Makes the case's principal own exactly the given plants (on a seeded sandbox principal, the seed
 * is removed first), through the API itself. Throws with the failing request and answer.
 */
export async function setUpPlants(target: Target, token: string, plants: Plant[]): Promise<void> {
  const base = target.stateUrl
  if (!base) return
  const auth = `Bearer ${token}`
  const sender = target.send ?? send
  if (target.seeded) {
    for (const plant of await listAll(base, token)) {
      const answer = await sender(
        base,
        { method: 'DELETE', path: `/plants/${plant.id}`, auth: { kind: 'principal' } },
        auth,
      )
      if (answer.status !== 204)
        throw new Error(`setup: DELETE /plants/${plant.id} answered ${answer.status} ${answer.text}`)
    }
  }
  for (const plant of plants) {
    const answer = await sender(
      base,
      { method: 'POST', path: '/plants', auth: { kind: 'principal' }, ...json(plant) },
      auth,
    )
    if (answer.status !== 200) {
      throw new Error(`setup: POST /plants ${JSON.stringify(plant)} answered ${answer.status} ${answer.text}`)
    }
  }
}
