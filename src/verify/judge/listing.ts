// What a listing holds, by the caller's plants: the page a query asks for (the plants the filter
// keeps, in ascending order of id, at most `limit` of them) and what is wrong with a page against it.
import type { Judging, Plant } from './plant.js'
import { PLANT_FIELDS, plantProblem, shown } from './plant.js'
import type { State } from './state.js'

/** The most plants a page holds: the query's `limit`, else the document's default. */
export const pageSizeOf = (query: Record<string, string>): number => Number(query.limit ?? 20)

/** Every plant a listing with this query holds past `from`: those the filter keeps, in ascending order of id. */
export function listingOf(state: State, query: Record<string, string>, from?: bigint): Plant[] {
  return [...state.values()]
    .filter((p) => query.tag === undefined || p.tag === query.tag)
    .filter((p) => from === undefined || p.id > from)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
}

/** The page the store must answer a list request with, and whether more plants follow it. */
export function expectedPage(state: State, query: Record<string, string>, from?: bigint) {
  const limit = pageSizeOf(query)
  const all = listingOf(state, query, from)
  return { page: all.slice(0, limit), more: all.length > limit, limit, total: all.length }
}

/**
 * What is wrong with a page against the plants it should hold: its order (ids not ascending), and
 * else its contents, plant by plant.
 */
export function pageProblems(
  operationId: string,
  body: unknown[],
  expected: readonly Readonly<Record<string, unknown>>[],
  judging: Judging,
  fields: string[] = PLANT_FIELDS,
): { order?: string; contents: string[] } {
  const ids = body.map((p) => (p as Record<string, unknown> | null)?.id)
  const out = ids.findIndex(
    (id, i) =>
      i > 0 && typeof id === 'bigint' && typeof ids[i - 1] === 'bigint' && id <= (ids[i - 1] as bigint),
  )
  if (out > 0) return { order: `the page is not in ascending order of id: ${shown(ids)}`, contents: [] }
  if (body.length !== expected.length)
    return {
      contents: [
        `the page holds ${body.length} plant(s), the store ${expected.length}: ids ${shown(ids)}, the store's ${shown(expected.map((p) => p.id))}`,
      ],
    }
  const contents = expected
    .map((plant, i) => plantProblem(operationId, body[i], plant, fields, judging))
    .map((problem, i) => (problem ? `plant ${i + 1} of the page: ${problem}` : undefined))
    .filter((p): p is string => p !== undefined)
  return { contents }
}

/** The most pages a listing takes: those its plants fill, an empty last one, and one more. */
export const pagesAtMost = (page: {
  listed: readonly unknown[]
  plants: readonly unknown[]
  limit: number
}): number => Math.ceil((page.listed.length + page.plants.length) / Math.max(1, page.limit)) + 2
