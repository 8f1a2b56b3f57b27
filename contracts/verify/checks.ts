// The verifier's named checks: each promise the document makes about an answer, as a name a user can
// select (--checks) or leave out (--exclude-checks), and which check a problem found by the judging
// code belongs to.

export const CHECKS = {
  status_code_conformance: 'the status the document gives this request in the caller’s state',
  content_type_conformance: 'a content type the document declares for that status, and a body it can read',
  response_schema_conformance: 'the body valid against that status’s schema',
  error_code_conformance: 'an Error body’s `error` equal to the status',
  www_authenticate_on_401: 'WWW-Authenticate on every 401',
  response_headers_conformance: 'the headers the document declares for that status, valid',
  link_conformance: 'Link exactly when more plants follow; pages in order, with no gap or repeat',
  store_conformance: 'the plants answered are the caller’s plants as the requests so far left them',
  create_read_back: 'a created plant reads back exactly as sent, its id digit for digit',
  principal_isolation: 'one principal never sees or changes the other’s plants',
  example_conformance: 'a success answer to a named request example is that example’s response',
  webhook_conformance:
    'one signed newPlant event per create answered 200 and none for another answer, its body the document’s, its id digit for digit',
} as const

export type CheckName = keyof typeof CHECKS
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[]

// Most specific first: a problem text is matched against these in order.
const RULES: [RegExp, CheckName][] = [
  // The webhook receiver words each of its problems so: nothing else does.
  [/^event: /, 'webhook_conformance'],
  [/isolation between principals is broken|the other principal/, 'principal_isolation'],
  [/www-authenticate/i, 'www_authenticate_on_401'],
  [/reads back/, 'create_read_back'],
  [/^the Error body says error/, 'error_code_conformance'],
  [
    /^status \d+(, the document says| is not documented)|: expected \d+ \(.*\), got \d+/,
    'status_code_conformance',
  ],
  [
    /^content type |^the body is not JSON|has no documented body|^an error answer must be/,
    'content_type_conformance',
  ],
  [/^body[/ ]/, 'response_schema_conformance'],
  [/^header |documented header|^the header /, 'response_headers_conformance'],
  [
    /Link|more plants follow|no plant follows|repeats plant|a gap|not ascending|pages for|more than \d+$/,
    'link_conformance',
  ],
  [/not the example|the example’s response/, 'example_conformance'],
  [/the page should be|the body should be|not the model's|is not JSON/, 'store_conformance'],
]

/** The check a problem text (as the judging code words it) belongs to. */
export function checkOf(problem: string): CheckName {
  // A stateful mismatch that wraps the document's findings is judged by the first of them.
  const inner = /does not conform to the document:\n\s*(.*)/.exec(problem)?.[1]
  const text = inner ?? problem
  for (const [pattern, check] of RULES) if (pattern.test(text)) return check
  return 'status_code_conformance'
}

/** The checks a run keeps, from --checks and --exclude-checks; throws on a name it does not know. */
export function selectChecks(only: string[] | undefined, exclude: string[] | undefined): Set<CheckName> {
  const known = (names: string[]) => {
    for (const name of names)
      if (!(name in CHECKS)) throw new Error(`unknown check ${name} (the checks: ${CHECK_NAMES.join(', ')})`)
    return names as CheckName[]
  }
  const kept = new Set(only?.length ? known(only) : CHECK_NAMES)
  for (const name of known(exclude ?? [])) kept.delete(name)
  return kept
}
