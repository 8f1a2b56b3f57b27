// Requests sent together, and the reads after them, judged the way Porcupine judges a history: each
// request takes effect at one instant between when it was sent and when its answer came, so some
// one-at-a-time order of them, keeping every request that ended before another began ahead of it,
// must explain every answer. Exact for the few kinds of request the concurrency layer sends.

/** A plant's contents, as the model keeps them: its id is the key. */
export interface Contents {
  name: string
  tag?: string
}

export type Step =
  | { kind: 'create'; id: bigint; plant: Contents }
  | { kind: 'replace'; id: bigint; plant: Contents }
  | { kind: 'delete'; id: bigint }
  | { kind: 'read'; id: bigint }
  /** A page of the listing filtered by `tag`, starting after `after` (the last id of the page before). */
  | { kind: 'page'; tag: string; limit: number; after?: bigint }

/** What came back, as the model compares it. */
export interface Outcome {
  /** The status; 0 when no answer came. */
  status: number
  /** A read's plant, when it answered 200. */
  plant?: Contents
  /** A page's ids, in the order listed, and whether it had a next-page Link. */
  ids?: bigint[]
  next?: boolean
}

export interface Operation {
  step: Step
  /** Milliseconds from the history's start: sent, answered. */
  start: number
  end: number
  outcome: Outcome
  /** The request as sent and its answer, for the report. */
  request: string
  answer: string
}

type Store = ReadonlyMap<bigint, Contents>

/**
 * A status that says nothing of whether the request took effect (a refusal for load, an error, no
 * answer at all): such a request may have taken effect at some instant, or never.
 */
export const uncertain = (status: number): boolean => status === 0 || status === 429 || status >= 500

const sameContents = (a: Contents, b: Contents) => a.name === b.name && a.tag === b.tag

/** What the document gives a step in this store: the status, and for a page its ids and whether more follow. */
function expected(step: Step, store: Store): { status: number; ids?: bigint[]; more?: boolean } {
  switch (step.kind) {
    case 'create':
      return { status: store.has(step.id) ? 409 : 200 }
    case 'replace':
      return { status: store.has(step.id) ? 200 : 404 }
    case 'delete':
      return { status: store.has(step.id) ? 204 : 404 }
    case 'read':
      return { status: store.has(step.id) ? 200 : 404 }
    case 'page': {
      const { after, tag, limit } = step
      const kept = [...store.entries()]
        .filter(([id, plant]) => plant.tag === tag && (after === undefined || id > after))
        .map(([id]) => id)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      return { status: 200, ids: kept.slice(0, limit), more: kept.length > limit }
    }
  }
}

/** The store after a step took effect (its answer matched, or it may have). */
function apply(step: Step, store: Store): Store {
  if (step.kind === 'create' && !store.has(step.id)) return new Map(store).set(step.id, step.plant)
  if (step.kind === 'replace' && store.has(step.id)) return new Map(store).set(step.id, step.plant)
  if (step.kind === 'delete' && store.has(step.id)) {
    const next = new Map(store)
    next.delete(step.id)
    return next
  }
  return store
}

/** Whether the answer is the one the document gives the step in this store. */
function explains(operation: Operation, store: Store): boolean {
  const { step, outcome } = operation
  const want = expected(step, store)
  if (outcome.status !== want.status) return false
  if (step.kind === 'read' && outcome.status === 200) {
    const plant = store.get(step.id)
    return plant !== undefined && outcome.plant !== undefined && sameContents(plant, outcome.plant)
  }
  if (step.kind === 'page') {
    const ids = outcome.ids ?? []
    const same = ids.length === want.ids?.length && ids.every((id, i) => id === want.ids?.[i])
    // More to come and no Link: the walk stops there, and what follows is never listed.
    return same && (outcome.next === true || !want.more)
  }
  return true
}

const storeKey = (store: Store) =>
  [...store.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, p]) => `${id}:${JSON.stringify([p.name, p.tag])}`)
    .join(',')

/** How many states the search visits at most: the layer's histories need a few hundred. */
const BUDGET = 200_000

export type Verdict =
  | { explained: true; order: number[] }
  | { explained: false; longest: number[]; stuck: { index: number; wanted: string }[] }
  | { explained: undefined }

/**
 * An order of the operations (their indexes) that explains every answer, each taking effect between
 * its start and end; or, when none does, the longest order that explains a prefix and what each
 * request that could come next would have had to answer there. Undefined past the search's budget.
 */
export function linearize(operations: readonly Operation[], initial: Store = new Map()): Verdict {
  const n = operations.length
  const seen = new Set<string>()
  let visits = 0
  let longest: number[] = []
  let longestStore: Store = initial
  const order: number[] = []
  const done = new Array<boolean>(n).fill(false)
  const search = (store: Store): boolean => {
    if (order.length === n) return true
    if (++visits > BUDGET) throw new Budget()
    const key = `${done.map((d) => (d ? 1 : 0)).join('')}|${storeKey(store)}`
    if (seen.has(key)) return false
    seen.add(key)
    if (order.length > longest.length) {
      longest = [...order]
      longestStore = store
    }
    // Any request not yet placed may come next unless another not yet placed ended before it began.
    const firstEnd = Math.min(...operations.map((o, i) => (done[i] ? Number.POSITIVE_INFINITY : o.end)))
    for (let i = 0; i < n; i++) {
      const operation = operations[i] as Operation
      if (done[i] || operation.start > firstEnd) continue
      const afters = uncertain(operation.outcome.status)
        ? [apply(operation.step, store), store]
        : explains(operation, store)
          ? [apply(operation.step, store)]
          : []
      for (const after of afters) {
        done[i] = true
        order.push(i)
        if (search(after)) return true
        order.pop()
        done[i] = false
      }
    }
    return false
  }
  try {
    if (search(initial)) return { explained: true, order: [...order] }
  } catch (error) {
    if (error instanceof Budget) return { explained: undefined }
    throw error
  }
  const placed = new Set(longest)
  const firstEnd = Math.min(...operations.map((o, i) => (placed.has(i) ? Number.POSITIVE_INFINITY : o.end)))
  const stuck = operations.flatMap((o, index) =>
    placed.has(index) || o.start > firstEnd ? [] : [{ index, wanted: wantedText(o.step, longestStore) }],
  )
  return { explained: false, longest, stuck }
}

class Budget extends Error {}

/** What the document gives the step in this store, in words. */
function wantedText(step: Step, store: Store): string {
  const want = expected(step, store)
  if (step.kind === 'page')
    return `200 listing ${want.ids?.length ? want.ids.join(', ') : 'nothing'}${want.more ? ', with a Link to more' : ''}`
  const plant = store.get(step.id)
  if (step.kind === 'read' && plant) return `200 with ${JSON.stringify(plant)}`
  return String(want.status)
}

/** The problem a history shows, in words; none when some order explains it (or the search gave up). */
export function historyProblems(operations: readonly Operation[], promise: string): string[] {
  const verdict = linearize(operations)
  if (verdict.explained !== false) return []
  const line = (i: number) => {
    const o = operations[i] as Operation
    return `#${i + 1} [${o.start.toFixed(1)}–${o.end.toFixed(1)} ms] ${o.request} → ${o.answer}`
  }
  const by = verdict.longest.length
    ? `the longest order that explains answers is ${verdict.longest.map((i) => `#${i + 1}`).join(', ')}; after it the document gives ${verdict.stuck.map((s) => `#${s.index + 1} ${s.wanted}`).join('; ')}`
    : `no request can come first: the document gives ${verdict.stuck.map((s) => `#${s.index + 1} ${s.wanted}`).join('; ')}`
  const shown = plainly(operations)
    .map((said) => ` ${said}.`)
    .join('')
  return [
    `no one-at-a-time order of these requests explains every answer (${promise}): ${by}.${shown}\n${operations.map((_, i) => line(i)).join('\n')}`,
  ]
}

/**
 * What some answers show on their own, whatever the order: a read of a body no request wrote (the
 * name of one and the tag of another: a plant written in two steps), and a 404 for a plant a create
 * had made before the request was sent and no request deleted.
 */
function plainly(operations: readonly Operation[]): string[] {
  const said: string[] = []
  const number = (o: Operation) => `#${operations.indexOf(o) + 1}`
  const writes = (id: bigint) =>
    operations.filter(
      (o): o is Operation & { step: { plant: Contents } } =>
        (o.step.kind === 'create' || o.step.kind === 'replace') && o.step.id === id,
    )
  for (const o of operations) {
    const { step, outcome } = o
    if (step.kind === 'page' || step.kind === 'create') continue
    const id = step.id
    if (step.kind === 'read' && outcome.plant) {
      const got = outcome.plant
      const bodies = writes(id)
      if (bodies.some((w) => sameContents(w.step.plant, got))) continue
      const named = bodies.find((w) => w.step.plant.name === got.name)
      const tagged = bodies.find((w) => w.step.plant.tag === got.tag)
      const mix =
        named && tagged
          ? `: the name ${number(named)} sent and the ${got.tag === undefined ? 'absent tag' : 'tag'} ${number(tagged)} sent`
          : ''
      said.push(`${number(o)} read plant ${id} as ${JSON.stringify(got)}, a body no request wrote${mix}`)
    }
    if (outcome.status !== 404) continue
    const made = operations.find(
      (c) => c.step.kind === 'create' && c.step.id === id && c.outcome.status === 200 && c.end < o.start,
    )
    const deleted = operations.some((d) => d.step.kind === 'delete' && d.step.id === id)
    if (made && !deleted)
      said.push(
        `${number(o)} was answered 404 for plant ${id}, which ${number(made)} created before it was sent and no request deleted`,
      )
  }
  return said
}
