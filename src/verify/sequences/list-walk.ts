// The list as a sequence reads it: every page through Link, checked against the model's plants.
import { nextAddress } from '@plant-store/core'
import { canonical, jsonText, parseExact } from '../exact-json.js'
import type { Answer } from '../http.js'
import { judgeAnswer } from '../judge/answer.js'
import { linkLeaves, resolveLink, shownAddress } from '../judge/links.js'
import { answerOptions, EXACT, plantProblem } from '../judge/plant.js'
import type { Api } from './api.js'
import { isolationOr, Mismatch, mismatchOf } from './mismatch.js'
import type { Phase, Real } from './real.js'
import {
  expectList,
  keyText,
  type ListFilter,
  ownerHint,
  type Plant,
  type PrincipalModel,
  type StoreModel,
} from './store-model.js'

export function project(plant: Plant, fields: string[]): Plant {
  const shown: Plant = {}
  for (const field of fields) if (plant[field] !== undefined) shown[field] = plant[field]
  return shown
}

const MAX_PAGES = 200

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
 * Walks the list through every page and checks each page against the model as it is when the page is
 * read (the document's paging: a page starts after the last plant of the page before): at most
 * `limit` plants, ascending ids, no plant twice, no plant the model holds past the last one listed
 * skipped, only plants the filter keeps, and a Link exactly when more plants follow.
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
  let address: string | undefined = `${list.entry.path}${query ? `?${query}` : ''}`
  /** The page's address as messages show it. */
  let addressShown = address
  const seen: string[] = []
  const seenKeys: bigint[] = []
  const where = `${list.entry.operationId} as p${principal}${limit === undefined ? '' : ` (limit ${limit})`}${filter ? `, ${filter.name} ${jsonText(filter.value)}` : ''}`
  const judging = api.judging ?? EXACT
  for (let page = 1; address !== undefined; page++) {
    // What this page holds, by the model as it is now: the plants the filter keeps, past the last one listed.
    const last = seenKeys.at(-1)
    const expected = expectList(self, api.keyField, filter)
      .filter((plant) => last === undefined || (plant[api.keyField] as bigint) > last)
      .map((p) => project(p, list.itemFields))
    const wanted = expected.map(canonical)
    if (page > Math.min(seen.length + expected.length + 2, MAX_PAGES))
      throw new Mismatch(
        'link_conformance',
        `${where}: more than ${page - 1} pages for ${seen.length + expected.length} plants`,
      )
    const answer: Answer = await real.send(
      principal,
      list.entry,
      { method: 'GET', path: address, auth: { kind: 'principal' } },
      phase,
    )
    const through = page > 1 ? ', reached through the Link of the page before' : ''
    if (answer.status !== list.success)
      throw new Mismatch(
        page > 1 ? 'link_conformance' : 'status_code_conformance',
        `${where}: page ${page} (${addressShown}${through}) answered ${answer.status} ${answer.text}`,
      )
    const found = judgeAnswer(list.entry, answer, answerOptions(judging))
    const first = found[0]
    if (first) throw mismatchOf(`${where}: page ${page} does not conform to the document`, found, first)
    const items = parseExact(answer.text)
    if (!Array.isArray(items))
      throw new Mismatch(
        'response_schema_conformance',
        `${where}: page ${page} is not an array: ${answer.text}`,
      )
    if (items.length > pageMax)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} holds ${items.length} plants, more than ${pageMax}`,
      )
    const keys = items.map((item) => (item as Plant)[api.keyField])
    if (
      keys.some(
        (key, i) =>
          i > 0 &&
          typeof key === 'bigint' &&
          typeof keys[i - 1] === 'bigint' &&
          key <= (keys[i - 1] as bigint),
      )
    )
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} is not in ascending order of id: ${jsonText(keys)}`,
      )
    const modelShown = `the model${last === undefined ? '' : ` past ${keyText(last)}`}: [${wanted.join(', ')}]`
    for (const [i, item] of items.entries()) {
      const text = canonical(item)
      const key = (item as Plant)[api.keyField]
      const at = `page ${page}, item ${i + 1}`
      if (typeof key === 'bigint') {
        if (seenKeys.some((k) => k === key))
          throw new Mismatch(
            'link_conformance',
            `${where}: ${at} repeats plant ${keyText(key)}${through}: ${text}\n    ${modelShown}`,
          )
        const before = seenKeys.at(-1)
        if (before !== undefined && key < before)
          throw new Mismatch(
            'link_conformance',
            `${where}: ${at}: plant ${keyText(key)} after ${keyText(before)}${through}, not ascending`,
          )
      }
      const wantPlant = expected[i]
      const problem =
        wantPlant === undefined
          ? 'the model has no more plants'
          : judging.exact
            ? text === wanted[i]
              ? undefined
              : 'not the model’s next plant'
            : plantProblem(list.entry.operationId, item, wantPlant, list.itemFields, judging)
      if (problem) {
        const hint = ownerHint(model, principal, api.keyField, [item as Plant])
        const skipped = typeof key === 'bigint' && wantPlant !== undefined && wanted.includes(text)
        const check = skipped ? 'link_conformance' : page > 1 ? 'link_conformance' : 'store_conformance'
        throw new Mismatch(
          isolationOr(hint, check),
          `${where}: ${at}${through}: ${problem}${skipped ? ` (the model's ${wanted[i]} is skipped)` : ''}${hint}\n    expected ${wanted[i] ?? '(no more plants)'}\n    got      ${text}\n    ${modelShown}`,
        )
      }
      seen.push(text)
      if (typeof key === 'bigint') seenKeys.push(key)
    }
    const next = nextAddress(answer.headers.link)
    const more = expected.length > items.length
    if (next && !more)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} links to a next page, but no plants follow: ${answer.headers.link}`,
      )
    if (!next && more)
      throw new Mismatch(
        'link_conformance',
        `${where}: page ${page} has no Link, but ${expected.length - items.length} more plants follow: [${wanted.slice(items.length).join(', ')}]`,
      )
    if (next === undefined) return
    // Resolved against the address the page came from (RFC 3986 §5), whatever form the target has.
    const from = answer.url ?? address
    address = resolveLink(next, from)
    addressShown = shownAddress(address, from)
    const leaves = linkLeaves(address, from)
    if (leaves) throw new Mismatch('link_conformance', `${where}: page ${page}: ${leaves}`)
    await walk.between?.(page, [...seenKeys])
  }
}
