// Reading the Link header of a page of plants (RFC 8288), as the verifier and the recorded contracts do.
const next = /^<([^>]+)>; rel="next"$/

/**
 * The target a Link header gives as the next page, as written, or undefined on the last page. It may
 * be any URI reference: follow it as `new URL(target, addressOfTheRequest)`, never against a base of
 * your own.
 */
export function nextAddress(header: string | null | undefined): string | undefined {
  return header ? next.exec(header)?.[1] : undefined
}
