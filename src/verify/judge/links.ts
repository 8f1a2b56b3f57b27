// A listing's Link, resolved as a client resolves it: against the address the page came from, never
// away from the store that answered it.
const NO_ORIGIN = 'http://origin.invalid'

/**
 * A Link target, in any form RFC 8288 allows (absolute, network-path, path-absolute, path-relative or
 * query-only), resolved against `from`, the address of the request that got the page (RFC 8288 §3.2,
 * RFC 3986 §5.2): an answer's `url`. Never against a base of the verifier's own, which a store mounted
 * below a proxy's prefix does not know. The result is absolute, which the senders send as it is; only
 * a `from` without an origin (an answer that does not record its address) gives back a path.
 */
export function resolveLink(target: string, from: string): string {
  const base = new URL(from, NO_ORIGIN)
  let url = new URL(target, base)
  // A store that writes absolute Links from its own configured address (`http://localhost:8080`)
  // while the verifier reaches it as 127.0.0.1:8080 names the same listener: followed there.
  if (url.origin !== base.origin && sameLoopbackListener(url, base))
    url = new URL(`${url.pathname}${url.search}`, base.origin)
  return base.origin === NO_ORIGIN && url.origin === NO_ORIGIN ? `${url.pathname}${url.search}` : url.href
}

const loopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)

/** Two addresses on this machine's loopback, with the same scheme and port: one listener by two names. */
function sameLoopbackListener(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && loopback(a.hostname) && loopback(b.hostname)
}

/**
 * Why a resolved Link is not followed, or undefined: one that leaves the origin of the page it came
 * with is not the same store's next page, and the principal's token is not sent there.
 */
export function linkLeaves(resolved: string, from: string): string | undefined {
  const base = new URL(from, NO_ORIGIN)
  const url = new URL(resolved, base)
  return url.origin === base.origin
    ? undefined
    : `the Link leads to ${url.href}, away from ${base.origin}, the store that answered the page`
}

/** A followed address as messages show it: path and query on the origin of `from`, else whole. */
export function shownAddress(address: string, from: string): string {
  const base = new URL(from, NO_ORIGIN)
  const url = new URL(address, base)
  return url.origin === base.origin ? `${url.pathname}${url.search}` : url.href
}
