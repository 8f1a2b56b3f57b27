// The Link header of a page of plants (RFC 8288): `<address of the next page>; rel="next"`.
const next = /^<([^>]+)>; rel="next"$/

export const nextLink = (address: string): string => `<${address}>; rel="next"`

/** The address a Link header points to as the next page, or undefined on the last page. */
export function nextAddress(header: string | null | undefined): string | undefined {
  return header ? next.exec(header)?.[1] : undefined
}
