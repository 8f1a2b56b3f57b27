// The list as a sequence reads it: every page through Link, each judged against the model's plants.
import type { HttpExchange, PageView } from '../../checks/exchange.js'
import { jsonText } from '../../exact-json.js'
import type { RequestSpec } from '../../http.js'
import { EXACT } from '../../judge/plant.js'
import { followLinks, type JudgedPage } from '../follow-links.js'
import type { Api } from './api.js'
import { isolationOf, judged } from './judged.js'
import type { Phase, Real } from './real.js'
import {
  expectList,
  type ListFilter,
  type Plant,
  type PrincipalModel,
  type StoreModel,
} from './store-model.js'

export function project(plant: Plant, fields: string[]): Plant {
  const shown: Plant = {}
  for (const field of fields) if (plant[field] !== undefined) shown[field] = plant[field]
  return shown
}

/** One walk through the list: its page size, its filter, and what it writes between two page reads. */
export interface Walk {
  limit?: number | undefined
  filter?: ListFilter | undefined
  /**
   * Called after each page that links to another, before that one is read, with the keys listed so
   * far: writes, each sent and judged against the model, which they change.
   */
  between?: ((page: number, listed: bigint[]) => Promise<void>) | undefined
}

/**
 * Walks the list through every page and judges each against the model as it is when the page is read
 * (the document's paging: a page starts after the last plant of the page before): at most `limit`
 * plants, the model's next plants the filter keeps in ascending order of id with no gap and no
 * repeat, and a Link exactly when more plants follow. Throws at the first page with anything wrong.
 */
export async function walkList(
  api: Api,
  model: StoreModel,
  real: Real,
  principal: number,
  walk: Walk,
  phase: Phase,
): Promise<void> {
  const list = api.list
  if (!list) return
  const { limit, filter } = walk
  const self = model.principals[principal] as PrincipalModel
  const pageMax =
    limit ??
    (list.entry.parameters.find((p) => p.name === list.pageSize?.name)?.schema?.default as
      | number
      | undefined) ??
    Number.POSITIVE_INFINITY
  const query = [
    ...(limit !== undefined && list.pageSize ? [`${list.pageSize.name}=${limit}`] : []),
    ...(filter ? [`${encodeURIComponent(filter.name)}=${encodeURIComponent(filter.value)}`] : []),
  ].join('&')
  const where = `${list.entry.operationId} as p${principal}${limit === undefined ? '' : ` (limit ${limit})`}${filter ? `, ${filter.name} ${jsonText(filter.value)}` : ''}`
  const judging = api.judging ?? EXACT
  // What a page holds, by the model as it is when the page is read: its plants past the last one listed.
  const pageOf = (number: number, listed: bigint[]): PageView => {
    const last = listed.at(-1)
    return {
      number,
      plants: expectList(self, api.keyField, filter)
        .filter((plant) => last === undefined || (plant[api.keyField] as bigint) > last)
        .map((plant) => project(plant, list.itemFields)),
      limit: pageMax,
      fields: list.itemFields,
      listed,
    }
  }
  const read = async (path: string, number: number, listed: bigint[]): Promise<JudgedPage> => {
    // What the walk writes between the page before and this one, judged as it goes.
    if (number > 1) await walk.between?.(number - 1, listed)
    const request: RequestSpec = { method: 'GET', path, auth: { kind: 'principal' } }
    const answer = await real.send(principal, list.entry, request, phase)
    const exchange: HttpExchange = {
      kind: 'http',
      operation: list.entry,
      request,
      answer,
      // A page reached through Link answers for the Link: its status is no request of the layer's own.
      ...(number === 1 ? { expected: { statuses: [list.success] }, store: {} } : {}),
      judging,
      page: pageOf(number, listed),
      isolation: isolationOf(model, principal),
    }
    judged(real, exchange, `${where}${number > 1 ? `, page ${number}` : ''}`)
    return { exchange, verdict: { checked: [], findings: [] } }
  }
  await followLinks(
    await read(`${list.entry.path}${query ? `?${query}` : ''}`, 1, []),
    (address, number, listed) => read(address, number, listed),
  )
}
