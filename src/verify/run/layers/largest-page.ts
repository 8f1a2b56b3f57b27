// Answers at the document's largest: one more plant than the largest page the document allows, each
// with the longest name and tag its schema allows, listed at that page size and read through Link to
// the end. A store must answer every size the document allows whole, whatever its buffers: at most a
// page's plants in each answer, a Link while more follow whose cursor a client may send back (within
// the cursor's maxLength), every name and tag as it was created. Then that first page read a few
// times at once, each on a connection of its own: reads that meet in the store answer as one alone.
import { nextAddress } from '@plant-store/core'
import type { Finding } from '../../checks/check.js'
import { flatten, type JsonSchema, type OperationEntry } from '../../document.js'
import { parseExact } from '../../exact-json.js'
import { type Answer, describeAnswer, describeRequest, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import { linkLeaves, resolveLink } from '../../judge/links.js'
import { parametersOf } from '../../report/coverage.js'
import type { Context } from '../context.js'
import { sendTogether } from '../together.js'

/** Where the run's largest plants' ids begin, clear of every other layer's. */
const FIRST_ID = 30_000n
/** A plant in four UTF-8 bytes (two UTF-16 units): the longest answer a string of its length can be. */
const FILL = '🌿'
/** How many reads of the first page go at once: enough to meet in the store, cheap beside the pages. */
const TOGETHER = 4

/** What the largest page needs of the document: its size, and the longest name and tag. */
interface Largest {
  create: OperationEntry
  list: OperationEntry
  limit: number
  name: number
  tag: number
}

function largestOf(ctx: Context): Largest | undefined {
  const create = ctx.loaded.operations.find((e) => roleOf(e) === 'create')
  const list = ctx.list
  const limit = list?.parameters.find((p) => p.in === 'query' && p.name === 'limit')?.schema?.maximum
  const takesTag = list?.parameters.some((p) => p.in === 'query' && p.name === 'tag')
  const body = create?.operation.requestBody?.content['application/json']?.schema as JsonSchema | undefined
  if (!create || !list || typeof limit !== 'number' || !takesTag || !body) return undefined
  const { properties } = flatten(body)
  const name = properties.name?.maxLength
  const tag = properties.tag?.maxLength
  if (typeof name !== 'number' || typeof tag !== 'number') return undefined
  return { create, list, limit, name, tag }
}

/** A string of exactly `length` characters, `lead` first and FILL after. */
const longest = (lead: string, length: number) =>
  `${lead}${FILL.repeat(Math.max(0, length - [...lead].length))}`

/** The requests the largest page sends: a create and a delete per plant, its two pages, and the reads together. */
export function largestPageRequests(ctx: Context): number {
  const largest = largestOf(ctx)
  return largest ? 2 * (largest.limit + 1) + 2 + TOGETHER : 0
}

/**
 * The largest page and the one after it: limit+1 plants of the first principal's, tagged with a tag
 * of the run's own at the tag's maxLength and named at the name's, read at `limit` through Link.
 */
export async function largestPage(ctx: Context): Promise<void> {
  const { subject, results, options } = ctx
  const largest = largestOf(ctx)
  if (!largest) return
  if (options.readOnly) {
    results.notes.push('not exercised: the largest page (--read-only: it creates plants)')
    return
  }
  const { create, limit } = largest
  const tag = longest(`largest-${ctx.idBase}-`, largest.tag)
  const plants = Array.from({ length: limit + 1 }, (_, i) => ({
    id: ctx.idBase + FIRST_ID + BigInt(i),
    name: longest(`Verifier largest plant ${i} `, largest.name),
  }))
  const made: bigint[] = []
  try {
    ctx.progress(`generated: the largest page, creating ${plants.length} plants`)
    for (const plant of plants) {
      const answer = await subject.send(
        subject.baseUrl,
        {
          method: 'POST',
          path: create.path,
          auth: { kind: 'principal' },
          contentType: 'application/json',
          body: `{"id":${plant.id},"name":${JSON.stringify(plant.name)},"tag":${JSON.stringify(tag)}}`,
        },
        subject.authorization(0),
      )
      if (answer.status !== 200) {
        results.notes.push(
          `not exercised: the largest page (creating plant ${plant.id} answered ${answer.status})`,
        )
        return
      }
      made.push(plant.id)
    }
    const names = new Map(plants.map((p) => [String(p.id), p.name]))
    await readPages(ctx, largest, tag, names)
    await readTogether(ctx, largest, tag)
  } finally {
    for (const id of made) await ctx.remove(0, id)
  }
}

const firstPage = ({ list, limit }: Largest, tag: string) =>
  `${list.path}?limit=${limit}&tag=${encodeURIComponent(tag)}`

/** Reads the plants by their tag, `limit` a page, through Link to the end, each page judged. */
async function readPages(
  ctx: Context,
  largest: Largest,
  tag: string,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  const { list, limit } = largest
  const { subject, results } = ctx
  const seen = new Set<string>()
  let address = firstPage(largest, tag)
  // Two pages hold them all; a third is a Link that should not have been.
  for (let page = 1; page <= 3; page++) {
    ctx.progress(`generated: the largest page, reading page ${page}`)
    const request: RequestSpec = { method: 'GET', path: address, auth: { kind: 'principal' } }
    const answer = await subject.send(subject.baseUrl, request, subject.authorization(0))
    const verdict = ctx.judge({
      kind: 'http',
      operation: list,
      request,
      answer,
      expected: { statuses: [200] },
      judging: ctx.judging,
    })
    const items = answer.status === 200 && answer.isJson ? itemsOf(answer) : undefined
    const own: Finding[] = []
    const next = nextAddress(answer.headers.link)
    if (items) {
      for (const item of items) {
        const id = String(item.id)
        const name = names.get(id)
        if (name === undefined) own.push(finding('store_conformance', `plant ${id} is not one of the run's`))
        else if (seen.has(id)) own.push(finding('store_conformance', `plant ${id} was listed twice`))
        else if (item.name !== name || item.tag !== tag)
          own.push(
            finding(
              'store_conformance',
              `plant ${id} was answered with a name of ${charsOf(item.name)} and a tag of ${charsOf(item.tag)}, not the ${[...name].length} and ${[...tag].length} characters it was created with`,
            ),
          )
        seen.add(id)
      }
      if (items.length > limit)
        own.push(finding('store_conformance', `a page of ${items.length} plants, asked for at most ${limit}`))
      // What the answer hands the client to send back is within what the client may send.
      const cursor =
        next === undefined
          ? null
          : new URL(resolveLink(next, answer.url ?? address), 'http://store.invalid/').searchParams.get(
              'cursor',
            )
      const most = list.parameters.find((p) => p.in === 'query' && p.name === 'cursor')?.schema?.maxLength
      if (cursor !== null && typeof most === 'number' && [...cursor].length > most)
        own.push(
          finding(
            'link_conformance',
            `the Link's cursor is ${[...cursor].length} characters, more than the ${most} the document lets a client send back`,
          ),
        )
      const left = names.size - seen.size
      if (next === undefined && left > 0)
        own.push(
          finding(
            'link_conformance',
            `a page of ${items.length} plants (${Buffer.byteLength(answer.text)} bytes) without a Link, ${left} of the ${names.size} plants not yet listed`,
          ),
        )
    }
    const selected = (f: Finding) => results.selected.has(f.check)
    results.record({
      layer: 'generated',
      operationId: list.operationId,
      checks: [
        ...new Set([
          ...verdict.checked,
          ...(items ? ['store_conformance', 'link_conformance'].filter((c) => results.selected.has(c)) : []),
        ]),
      ],
      findings: [...verdict.findings, ...own.filter(selected)],
      parameters: parametersOf(list, request),
      kinds: [`covers: limit maximum (the largest page, page ${page})`],
      status: answer.status,
      title: `the largest page: page ${page} of ${names.size} plants at limit=${limit}, each name and tag at its maxLength`,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: `200, at most ${limit} plants, each name and tag whole, and a Link while more follow`,
      replay: ctx.replay('--only generated'),
    })
    if (!items || next === undefined || own.length) return
    const from = answer.url ?? address
    address = resolveLink(next, from)
    if (linkLeaves(address, from)) return
  }
}

/**
 * The first page read TOGETHER times at once, each on a connection of its own, with nothing written
 * meanwhile: each answer is the page a read alone gets, 200 and judged as any.
 */
async function readTogether(ctx: Context, largest: Largest, tag: string): Promise<void> {
  const { subject, results } = ctx
  const { list } = largest
  ctx.progress('generated: the largest page, read at once')
  const request: RequestSpec = { method: 'GET', path: firstPage(largest, tag), auth: { kind: 'principal' } }
  const answers = await Promise.all(
    await sendTogether(
      subject,
      Array.from({ length: TOGETHER }, () => request),
      0,
    ),
  )
  for (const [i, answer] of answers.entries()) {
    const verdict = ctx.judge({
      kind: 'http',
      operation: list,
      request,
      answer,
      expected: { statuses: [200] },
      judging: ctx.judging,
    })
    results.record({
      layer: 'generated',
      operationId: list.operationId,
      checks: verdict.checked,
      findings: verdict.findings,
      parameters: parametersOf(list, request),
      kinds: ['covers: reads at once'],
      status: answer.status,
      title: `the largest page's first page, read ${TOGETHER} times at once: read ${i + 1}`,
      request: describeRequest(request),
      answer: describeAnswer(answer),
      document: '200 and a page, as a read alone gets',
      replay: ctx.replay('--only generated'),
    })
  }
}

type Item = Record<string, unknown> & { id?: unknown }

function itemsOf(answer: Answer): Item[] | undefined {
  try {
    const body = parseExact(answer.text)
    return Array.isArray(body) ? (body as Item[]) : undefined
  } catch {
    // Not JSON: the response schema's check says so.
    return undefined
  }
}

const finding = (check: string, message: string): Finding => ({ check, message })
const charsOf = (value: unknown) => (typeof value === 'string' ? `${[...value].length} characters` : 'none')
