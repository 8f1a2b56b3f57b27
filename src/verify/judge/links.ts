// A listing's Link, resolved and followed as a client does: against the address the page came from,
// never away from the store that answered it, each page reached judged against the store.
import { nextAddress } from '@plant-store/core'
import { type Finding, finding } from '../checks.js'
import { parseExact } from '../exact-json.js'
import { type Answer, describeAnswer } from '../http.js'
import { expectedPage, pageFindings } from './listing.js'
import type { Judging } from './plant.js'
import type { State } from './state.js'

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

/** A followed address as messages show it: path and query on the origin of the page before, else whole. */
export function shownAddress(address: string, from: string): string {
  const base = new URL(from, NO_ORIGIN)
  const url = new URL(address, base)
  return url.origin === base.origin ? `${url.pathname}${url.search}` : url.href
}

/**
 * Follows a listing's Link from its first page to its end, judging each page it reaches against the
 * store: the next plants the filter keeps, in ascending order of id, at most `limit` of them, and Link
 * exactly when more follow. What is wrong on a page reached through Link is the Link's fault.
 */
export async function pagesAfter(
  operationId: string,
  firstPath: string,
  query: Record<string, string>,
  state: State,
  first: Answer,
  judging: Judging,
  get: (path: string) => Promise<Answer>,
): Promise<Finding[]> {
  const findings: Finding[] = []
  const { total, limit } = expectedPage(state, query)
  let answer = first
  let path = firstPath
  let last = lastId(answer)
  for (let page = 2; ; page++) {
    const target = nextAddress(answer.headers.link)
    if (target === undefined || last === undefined) return findings
    if (page > Math.ceil(total / Math.max(1, limit)) + 2) {
      findings.push(
        finding('link_conformance', `more than ${page - 1} pages for ${total} plants of ${limit} a page`),
      )
      return findings
    }
    const from = answer.url ?? path
    path = resolveLink(target, from)
    const where = `page ${page} (${shownAddress(path, from)}, from the Link of the page before)`
    const leaves = linkLeaves(path, from)
    if (leaves) {
      findings.push(finding('link_conformance', `${where}: ${leaves}`))
      return findings
    }
    answer = await get(path)
    if (answer.status !== 200 || !answer.isJson) {
      findings.push(finding('link_conformance', `${where} answered ${describeAnswer(answer)}`))
      return findings
    }
    const expected = expectedPage(state, query, last)
    for (const f of pageFindings(operationId, parseExact(answer.text), expected.page, judging))
      findings.push(finding('link_conformance', `${where}: ${f.message}`))
    if (!expected.more && answer.headers.link !== undefined)
      findings.push(
        finding('link_conformance', `${where}: no plant follows, but Link says ${answer.headers.link}`),
      )
    if (expected.more && answer.headers.link === undefined)
      findings.push(finding('link_conformance', `${where}: more plants follow, but there is no Link`))
    if (findings.length) return findings
    last = lastId(answer) ?? last
  }
}

/** The id of the last plant of a page, or undefined for an empty or unreadable one. */
function lastId(answer: Answer): bigint | undefined {
  const items = answer.isJson ? parseExact(answer.text) : undefined
  const id = Array.isArray(items) ? (items.at(-1) as Record<string, unknown> | undefined)?.id : undefined
  return typeof id === 'bigint' ? id : undefined
}
