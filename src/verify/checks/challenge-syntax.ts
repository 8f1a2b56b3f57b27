// The syntax of a WWW-Authenticate value (RFC 9110, section 11.6.1, with 11.2 and 11.3): a list of
// challenges, each an auth-scheme, then a token68 or a list of auth-params `token = ( token /
// quoted-string )`, separated by commas. A client reads a challenge by it: anything past it is noise.

const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E\\x80-\\xFF]|\\\\[\\t \\x21-\\x7E\\x80-\\xFF])*"'
const OWS = '[ \\t]*'
// Sticky: each matches only where the reading stands.
const ows = new RegExp(OWS, 'y')
const authParam = new RegExp(`${TOKEN}${OWS}=${OWS}(?:${TOKEN}|${QUOTED})`, 'y')
const scheme = new RegExp(TOKEN, 'y')
const spaces = / +/y
const token68 = /[A-Za-z0-9\-._~+/]+=*/y

/** Where the value stops being challenges, said for a report; undefined when it parses. */
export function challengeSyntaxProblem(value: string): string | undefined {
  let at = 0
  const take = (pattern: RegExp): boolean => {
    pattern.lastIndex = at
    if (!pattern.test(value)) return false
    at = pattern.lastIndex
    return true
  }
  // Whether a challenge is open and takes auth-params (not one whose token68 ended it).
  let open = false
  let challenges = 0
  for (;;) {
    take(ows)
    // An empty element of the list: RFC 9110, section 5.6.1, has a recipient accept it.
    if (at < value.length && value[at] !== ',') {
      if (open && take(authParam)) {
        // another auth-param of the open challenge
      } else if (take(scheme)) {
        challenges++
        open = true
        const before = at
        if (take(spaces) && !take(authParam)) {
          if (take(token68)) open = false
          // Spaces after the scheme with nothing of the challenge after them: trailing spaces.
          else at = before
        }
      } else break
      take(ows)
    }
    if (at >= value.length) break
    if (value[at] !== ',') break
    at++
  }
  if (at < value.length)
    return `the WWW-Authenticate value is not a list of challenges from character ${at + 1} on (${JSON.stringify(value.slice(at, at + 40))}): RFC 9110, section 11.6.1`
  if (challenges === 0) return 'the WWW-Authenticate value holds no challenge: RFC 9110, section 11.6.1'
  return undefined
}
