// Where the Prism mock, the in-process handlers, or the sandbox by design, cannot answer as the
// document says, as classes of requests: each a predicate, the statuses the target answers instead,
// and why. A case or generated request a class covers must get one of those answers, and a class
// that stops happening fails the run, so this list only ever shrinks knowingly. Nothing here may
// hide a bug of the real server: the real server has no class and cannot have one, and neither has
// the validating proxy, which passes the real server's answers on byte for byte.

import type { Case } from './lib/cases.js'
import type { Probe } from './lib/probes.js'

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
  // ---- The Prism mock (`npm run mock`, asked without a Prefer header) ----
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
    name: 'a cursor the server did not make is accepted',
    when: (c) => c.status === 400 && /[?&]cursor=/.test(c.request.path),
    answers: [200],
    why: 'The cursor is an opaque string in the schema; only the server knows which cursors it made.',
  },
  {
    target: 'mock',
    name: 'a body over the size limit is accepted',
    when: (c) => c.status === 413,
    answers: [200],
    why: 'The 65536-byte limit is prose (info.description), not schema; Prism accepts bodies up to 10 MB.',
  },
  {
    target: 'mock',
    name: 'another method gets Prism’s own 405, without Allow',
    when: (c) => c.kind === 'example' && c.status === 405,
    answers: [405],
    contentType: 'application/problem+json',
    why: 'Prism answers a method the path lacks itself (NO_METHOD_MATCHED_ERROR), as problem+json and without Allow; with Prefer on the operation’s own method it gives the example.',
  },
  {
    target: 'mock',
    name: 'a path segment over the limit is an invalid id',
    when: (c) => c.status === 414,
    answers: [400],
    why: 'The 100-character segment limit is prose (info.description); Prism reads the 101 digits as an id beyond int64.',
  },
  {
    target: 'mock',
    name: 'headers over the limit get Node’s bare 431',
    when: (c) => c.status === 431,
    answers: [431],
    why: 'Node’s HTTP parser refuses them before Prism sees the request, with an empty answer, not the Error shape.',
  },
  {
    target: 'mock',
    name: 'any bearer token is accepted',
    when: (c) => c.request.auth.kind === 'unknown',
    answers: [200, 204],
    why: 'Prism checks only the form of the Authorization header (`Bearer <anything>`); no token is unknown to it.',
  },

  {
    target: 'mock',
    name: 'no rate limit',
    when: (c) => c.status === 429,
    answers: [200, 204],
    why: 'Rate limits are prose (info.description), counted by the server; Prism keeps no count.',
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

const has = (probe: Probe, feature: Probe['features'][number]) => probe.features.includes(feature)
const pathValue = (probe: Probe) => probe.path.split('?')[0]?.split('/')[2] ?? ''
const queryValue = (probe: Probe, name: string) =>
  new URLSearchParams(probe.path.split('?')[1] ?? '').get(name)

export const explorationDeviations: ExplorationDeviation[] = [
  // ---- The Prism mock: examples, no state, its own reading of numbers and media types ----
  {
    target: 'mock',
    name: 'ids beyond ±(2^53−1) are refused',
    when: (probe) => has(probe, 'id beyond 2^53'),
    answers: [400],
    why: 'Prism checks int64 with JavaScript numbers: an id past Number.MAX_SAFE_INTEGER fails its int64 format, in a path and in a body alike.',
  },
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
    when: (probe) =>
      probe.defect === 'auth: unknown token' ||
      (probe.defect === 'auth: malformed' &&
        probe.auth.kind === 'header' &&
        /^Bearer \S/.test(probe.auth.value)),
    answers: [200, 204],
    why: 'Prism checks only that the Authorization header starts with `Bearer ` and a token; no token is unknown to it.',
  },
  {
    target: 'mock',
    name: 'a cursor the server did not make is accepted',
    when: (probe) => probe.defect === 'query: unknown cursor',
    answers: [200],
    why: 'The cursor is an opaque string in the schema; only the server knows which cursors it made.',
  },
  {
    target: 'mock',
    name: 'a limit written empty or in hexadecimal is read as a number',
    when: (probe) =>
      probe.defect === 'query: not an integer' && ['', '0x10'].includes(queryValue(probe, 'limit') ?? '-'),
    answers: [200],
    why: 'Prism turns query values into numbers with JavaScript’s Number(): `` is 0 to it and `0x10` is 16, both then valid.',
  },
  {
    target: 'mock',
    name: 'an id written in another notation is read as a number',
    when: (probe) =>
      probe.defect === 'path: not an int64' &&
      ['007', '+1', '0x10', '%201', '1%20', '1.0', '1e3', '%20'].includes(pathValue(probe)),
    answers: [200, 204],
    why: 'Prism turns path values into numbers with JavaScript’s Number(): `007`, `+1`, `0x10`, ` 1`, `1.0`, `1e3` and even ` ` (0) pass as integers.',
  },
  {
    target: 'mock',
    name: 'a body over the size limit is judged by its schema alone',
    when: (probe) => probe.defect === 'body: too large',
    answers: [200, 400],
    why: 'The 65536-byte limit is prose (info.description), not schema; Prism accepts bodies up to 10 MB, and refuses one only when its padded name is also over maxLength.',
  },
  {
    target: 'mock',
    name: 'a +json media type is read as JSON',
    when: (probe) => probe.defect === 'content type: unsupported' && /\+json$/.test(probe.contentType ?? ''),
    answers: [200],
    why: 'Prism reads any `+json` media type (merge-patch, problem) as the documented application/json.',
  },
  {
    target: 'mock',
    name: 'a body without a Content-Type is a 400, not a 415',
    when: (probe) => probe.defect === 'content type: none',
    answers: [400],
    why: 'Prism reads a body without a Content-Type as no body, and answers the missing required body as invalid.',
  },
  {
    target: 'mock',
    name: 'malformed JSON gets Prism’s own error body',
    when: (probe) => probe.defect === 'body: malformed JSON',
    answers: [400],
    why: 'Prism answers malformed JSON itself with {"error":{"code":"invalid_json"}}, which is not the document’s Error.',
  },
  {
    target: 'mock',
    name: 'a string that is not Unicode text is accepted',
    when: (probe) => probe.defect === 'body: not Unicode text',
    answers: [200],
    why: 'The rule is prose (info.description), not schema: JSON Schema’s string takes a lone surrogate.',
  },
  {
    target: 'mock',
    name: 'a body sent to an operation without one is validated',
    when: (probe) => has(probe, 'body on an operation without one'),
    answers: [400],
    why: 'Prism validates whatever JSON body comes with a request against the operation, which has none to allow.',
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
