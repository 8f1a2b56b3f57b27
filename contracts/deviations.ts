// Where the mock, the in-process handlers, or the sandbox by design, cannot answer as the
// document says, as classes of requests: each a predicate, the statuses the target answers instead,
// and why. A case or generated request a class covers must get one of those answers, and a class
// that stops happening fails the run, so this list only ever shrinks knowingly. Nothing here may
// hide a bug of the real server: the real server has no class and cannot have one, and neither has
// the validating proxy, which passes the real server's answers on byte for byte.

import type { Case, Probe } from '@plant-store/verify/testing'

// ---- Classes of the example and fixed cases (contracts/plant-store.contract.ts) ---------------------

export interface Deviation {
  target: 'mock' | 'sandbox' | 'handlers' | 'examples'
  name: string
  /** Which cases the class covers. */
  when: (c: Case) => boolean
  /** The statuses the target answers instead, and the content type when that differs too. */
  answers: number[]
  contentType?: string
  why: string
}

export const deviations: Deviation[] = [
  // ---- The mock (`npm run mock`, asked without a Prefer header): it refuses what the server refuses
  // (its front judges requests with the server's code), and keeps nothing ----
  {
    target: 'mock',
    name: 'no state: a taken id is created again',
    when: (c) => c.status === 409,
    answers: [200],
    why: 'Prism keeps no state: it cannot know the caller already owns the plant, so a valid body gets the lowest 2xx.',
  },
  {
    target: 'mock',
    name: 'no state: a plant the caller does not have is found',
    when: (c) => c.status === 404 && c.entry !== undefined,
    answers: [200, 204],
    why: 'Prism keeps no state: every int64 id is valid to it, so it answers the lowest 2xx for any plant.',
  },
  {
    target: 'mock',
    name: 'any bearer token is accepted',
    when: (c) => c.request.auth.kind === 'unknown',
    answers: [200, 204],
    why: 'The mock knows no principals: it checks the form of the bearer token as the server does, and takes any token.',
  },
  {
    target: 'mock',
    name: 'no rate limit',
    when: (c) => c.status === 429,
    answers: [200, 204],
    why: 'Rate limits are counted per principal by the server; the mock keeps no count.',
  },

  // ---- The sandbox (`npm run sandbox`): the real server with SANDBOX=true ----
  {
    target: 'sandbox',
    name: 'any bearer token is a principal',
    when: (c) => c.request.auth.kind === 'unknown',
    // 409 for createPlant: the new principal's seed already holds plant 1, the id of the base request.
    answers: [200, 204, 409],
    why: 'By design the sandbox accepts any bearer token, each a new principal seeded with the example plants.',
  },

  // ---- The in-process handlers, examples mode: the document's examples, no state, as the mock ----
  {
    target: 'examples',
    name: 'no state: a taken id is created again',
    when: (c) => c.status === 409,
    answers: [200],
    why: 'The examples mode keeps no state: a valid body gets the first documented success, as from Prism.',
  },
  {
    target: 'examples',
    name: 'no state: a plant the caller does not have is found',
    when: (c) => c.status === 404 && c.entry !== undefined,
    answers: [200, 204],
    why: 'The examples mode keeps no state: every int64 id is found, as on Prism.',
  },
  {
    target: 'examples',
    name: 'a cursor the server did not make is accepted',
    when: (c) => c.status === 400 && /[?&]cursor=/.test(c.request.path),
    answers: [200],
    why: 'Only the server knows which cursors it made; to the examples mode a cursor is any string.',
  },
  {
    target: 'examples',
    name: 'any bearer token is accepted',
    when: (c) => c.request.auth.kind === 'unknown',
    answers: [200, 204],
    why: 'Like Prism, the examples mode checks only the form of the Authorization header.',
  },

  {
    target: 'examples',
    name: 'no rate limit',
    when: (c) => c.status === 429,
    answers: [200, 204],
    why: 'The handlers count no requests: a test that wants a 429 asks for it with Prefer or failNext.',
  },

  // ---- The in-process handlers, stateful mode: the sandbox's behaviour ----
  {
    target: 'handlers',
    name: 'no overload, no full store, no simulated failure',
    when: (c) => c.status === 500 || c.status === 503 || c.status === 507,
    answers: [200, 204, 404, 409],
    why: 'The handlers hold no process or disk to exhaust and read no X-Simulate-Fault: a test that wants a 500, 503 or 507 asks for it with failNext.',
  },
  {
    target: 'handlers',
    name: 'no rate limit',
    when: (c) => c.status === 429,
    // The repeated create finds its id taken, the repeated delete finds its plant gone.
    answers: [200, 204, 404, 409],
    why: 'The handlers count no requests: a test that wants a 429 asks for it with failNext.',
  },
  {
    target: 'handlers',
    name: 'any bearer token is a principal',
    when: (c) => c.request.auth.kind === 'unknown',
    answers: [200, 204, 409],
    why: 'Like the sandbox, the stateful handlers accept any bearer token, each a new store seeded with the example plants.',
  },
]

export function deviationFor(target: string, c: Case): Deviation | undefined {
  return deviations.find((d) => d.target === target && d.when(c))
}

// ---- Classes of generated requests (contracts/explore.contract.ts) ---------------------------------

/**
 * A class of generated requests that a target answers otherwise than the document says, with the
 * statuses it gives instead. Listed classes must each occur in a default run; the real server has
 * none and can have none.
 */
export interface ExplorationDeviation {
  target: 'mock' | 'sandbox' | 'handlers' | 'examples'
  name: string
  when: (probe: Probe, documented: number) => boolean
  /** The statuses the target answers such a request with. */
  answers: number[]
  why: string
}

export const explorationDeviations: ExplorationDeviation[] = [
  // ---- The mock: the server's refusals, the document's examples, no state ----
  {
    target: 'mock',
    name: 'no state: a plant the caller does not have is found',
    when: (probe, documented) => probe.defect === undefined && documented === 404,
    answers: [200, 204],
    why: 'Prism keeps no state: every int64 id is valid to it, so it answers the lowest 2xx for any plant.',
  },
  {
    target: 'mock',
    name: 'no state: a taken id is created again',
    when: (probe, documented) => probe.defect === undefined && documented === 409,
    answers: [200],
    why: 'Prism keeps no state: it cannot know the caller already owns the plant, so a valid body gets the lowest 2xx.',
  },
  {
    target: 'mock',
    name: 'any bearer token is accepted',
    when: (probe) => probe.defect === 'auth: unknown token',
    answers: [200, 204],
    why: 'The mock knows no principals: it checks the form of the bearer token as the server does, and takes any token.',
  },

  // ---- The sandbox: any token is a principal, by design ----
  {
    target: 'sandbox',
    name: 'any bearer token is a principal',
    when: (probe) => probe.defect === 'auth: unknown token',
    answers: [200, 204, 404, 409],
    why: 'By design the sandbox accepts any bearer token, each a new principal seeded with the example plants.',
  },

  // ---- The in-process handlers, stateful mode: the sandbox's behaviour ----
  {
    target: 'handlers',
    name: 'any bearer token is a principal',
    when: (probe) => probe.defect === 'auth: unknown token',
    answers: [200, 204, 404, 409],
    why: 'Like the sandbox, the stateful handlers accept any bearer token, each a new store seeded with the example plants.',
  },

  // ---- The in-process handlers, examples mode: the document's examples, no state ----
  {
    target: 'examples',
    name: 'no state: a plant the caller does not have is found',
    when: (probe, documented) => probe.defect === undefined && documented === 404,
    answers: [200, 204],
    why: 'The examples mode keeps no state: every int64 id is found, as on Prism.',
  },
  {
    target: 'examples',
    name: 'no state: a taken id is created again',
    when: (probe, documented) => probe.defect === undefined && documented === 409,
    answers: [200],
    why: 'The examples mode keeps no state: a valid body gets the first documented success, as from Prism.',
  },
  {
    target: 'examples',
    name: 'any bearer token is accepted',
    when: (probe) => probe.defect === 'auth: unknown token',
    answers: [200, 204],
    why: 'Like Prism, the examples mode checks only the form of the Authorization header.',
  },
  {
    target: 'examples',
    name: 'a cursor the server did not make is accepted',
    when: (probe) => probe.defect === 'query: unknown cursor',
    answers: [200],
    why: 'Only the server knows which cursors it made; to the examples mode a cursor is any string.',
  },
]
