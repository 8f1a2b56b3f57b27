// The verifier's named checks: each promise the document makes about an answer, as a name a user can
// select (--checks) or leave out (--exclude-checks). A problem is found by the code of one check and
// carries that check's name from the moment it is found (a Finding): no report, selection or proxy
// header ever guesses a check from a message's wording.

export const CHECKS = {
  status_code_conformance: 'the status the document gives this request in the caller’s state',
  positive_data_acceptance:
    'a request the document’s schemas accept, boundary values included, is not refused',
  content_type_conformance: 'a content type the document declares for that status, and a body it can read',
  response_schema_conformance: 'the body valid against that status’s schema',
  error_code_conformance: 'an Error body’s `error` equal to the status',
  www_authenticate_on_401: 'WWW-Authenticate on every 401',
  response_headers_conformance: 'the headers the document declares for that status, valid',
  link_conformance:
    'Link exactly when more plants follow; every page, filtered or not, in order, with no gap or repeat, plants created or deleted between page reads included',
  store_conformance:
    'the plants answered are the caller’s plants as the requests so far left them; a filtered page exactly those the filter keeps',
  create_read_back: 'a created plant reads back exactly as sent, its id digit for digit',
  principal_isolation: 'one principal never sees or changes the other’s plants',
  example_conformance: 'a success answer to a named request example shows what that example’s response shows',
  kit_profile_conformance:
    'with --profile kit: what the kit’s server does beyond the interface (request ids, security, cache and rate-limit headers)',
  webhook_conformance:
    'one signed newPlant event per create answered 200 and none for another answer, its body the document’s, its id digit for digit',
  consumer_reads:
    'with --consumer: every property the consumer reads, and its contract found always there, is in the answer, of the type it read',
  recording_conformance:
    'with --replay: each answer as the recording has it: its status, its body (the same JSON value, digit for digit), and a Link when the recorded one had one',
} as const

export type CheckName = keyof typeof CHECKS
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[]

/** One broken promise: the check that found it, and what it found. */
export interface Finding {
  check: CheckName
  message: string
}

export const finding = (check: CheckName, message: string): Finding => ({ check, message })

/** Tags each message a check's code returned with that check's name. */
export const findingsOf = (check: CheckName, messages: string[]): Finding[] =>
  messages.map((message) => ({ check, message }))

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
