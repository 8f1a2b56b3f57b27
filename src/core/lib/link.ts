// The Link header of a page of plants (RFC 8288): `<target of the next page>; rel="next"`. Reading one
// is what clients do, the server never: in a module of its own, which mutation testing leaves out.
export { nextAddress } from './next-address.js'

/**
 * `<target>; rel="next"`. The kit's stores give a query-only reference (`?limit=2&cursor=…`): it is
 * resolved against the address of the request that got the page (RFC 8288 §3.2, RFC 3986 §5.2) and
 * keeps its path, so paging works unchanged behind a proxy or gateway that mounts the store under a
 * prefix it does not know about.
 */
export const nextLink = (target: string): string => `<${target}>; rel="next"`
