// The origins a browser page may call the server from, read from CORS_ORIGIN.
/**
 * CORS_ORIGIN: `*`, or origins separated by commas. Unset, any origin in development and the sandbox,
 * none in production, where the pages that may call the server must be named.
 */
export function corsOrigins(value: string | undefined, production: boolean): '*' | string[] {
  if (value === undefined) return production ? [] : '*'
  // `a.example, b.example` is what people write: the spaces are not part of an origin.
  const entries = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  if (entries.length === 1 && entries[0] === '*') return '*'
  for (const entry of entries) {
    // A browser sends the origin exactly as scheme://host[:port]: anything else would never match.
    if (!URL.canParse(entry) || new URL(entry).origin !== entry) {
      throw new Error(
        'invalid configuration: CORS_ORIGIN must be * or origins separated by commas, ' +
          `e.g. https://app.example,http://localhost:5173, and ${JSON.stringify(entry)} is not an origin`,
      )
    }
  }
  return entries
}
