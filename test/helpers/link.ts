// A page's Link followed as a client follows it, for tests that reach the app through inject: the
// target resolved against the address of the request that got the page (RFC 8288 §3.2, RFC 3986
// §5.2), given back as the path and query that inject takes.
import { nextAddress } from '@plant-store/core'

export function following(link: unknown, from: string): string | undefined {
  const target = nextAddress(typeof link === 'string' ? link : undefined)
  if (target === undefined) return undefined
  const url = new URL(target, new URL(from, 'http://store.test'))
  return `${url.pathname}${url.search}`
}
