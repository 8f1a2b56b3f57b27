// Requests sent together, each on a connection of its own, as the first principal and on plants of the
// run's own ids only: creates of one id, a replace and a delete of one plant, creates of distinct ids,
// and a listing paged through while plants are created and deleted. Each request's sending and answer
// are timed, and the whole (with the reads after it) is judged by whether some one-at-a-time order of
// the requests explains every answer (concurrent_consistency).
import { nextAddress } from '@plant-store/core'
import { jsonText, parseExact } from '../../exact-json.js'
import { type Answer, describeAnswer, type RequestSpec } from '../../http.js'
import { roleOf } from '../../judge/accepted-statuses.js'
import type { Contents, Operation, Outcome, Step } from '../../judge/concurrent-history.js'
import { resolveLink } from '../../judge/links.js'
import type { Context } from '../context.js'
import { rethrowTeamCode } from '../errors.js'
import { sendTogether } from '../together.js'

/** How many creates of one id go together, and how many of distinct ids. */
const SAME_ID_CREATES = 5
/** A race shows only when the requests meet in the server: three tries of it (each a few requests). */
const SAME_ID_ROUNDS = 3
const DISTINCT_CREATES = 5
/** A small page, so that a walk through a few plants takes several. */
const PAGE = 2
/** The most pages a walk reads: the plants it pages through fill three or four. */
const MOST_PAGES = 10

export async function runConcurrency(ctx: Context): Promise<void> {
  const { loaded, subject, options, results } = ctx
  const create = loaded.operations.find((e) => roleOf(e) === 'create')
  const item = (method: string) => loaded.operations.find((e) => roleOf(e) === 'item' && e.method === method)
  const [read, replace, remove] = [item('get'), item('put'), item('delete')]
  const { list } = ctx
  if (!create || !read || !replace || !remove || !list) {
    results.notes.push(
      'concurrency: not run, the document lacks one of the create, read, replace, delete and list operations',
    )
    return
  }
  const taken = new Set(ctx.existing[0].map((p) => p.id))
  let nextId = ctx.idBase + 50_000n
  const freshIds = (count: number, step = 1n) => {
    // A run of ids none of which the principal owned before the run.
    for (;;) {
      const ids = Array.from({ length: count }, (_, i) => nextId + BigInt(i) * step)
      nextId += BigInt(count) * step + 1n
      if (!ids.some((id) => taken.has(id))) return ids
    }
  }
  const seed = options.seed >>> 0
  const tagOf = (shape: string) => `concurrency ${shape} ${seed}`
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
  const history = () => {
    const t0 = performance.now()
    const operations: Operation[] = []
    const send = async (
      step: Step,
      address?: string,
      sent?: { request: RequestSpec; start: number; answer: Promise<Answer> },
    ): Promise<Operation & { link?: string }> => {
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
    /**
     * Steps sent together, each on a connection of its own opened first and all written at once;
     * with --rate, through the run's pace instead, started together.
     */
    const together = async (steps: Step[]) => {
      if (options.rate) return Promise.all(steps.map((step) => send(step)))
      const requests = steps.map((step) => requestOf(step))
      const start = performance.now() - t0
      let answers: Promise<Answer>[]
      try {
        answers = await sendTogether(subject, requests, 0)
      } catch (error) {
        rethrowTeamCode(error)
        answers = requests.map(() => Promise.reject(error))
      }
      return Promise.all(
        steps.map((step, i) =>
          send(step, undefined, {
            request: requests[i] as RequestSpec,
            start,
            answer: answers[i] as Promise<Answer>,
          }),
        ),
      )
    }
    /** Pages through the listing of `tag`, each page after the last id of the page before. */
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
    return { operations, send, together, walk }
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
      replay: ctx.replay(`--only concurrency --seed ${options.seed}`),
    })
  }

  try {
    // Creates of one id, sent together: one finds the id free, the others find it taken.
    for (let round = 1; round <= SAME_ID_ROUNDS; round++) {
      ctx.progress(`concurrency: ${SAME_ID_CREATES} creates of one id at once (${round}/${SAME_ID_ROUNDS})`)
      const [id] = freshIds(1) as [bigint]
      const h = history()
      await h.together(
        Array.from({ length: SAME_ID_CREATES }, (_, i) => ({
          kind: 'create' as const,
          id,
          plant: { name: `Concurrent ${i + 1}`, tag: tagOf('same-id') },
        })),
      )
      await h.send({ kind: 'read', id })
      judge(
        create.operationId,
        `${SAME_ID_CREATES} creates of plant ${id} at once`,
        'of creates of one id, one is answered 200 and the others 409, and the plant read after is the one created',
        h.operations,
      )
    }

    // A replace and a delete of one plant, sent together: the plant is gone after either order (a
    // replace of a missing plant is a 404: it never creates one).
    for (const round of [1, 2]) {
      ctx.progress(`concurrency: a replace and a delete of one plant at once (${round}/2)`)
      const [id] = freshIds(1) as [bigint]
      const h = history()
      const tag = tagOf('replace')
      await h.send({ kind: 'create', id, plant: { name: 'Basil', tag } })
      // Once alone, so that a replace's success is met whichever of the two below wins.
      await h.send({ kind: 'replace', id, plant: { name: 'Sweet basil', tag } })
      const replacing: Step = { kind: 'replace', id, plant: { name: 'Thai basil', tag } }
      const deleting: Step = { kind: 'delete', id }
      await h.together(round === 1 ? [replacing, deleting] : [deleting, replacing])
      await h.send({ kind: 'read', id })
      judge(
        replace.operationId,
        `a replace and a delete of plant ${id} at once`,
        'a replace and a delete of one plant are answered as in one order of the two, and the plant is gone after either',
        h.operations,
      )
    }

    // Creates of distinct ids, sent together: each stored, and each listed once.
    {
      ctx.progress(`concurrency: ${DISTINCT_CREATES} creates of distinct ids at once`)
      const tag = tagOf('distinct')
      const h = history()
      await h.together(
        freshIds(DISTINCT_CREATES).map((id, i) => ({
          kind: 'create' as const,
          id,
          plant: { name: `Concurrent ${i + 1}`, tag },
        })),
      )
      await h.walk(tag)
      judge(
        create.operationId,
        `${DISTINCT_CREATES} creates of distinct ids at once, then the listing`,
        'creates of distinct ids sent together are each stored, and each listed exactly once',
        h.operations,
      )
    }

    // Pages read while plants are created and deleted: each page starts after the last plant of the
    // page before and holds the plants as they are when it is read.
    {
      ctx.progress('concurrency: paging while plants are created and deleted')
      const tag = tagOf('paging')
      const ids = freshIds(12)
      const at = (i: number) => ids[i] as bigint
      const h = history()
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
      judge(
        list.operationId,
        'a listing paged through while plants are created and deleted',
        'each page holds the plants as they are when it is read, past the last plant of the page before: none twice, none that stayed skipped, in ascending order of id',
        h.operations,
      )
    }
  } finally {
    // Only the run's own plants, whatever they answered.
    for (const id of created) await ctx.remove(0, id)
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
