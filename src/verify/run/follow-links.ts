// A listing followed as a client follows it: from its first page through each page's Link to the
// last, every page judged as it comes. What each page must hold is the layer's to say when it reads
// the page (the store may have changed between two pages, on purpose).
import { nextAddress } from '@plant-store/core'
import type { Probe } from '../cases/probe.js'
import { bodyOf, type ConsumerView, type HttpExchange } from '../checks/exchange.js'
import type { RequestSpec } from '../http.js'
import type { Verdict } from '../judge/judge.js'
import { linkLeaves, resolveLink } from '../judge/links.js'
import { listingOf, pageSizeOf, pagesAtMost } from '../judge/listing.js'
import { PLANT_FIELDS } from '../judge/plant.js'
import type { State } from '../judge/state.js'
import type { Context } from './context.js'

export interface JudgedPage {
  exchange: HttpExchange
  verdict: Verdict
}

/**
 * Follows the Link of `first` page by page, `next` sending and judging each: the address the Link
 * leads to, the page's number and the ids listed before it. Stops after the last page, a page with
 * findings, a page that is not a list, a Link away from the store's origin (the token is not sent
 * there), or a page past the most the listing can take. Returns every page's verdict, the first's
 * included.
 */
export async function followLinks(
  first: JudgedPage,
  next: (address: string, number: number, listed: bigint[]) => Promise<JudgedPage>,
): Promise<Verdict[]> {
  const verdicts = [first.verdict]
  let { exchange, verdict } = first
  const listed: bigint[] = []
  for (;;) {
    const { page, answer, request } = exchange
    if (verdict.findings.length || !page || page.number > pagesAtMost(page)) return verdicts
    const body = bodyOf(answer)
    const link = nextAddress(answer.headers.link)
    if (!Array.isArray(body) || link === undefined) return verdicts
    const from = answer.url ?? request.path
    const address = resolveLink(link, from)
    if (linkLeaves(address, from)) return verdicts
    for (const item of body) {
      const id = (item as Record<string, unknown> | null)?.id
      if (typeof id === 'bigint') listed.push(id)
    }
    ;({ exchange, verdict } = await next(address, page.number + 1, [...listed]))
    verdicts.push(verdict)
  }
}

/**
 * A generated request's listing, its first page judged, followed to its end as the principal holding
 * `token`: each page must hold the caller's plants in `state` past the last one listed before it. A
 * consumer's request names the consumer on every page too, which it reads as it reads the first.
 */
export function followProbeListing(
  ctx: Context,
  probe: Probe,
  state: State,
  token: string,
  first: JudgedPage,
  consumer?: ConsumerView,
): Promise<Verdict[]> {
  return followLinks(first, async (address, number, listed) => {
    const request: RequestSpec = { method: 'GET', path: address, auth: { kind: 'principal' } }
    const exchange: HttpExchange = {
      kind: 'http',
      operation: probe.entry,
      request,
      answer: await ctx.subject.send(ctx.subject.baseUrl, request, `Bearer ${token}`),
      judging: ctx.judging,
      page: {
        number,
        plants: listingOf(state, probe.query, listed.at(-1)),
        limit: pageSizeOf(probe.query),
        fields: PLANT_FIELDS,
        listed,
      },
      ...(consumer ? { consumer } : {}),
    }
    return { exchange, verdict: ctx.judge(exchange) }
  })
}
