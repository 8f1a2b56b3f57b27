// The Link header of a page of plants (RFC 8288): `<target of the next page>; rel="next"`.
const next = /^<([^>]+)>; rel="next"$/

/**
 * `<target>; rel="next"`. The kit's stores give a query-only reference (`?limit=2&cursor=…`): it is
 * resolved against the address of the request that got the page (RFC 8288 §3.2, RFC 3986 §5.2) and
 * keeps its path, so paging works unchanged behind a proxy or gateway that mounts the store under a
 * prefix it does not know about.
 */
export const nextLink = (target: string): string => `<${target}>; rel="next"`

/**
 * The target a Link header gives as the next page, as written, or undefined on the last page. It may
 * be any URI reference: follow it as `new URL(target, addressOfTheRequest)`, never against a base of
 * your own.
 */
export function nextAddress(header: string | null | undefined): string | undefined {
  return header ? next.exec(header)?.[1] : undefined
}
