// link_conformance: a listing has a Link exactly when more plants follow, and every page, filtered or
// not, holds the next plants in ascending order of id, with no gap and no repeat; what is wrong on a
// page reached through Link is the Link's fault.
import { nextAddress } from '@plant-store/core'
import { describeAnswer } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import { linkLeaves, resolveLink, shownAddress } from '../judge/links.js'
import { pageProblems, pagesAtMost } from '../judge/listing.js'
import { shown } from '../judge/plant.js'
import { answerCheck } from './check.js'
import { bodyOf, type HttpExchange, type PageView, statusExpected } from './exchange.js'

export const linkConformance = answerCheck({
  name: 'link_conformance',
  description:
    'Link exactly when more plants follow; every page, filtered or not, in order, with no gap or repeat, plants created or deleted between page reads included',
  appliesTo: (exchange) =>
    exchange.operation !== undefined &&
    roleOf(exchange.operation) === 'list' &&
    ((exchange.page?.number ?? 1) > 1 || statusExpected(exchange) < 300),
  run: (exchange) => (exchange.page ? pageFindings(exchange, exchange.page) : []),
})

function pageFindings(exchange: HttpExchange, page: PageView): string[] {
  const { answer, request, operation } = exchange
  const first = page.number === 1
  const from = answer.url ?? request.path
  const where = first
    ? ''
    : `page ${page.number} (${shownAddress(request.path, from)}, from the Link of the page before)`
  const at = (message: string) => (first ? message : `${where}: ${message}`)
  if (!first && (answer.status !== 200 || !answer.isJson))
    return [`${where} answered ${describeAnswer(answer)}`]
  // The first page's status and body are status_code_conformance's and the schema's to judge.
  if (first && (answer.status !== statusExpected(exchange) || !answer.isJson)) return []
  const body = bodyOf(answer)
  if (!Array.isArray(body)) return first ? [] : [at(`the answer is ${shown(body)}, not a page of plants`)]
  const total = page.listed.length + page.plants.length
  if (page.number > pagesAtMost(page))
    return [`more than ${page.number - 1} pages for ${total} plants of ${page.limit} a page`]
  const listed = new Set(page.listed)
  const again = body
    .map((p) => (p as Record<string, unknown> | null)?.id)
    .find((id): id is bigint => typeof id === 'bigint' && listed.has(id))
  if (again !== undefined) return [at(`plant ${again} was listed on an earlier page already`)]
  const { order, contents } = pageProblems(
    operation?.operationId ?? '',
    body,
    page.plants.slice(0, page.limit),
    exchange.judging,
    page.fields,
  )
  if (order) return [at(order)]
  const problems = first ? [] : contents.map(at)
  const more = page.plants.length > page.limit
  const next = nextAddress(answer.headers.link)
  if (more && next === undefined)
    problems.push(
      first
        ? `more plants follow (${total} > ${page.limit}), but there is no Link`
        : at('more plants follow, but there is no Link'),
    )
  if (!more && answer.headers.link !== undefined)
    problems.push(at(`no plant follows, but Link says ${answer.headers.link}`))
  if (next !== undefined) {
    const leaves = linkLeaves(resolveLink(next, from), from)
    if (leaves) problems.push(`page ${page.number}: ${leaves}`)
  }
  return problems
}
