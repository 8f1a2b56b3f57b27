// Every case where Prism (as mock or as validation proxy), or the sandbox by design, cannot answer
// as the document says. The suite asserts each listed answer exactly: a deviation that stops
// happening fails the run too, so this list only ever shrinks knowingly. Nothing here may hide a
// bug of the real server: the real server has no entry and cannot have one.

export interface Deviation {
  target: 'mock' | 'proxy' | 'sandbox'
  /** Case ids as the suite names them: `operationId · example` or `operationId · generated case`. */
  cases: string[]
  /** What the target answers instead. */
  answer: { status: number; contentType?: string }
  /** What the document calls for. */
  document: { status: number }
  why: string
}

const operations = ['createPlant', 'listPlants', 'getPlant', 'replacePlant', 'deletePlant'] as const
const each = (label: string, ops: readonly string[] = operations) => ops.map((op) => `${op} · ${label}`)

export const deviations: Deviation[] = [
  // ---- The Prism mock (`npm run mock`, asked without a Prefer header) ----
  {
    target: 'mock',
    cases: ['createPlant · duplicate'],
    answer: { status: 200 },
    document: { status: 409 },
    why: 'Prism keeps no state: it cannot know the caller already owns plant 1, so a valid body gets the lowest 2xx.',
  },
  {
    target: 'mock',
    cases: ['getPlant · notFound', 'replacePlant · notFound'],
    answer: { status: 200 },
    document: { status: 404 },
    why: 'Prism keeps no state: every int64 id is valid to it, so it answers the lowest 2xx for any plant.',
  },
  {
    target: 'mock',
    cases: ['deletePlant · notFound'],
    answer: { status: 204 },
    document: { status: 404 },
    why: 'Prism keeps no state: every int64 id is valid to it, so it answers the lowest 2xx for any plant.',
  },
  {
    target: 'mock',
    cases: ['listPlants · badCursor'],
    answer: { status: 200 },
    document: { status: 400 },
    why: 'The cursor is an opaque string in the schema; only the server knows which cursors it made.',
  },
  {
    target: 'mock',
    cases: ['createPlant · tooLarge', 'replacePlant · tooLarge'],
    answer: { status: 200 },
    document: { status: 413 },
    why: 'The 65536-byte limit is prose (info.description), not schema; Prism accepts bodies up to 10 MB.',
  },
  {
    target: 'mock',
    cases: each('invalidToken', ['createPlant', 'listPlants', 'getPlant', 'replacePlant']),
    answer: { status: 200 },
    document: { status: 401 },
    why: 'Prism checks only the form of the Authorization header (`Bearer <anything>`); no token is unknown to it.',
  },
  {
    target: 'mock',
    cases: ['deletePlant · invalidToken'],
    answer: { status: 204 },
    document: { status: 401 },
    why: 'Prism checks only the form of the Authorization header (`Bearer <anything>`); no token is unknown to it.',
  },

  // ---- The sandbox (`npm run sandbox`): the real server with SANDBOX=true ----
  {
    target: 'sandbox',
    cases: each('invalidToken', ['listPlants', 'getPlant', 'replacePlant']),
    answer: { status: 200 },
    document: { status: 401 },
    why: 'By design the sandbox accepts any bearer token, each a new principal seeded with the example plants.',
  },
  {
    target: 'sandbox',
    cases: ['createPlant · invalidToken'],
    answer: { status: 409 },
    document: { status: 401 },
    why:
      'By design the sandbox accepts any bearer token as a new principal, and its seed already holds plant 1, ' +
      'the id of the base request (basil).',
  },
  {
    target: 'sandbox',
    cases: ['deletePlant · invalidToken'],
    answer: { status: 204 },
    document: { status: 401 },
    why: 'By design the sandbox accepts any bearer token, each a new principal seeded with the example plants.',
  },

  // ---- The Prism validation proxy (`npm run proxy`: --errors, --validate-request=false) ----
  {
    target: 'proxy',
    cases: [
      ...each('missingToken'),
      ...each('no token'),
      ...each('malformed Authorization (Basic scheme)'),
      ...each('malformed Authorization (Bearer without a token)'),
      ...each('malformed Authorization (token without a scheme)'),
    ],
    answer: { status: 401, contentType: 'application/problem+json' },
    document: { status: 401 },
    why:
      'Prism checks security even with --validate-request=false, and with --errors it answers a security ' +
      'violation itself (a 401 problem+json) instead of forwarding the request, so the server is not reached.',
  },
  {
    target: 'proxy',
    cases: each('malformed JSON', ['createPlant', 'replacePlant']),
    answer: { status: 400, contentType: 'application/json' },
    document: { status: 400 },
    why:
      'Prism parses a JSON body before anything else and answers malformed JSON itself with ' +
      '{"error":{"code":"invalid_json"}}, which is not the document\'s Error; the server is not reached.',
  },
  {
    target: 'proxy',
    cases: ['unknown path · GET /no-such-path', 'unknown path · GET /plants/1/leaves'],
    answer: { status: 404, contentType: 'application/problem+json' },
    document: { status: 404 },
    why: 'With --errors Prism answers a path the document lacks itself (NO_PATH_MATCHED_ERROR) instead of forwarding it.',
  },
  {
    target: 'proxy',
    cases: ['unknown method · PATCH /plants', 'unknown method · PATCH /plants/{id}'],
    answer: { status: 405, contentType: 'application/problem+json' },
    document: { status: 405 },
    why:
      'With --errors Prism answers a method the document lacks itself (NO_METHOD_MATCHED_ERROR) instead of ' +
      'forwarding it.',
  },
]

export function deviationFor(target: string, caseId: string): Deviation | undefined {
  return deviations.find((d) => d.target === target && d.cases.includes(caseId))
}
