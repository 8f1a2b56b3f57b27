// An answer against the one a recording has for the same request: its status exactly, its body the
// same JSON value digit for digit (another body, exactly), and a Link on both or on neither (a cursor is
// the server's own: where a Link leads is compared when the recording followed it).
import { canonical, parseExact } from '../exact-json.js'
import type { Answer } from '../http.js'

/** The recorded answer: its status, its body (the recording's ids as the new server has them), its Link. */
export interface Recorded {
  status: number
  text: string
  link: string | undefined
}

export interface Difference {
  what: 'status' | 'body' | 'link'
  recorded: string
  replayed: string
}

export function recordingDifferences(recorded: Recorded, answer: Answer): Difference[] {
  const found: Difference[] = []
  if (answer.status !== recorded.status)
    found.push({ what: 'status', recorded: String(recorded.status), replayed: String(answer.status) })
  if (!sameBody(recorded.text, answer.text))
    found.push({ what: 'body', recorded: recorded.text, replayed: answer.text })
  const link = answer.headers.link
  if ((recorded.link === undefined) !== (link === undefined))
    found.push({ what: 'link', recorded: recorded.link ?? '(none)', replayed: link ?? '(none)' })
  return found
}

/** JSON bodies are the same when their values are, digit for digit, whatever the order of keys. */
function sameBody(recorded: string, replayed: string): boolean {
  if (recorded === replayed) return true
  try {
    return canonical(parseExact(recorded)) === canonical(parseExact(replayed))
  } catch {
    return false
  }
}
