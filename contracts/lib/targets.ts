// The four targets of the contract run (real server, sandbox, Prism mock, Prism validation proxy):
// starting them, a fresh principal per case, and setting up the plants a case needs.
import * as commands from '../../scripts/lib/commands.js'
import { listAll as listPages } from '../../scripts/lib/paging.js'
import { type Started, startProcess } from '../../scripts/lib/processes.js'
import { UNKNOWN_TOKEN } from '../fixtures.js'
import type { Plant } from './cases.js'
import { contractSpecPath } from './document.js'
import { type Auth, type RequestSpec, send } from './http.js'

export type TargetName = 'server' | 'sandbox' | 'proxy' | 'mock'

export interface Target {
  name: TargetName
  url: string
  /** Where setup requests go: the server itself, or the proxy's upstream. Undefined: no state (Prism). */
  stateUrl: string | undefined
  /** Whether a new principal starts with seeded plants that a case must clear first (the sandbox). */
  seeded: boolean
  newToken(): string
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

export const authTokensEnv = serverTokens.map((token, i) => `contract-${i + 1}:${token}`).join(',')

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
  processes: Started[]
  stop(): Promise<void>
}

export async function startTargets(names: TargetName[]): Promise<Running> {
  const processes: Started[] = []
  const stop = async () => {
    await Promise.allSettled(processes.map((p) => p.stop()))
  }
  const track = async (p: Promise<Started>) => {
    const started = await p
    processes.push(started)
    return started
  }
  try {
    const want = new Set(names)
    // allSettled, not all: when one fails to start, the others must have finished starting (and be
    // tracked) before the catch below stops them.
    const settled = await Promise.allSettled([
      want.has('server') || want.has('proxy')
        ? track(
            startProcess(
              // SIMULATE_FAULTS: the 503 and 507 of every operation are reachable (X-Simulate-Fault).
              commands.server({
                env: { AUTH_TOKENS: authTokensEnv, NODE_ENV: 'test', SIMULATE_FAULTS: 'true' },
              }),
            ),
          )
        : undefined,
      want.has('sandbox')
        ? track(startProcess(commands.sandbox({ env: { NODE_ENV: 'test', SIMULATE_FAULTS: 'true' } })))
        : undefined,
      want.has('mock') ? track(startProcess(commands.mock({ spec: contractSpecPath }))) : undefined,
    ])
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed.length) throw new Error(failed.map((f) => String(f.reason)).join('\n\n'))
    const [server, sandbox, mock] = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined))
    const proxy =
      want.has('proxy') && server
        ? await track(startProcess(commands.proxy(server.url, { spec: contractSpecPath })))
        : undefined

    const targets: Running['targets'] = {}
    const unknownToken = () => `${UNKNOWN_TOKEN}-${++nextFreeToken}`
    if (server && want.has('server')) {
      targets.server = {
        name: 'server',
        url: server.url,
        stateUrl: server.url,
        seeded: false,
        newToken: takeServerToken,
        unknownToken,
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
    return { targets, processes, stop }
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
  if (target.seeded) {
    for (const plant of await listAll(base, token)) {
      const answer = await send(
        base,
        { method: 'DELETE', path: `/plants/${plant.id}`, auth: { kind: 'principal' } },
        auth,
      )
      if (answer.status !== 204)
        throw new Error(`setup: DELETE /plants/${plant.id} answered ${answer.status} ${answer.text}`)
    }
  }
  for (const plant of plants) {
    const answer = await send(
      base,
      { method: 'POST', path: '/plants', auth: { kind: 'principal' }, ...json(plant) },
      auth,
    )
    if (answer.status !== 200) {
      throw new Error(`setup: POST /plants ${JSON.stringify(plant)} answered ${answer.status} ${answer.text}`)
    }
  }
}
