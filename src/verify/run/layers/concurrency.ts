// Requests sent together, each on a connection of its own, as the first principal and on plants of the
// run's own ids only: creates of one id; writes to one plant that differ in every field (two
// replaces, a replace and a create, a delete and a replace) with reads of it sent beside them; creates
// of distinct ids; and a listing paged through while plants are created and deleted. Each request's
// sending and answer are timed, and the whole (with the reads after it) is judged by whether some
// one-at-a-time order of the requests explains every answer (concurrent_consistency).
import { nextAddress } from '@plant-store/core'
import type { OperationEntry } from '../../document.js'
import { jsonText, parseExact } from '../../exact-json.js'
import { type Answer, describeAnswer, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import type { Contents, Operation, Outcome, Step } from '../../judge/concurrent-history.js'
import { resolveLink } from '../../judge/links.js'
import type { Context } from '../context.js'
import { rethrowTeamCode } from '../errors.js'
import { sendTogether } from '../together.js'

/** How many creates of one id go together, and how many times. */
const SAME_ID_CREATES = 5
/** A race shows only when the requests meet in the server: several tries of it (each a few requests). */
const SAME_ID_ROUNDS = 4
const DISTINCT_CREATES = 5
/** A small page, so that a walk through a few plants takes several. */
const PAGE = 2
/** The most pages a walk reads: the plants it pages through fill three or four. */
const MOST_PAGES = 10
/** How many times each pair of writes to one plant goes together: half of them in each order. */
const WRITE_ROUNDS = 2
/** Reads of the plant sent with its two writes, and the most sent one after another while they are unanswered. */
const READS_WITH_WRITES = 2
const MOST_READS_BESIDE = 8

/** What every step of the layer shares: the operations, the run's ids, and how a history is sent and judged. */
interface Race {
  ctx: Context
  create: OperationEntry
  read: OperationEntry
  replace: OperationEntry
  remove: OperationEntry
  list: OperationEntry
  /** The ids the layer created (or tried to): each deleted at the end. */
  created: Set<bigint>
  /** A run of ids none of which the principal owned before the run. */
  freshIds(count: number): bigint[]
  /** The tag of the run's plants of one shape: the seed in it, for whoever finds one left. */
  tagOf(shape: string): string
  history(): History
  judge(operationId: string, title: string, promise: string, sent: Operation[]): void
}

type Sent = Operation & { link?: string }

interface History {
  operations: Operation[]
  send(step: Step, address?: string): Promise<Sent>
  /**
   * Steps sent together, each on a connection of its own opened first and all written at once (with
   * --rate, through the run's pace instead, started together); once written, `answered` waits for them.
   */
  release(steps: Step[]): Promise<{ answered: Promise<Sent[]> }>
  together(steps: Step[]): Promise<Sent[]>
  /** Pages through the listing of `tag`, each page after the last id of the page before. */
  walk(tag: string, during?: (page: number) => Step[]): Promise<void>
}

export async function runConcurrency(ctx: Context): Promise<void> {
  const race = raceOf(ctx)
  if (!race) return
  try {
    await sameIdCreates(race)
    await writesToOnePlant(race)
    await distinctCreates(race)
    await pagingWhileWriting(race)
  } finally {
    // Only the run's own plants, whatever they answered.
    for (const id of race.created) await ctx.remove(0, id)
  }
}

/** Creates of one id, sent together: one finds the id free, the others find it taken. */
async function sameIdCreates(race: Race): Promise<void> {
  for (let round = 1; round <= SAME_ID_ROUNDS; round++) {
    race.ctx.progress(
      `concurrency: ${SAME_ID_CREATES} creates of one id at once (${round}/${SAME_ID_ROUNDS})`,
    )
    const [id] = race.freshIds(1) as [bigint]
    const h = race.history()
    await h.together(
      Array.from({ length: SAME_ID_CREATES }, (_, i) => ({
        kind: 'create' as const,
        id,
        plant: { name: `Concurrent ${i + 1}`, tag: race.tagOf('same-id') },
      })),
    )
    await h.send({ kind: 'read', id })
    race.judge(
      race.create.operationId,
      `${SAME_ID_CREATES} creates of plant ${id} at once`,
      'of creates of one id, one is answered 200 and the others 409, and the plant read after is the one created',
      h.operations,
    )
  }
}

/** Two writes to one plant that exists, each body differing from the other and from the plant in every field. */
interface WritePair {
  shape: string
  /** The operation the history is reported under. */
  operation: 'create' | 'replace'
  writes(id: bigint, tag: (shape: string) => string): [Step, Step]
  promise: string
}

const WRITE_PAIRS: WritePair[] = [
  {
    shape: 'two replaces',
    operation: 'replace',
    writes: (id, tag) => [
      { kind: 'replace', id, plant: { name: 'Thai basil', tag: tag('replaced') } },
      { kind: 'replace', id, plant: { name: 'Lemon basil' } },
    ],
    promise:
      'two replaces of one plant are both answered 200, and every read, during them and after, shows the plant whole: as it was, or as one or the other left it, never a mix, never gone',
  },
  {
    shape: 'a replace and a create',
    operation: 'create',
    writes: (id, tag) => [
      { kind: 'replace', id, plant: { name: 'Thai basil' } },
      { kind: 'create', id, plant: { name: 'Holy basil', tag: tag('created') } },
    ],
    promise:
      'a create of a plant that exists is answered 409 whenever it comes, the replace beside it 200, and every read shows the plant whole, never gone',
  },
  {
    shape: 'a delete and a replace',
    operation: 'replace',
    writes: (id, tag) => [
      { kind: 'delete', id },
      { kind: 'replace', id, plant: { name: 'Thai basil', tag: tag('replaced') } },
    ],
    promise:
      'a replace and a delete of one plant are answered as in one order of the two (a replace of a missing plant is a 404: it never creates one), every read shows the plant whole or gone, and it is gone after either',
  },
]

/**
 * Each pair of writes to a plant that exists, sent together with reads of it, while more reads go
 * one after another until both writes are answered: a store that writes a plant in two steps shows
 * the state between them to one of the reads, or to the other write.
 */
async function writesToOnePlant(race: Race): Promise<void> {
  const rounds = WRITE_ROUNDS * WRITE_PAIRS.length
  for (let round = 0; round < rounds; round++) {
    const pair = WRITE_PAIRS[round % WRITE_PAIRS.length] as WritePair
    race.ctx.progress(
      `concurrency: ${pair.shape} of one plant at once, reads beside (${round + 1}/${rounds})`,
    )
    const [id] = race.freshIds(1) as [bigint]
    const h = race.history()
    await h.send({ kind: 'create', id, plant: { name: 'Basil', tag: race.tagOf('writes') } })
    const writes = pair.writes(id, race.tagOf)
    // Each order in turn, and the reads between and after the writes in the order written.
    const [first, second] = Math.floor(round / WRITE_PAIRS.length) % 2 ? [...writes].reverse() : writes
    const reading: Step = { kind: 'read', id }
    const batch = [first, reading, second, ...Array(READS_WITH_WRITES - 1).fill(reading)] as Step[]
    const { answered } = await h.release(batch)
    let pending = true
    const done = answered.finally(() => {
      pending = false
    })
    for (let i = 0; i < MOST_READS_BESIDE && pending; i++) await h.send(reading)
    await done
    await h.send(reading)
    race.judge(
      race[pair.operation].operationId,
      `${pair.shape} of plant ${id} at once, with reads beside`,
      pair.promise,
      h.operations,
    )
  }
}

/** Creates of distinct ids, sent together: each stored, and each listed once. */
async function distinctCreates(race: Race): Promise<void> {
  race.ctx.progress(`concurrency: ${DISTINCT_CREATES} creates of distinct ids at once`)
  const tag = race.tagOf('distinct')
  const h = race.history()
  await h.together(
    race.freshIds(DISTINCT_CREATES).map((id, i) => ({
      kind: 'create' as const,
      id,
      plant: { name: `Concurrent ${i + 1}`, tag },
    })),
  )
  await h.walk(tag)
  race.judge(
    race.create.operationId,
    `${DISTINCT_CREATES} creates of distinct ids at once, then the listing`,
    'creates of distinct ids sent together are each stored, and each listed exactly once',
    h.operations,
  )
}

/**
 * Pages read while plants are created and deleted: each page starts after the last plant of the page
 * before and holds the plants as they are when it is read.
 */
async function pagingWhileWriting(race: Race): Promise<void> {
  race.ctx.progress('concurrency: paging while plants are created and deleted')
  const tag = race.tagOf('paging')
  const ids = race.freshIds(12)
  const at = (i: number) => ids[i] as bigint
  const h = race.history()
  for (const i of [0, 2, 4, 6, 8, 10])
    await h.send({ kind: 'create', id: at(i), plant: { name: `Plant ${i}`, tag } })
  const changes: Step[] = [
    { kind: 'create', id: at(1), plant: { name: 'Plant 1', tag } },
    { kind: 'delete', id: at(4) },
    { kind: 'create', id: at(7), plant: { name: 'Plant 7', tag } },
    { kind: 'delete', id: at(8) },
    { kind: 'create', id: at(11), plant: { name: 'Plant 11', tag } },
  ]
  await h.walk(tag, (page) => (changes[page] ? [changes[page]] : []))
  // What the walk ended before is sent too: the history holds the changes whatever the pages did.
  const sent = h.operations.filter((o) => o.step.kind !== 'page').length - 6
  await h.together(changes.slice(sent))
  race.judge(
    race.list.operationId,
    'a listing paged through while plants are created and deleted',
    'each page holds the plants as they are when it is read, past the last plant of the page before: none twice, none that stayed skipped, in ascending order of id',
    h.operations,
  )
}

/** The operations the layer sends, its ids and how it sends and judges a history; none when the document lacks one. */
function raceOf(ctx: Context): Race | undefined {
  const { loaded, subject, options, results, list } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const item = (method: string) => loaded.operations.find((e) => roleOf(e) === 'item' && e.method === method)
  const [read, replace, remove] = [item('get'), item('put'), item('delete')]
  if (!create || !read || !replace || !remove || !list) {
    results.notes.push(
      'concurrency: not run, the document lacks one of the create, read, replace, delete and list operations',
    )
    return undefined
  }
  const taken = new Set(ctx.existing[0].map((p) => p.id))
  let nextId = ctx.idBase + 50_000n
  const seed = options.seed >>> 0
  const created = new Set<bigint>()
  const at = (id: bigint, entry: { path: string }) => entry.path.replace(/\{[^}]+\}/, id.toString())

  /** The request a step sends. */
  const requestOf = (step: Step, address?: string): RequestSpec => {
    const auth = { kind: 'principal' } as const
    const json = (body: unknown) => ({ contentType: 'application/json', body: jsonText(body) })
    switch (step.kind) {
      case 'create':
        created.add(step.id)
        return { method: 'POST', path: create.path, auth, ...json({ id: step.id, ...step.plant }) }
      case 'replace':
        return { method: 'PUT', path: at(step.id, replace), auth, ...json(step.plant) }
      case 'delete':
        return { method: 'DELETE', path: at(step.id, remove), auth }
      case 'read':
        return { method: 'GET', path: at(step.id, read), auth }
      case 'page':
        return {
          method: 'GET',
          path: address ?? `${list.path}?limit=${step.limit}&tag=${encodeURIComponent(step.tag)}`,
          auth,
        }
    }
  }

  /** One history: its requests, each timed from the history's start. */
  const history = (): History => {
    const t0 = performance.now()
    const operations: Operation[] = []
    const send = async (
      step: Step,
      address?: string,
      sent?: { request: RequestSpec; start: number; answer: Promise<Answer> },
    ): Promise<Sent> => {
      const request = sent?.request ?? requestOf(step, address)
      const start = sent?.start ?? performance.now() - t0
      let outcome: Outcome
      let answer: string
      let link: string | undefined
      try {
        const got = await (sent?.answer ?? subject.send(subject.baseUrl, request, subject.authorization(0)))
        outcome = outcomeOf(step, got.status, got.isJson ? got.text : undefined, got.headers.link)
        answer = describeAnswer(got)
        const next = nextAddress(got.headers.link)
        if (next !== undefined) link = resolveLink(next, got.url ?? request.path)
      } catch (error) {
        rethrowTeamCode(error)
        outcome = { status: 0 }
        answer = `no answer: ${(error as Error).message}`
      }
      const body = request.body === undefined ? '' : ` ${request.body}`
      const operation: Operation = {
        step,
        start,
        end: performance.now() - t0,
        outcome,
        request: `${request.method} ${subject.documentPath(request.path) || request.path}${body}`,
        answer,
      }
      operations.push(operation)
      return { ...operation, ...(link === undefined ? {} : { link }) }
    }
    const release = async (steps: Step[]) => {
      if (options.rate) return { answered: Promise.all(steps.map((step) => send(step))) }
      const requests = steps.map((step) => requestOf(step))
      const start = performance.now() - t0
      let answers: Promise<Answer>[]
      try {
        answers = await sendTogether(subject, requests, 0)
      } catch (error) {
        rethrowTeamCode(error)
        answers = requests.map(() => Promise.reject(error))
      }
      const answered = Promise.all(
        steps.map((step, i) =>
          send(step, undefined, {
            request: requests[i] as RequestSpec,
            start,
            answer: answers[i] as Promise<Answer>,
          }),
        ),
      )
      return { answered }
    }
    const together = async (steps: Step[]) => (await release(steps)).answered
    const walk = async (tag: string, during: (page: number) => Step[] = () => []) => {
      let address: string | undefined
      let after: bigint | undefined
      for (let page = 0; page < MOST_PAGES; page++) {
        const step: Step = { kind: 'page', tag, limit: PAGE, ...(after === undefined ? {} : { after }) }
        const [read] = await Promise.all([send(step, address), together(during(page))])
        if (read.outcome.status !== 200 || read.link === undefined) return
        address = read.link
        after = read.outcome.ids?.at(-1) ?? after
      }
    }
    return { operations, send: (step, address) => send(step, address), release, together, walk }
  }

  const judge = (operationId: string, title: string, promise: string, sent: Operation[]) => {
    // In the order they were sent, as the report numbers them.
    const operations = [...sent].sort((a, b) => a.start - b.start)
    // Judged as taking effect or not, which any store explains: said, so that a run that reached
    // nothing does not pass unseen.
    const unanswered = operations.filter((o) => o.outcome.status === 0)
    if (unanswered.length)
      results.notes.push(
        `concurrency: ${title}: ${unanswered.length} request(s) got no answer (${unanswered[0]?.answer})`,
      )
    const verdict = ctx.judge({ kind: 'concurrent', operationId, promise, operations })
    for (const o of operations) {
      const entry = { create, replace, delete: remove, read, page: list }[o.step.kind]
      if (o.outcome.status) results.saw(entry.operationId, o.outcome.status)
    }
    results.record({
      layer: 'concurrency',
      operationId,
      checks: verdict.checked,
      findings: verdict.findings,
      title,
      request: `${operations.length} requests, #1 to #${operations.length}: each below, with when it was sent and answered`,
      answer: operations.map((o, i) => `#${i + 1} ${o.outcome.status || 'none'}`).join(', '),
      document: promise,
      replay: ctx.replay(`--only concurrency --seed=${options.seed}`),
    })
  }

  return {
    ctx,
    create,
    read,
    replace,
    remove,
    list,
    created,
    freshIds: (count) => {
      for (;;) {
        const ids = Array.from({ length: count }, (_, i) => nextId + BigInt(i))
        nextId += BigInt(count) + 1n
        if (!ids.some((id) => taken.has(id))) return ids
      }
    },
    tagOf: (shape) => `concurrency ${shape} ${seed}`,
    history,
    judge,
  }
}

/** What the model compares of an answer: its status, and a read's plant or a page's ids and Link. */
function outcomeOf(step: Step, status: number, json: string | undefined, link: string | undefined): Outcome {
  if (status !== 200 || json === undefined || (step.kind !== 'read' && step.kind !== 'page'))
    return { status }
  let body: unknown
  try {
    body = parseExact(json)
  } catch {
    return { status }
  }
  if (step.kind === 'read') {
    const plant = contentsOf(body)
    return plant ? { status, plant } : { status }
  }
  const ids = Array.isArray(body)
    ? body.map((p) => (p && typeof p === 'object' ? (p as { id?: unknown }).id : undefined))
    : []
  return {
    status,
    ids: ids.filter((id): id is bigint => typeof id === 'bigint'),
    next: nextAddress(link) !== undefined,
  }
}

function contentsOf(body: unknown): Contents | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { name, tag } = body as { name?: unknown; tag?: unknown }
  if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return undefined
  return tag === undefined ? { name } : { name, tag }
}
