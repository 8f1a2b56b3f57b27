// The coverage phase, sent before the random requests (as Schemathesis runs its coverage phase before
// its random one) and the same on every run: for every operation of the document, each keyword of each
// parameter and body property at its boundaries as valid probes, and one invalid probe per keyword per
// field with exactly one defect (operation-drafts.ts, with a field's values from boundaries.ts); the
// body as a whole, content types and authentication. A bug that only one value shows (a number
// accepted as `name`, a `limit` of 101 let through) is then found on every run, not by chance.
// Everything is read from the document: the same operations, body limit and id base give the same
// probes. This file numbers the drafts' create ids and makes them probes.
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import { flatten, type JsonSchema, type OperationEntry } from '../document.js'
import { COVERAGE_PLANT, givenIds } from './given-plants.js'
import { type JsonNode, render, value } from './json-text.js'
import { type Draft, FRESH, operationDrafts } from './operation-drafts.js'
import { bodyFeatures, type Feature, JSON_TYPE, type Parts, type Probe, SAFE, toProbe } from './probe.js'

/** The top-level `id` of a body node, when it is an int64 a correct reader takes as one. */
function bodyId(node: JsonNode | undefined): bigint | undefined {
  const id = node?.kind === 'object' ? node.entries.findLast(([k]) => k === 'id')?.[1] : undefined
  return id?.kind === 'integer' && id.value >= INT64_MIN && id.value <= INT64_MAX ? id.value : undefined
}

/** The ids past the given plants: the first for the coverage plant, the next ones each create's. */
function firstFreshId(given: bigint[], idBase: bigint): bigint {
  const last = given.at(-1) ?? idBase
  return (last - idBase < 100n ? idBase : last) + 100n
}

/**
 * The plant the coverage phase keeps beside the given plants (`x-given-plants`), at its own id: its
 * `tag` has another Unicode form, which a filter is asked for (given-plants.ts).
 */
export function coveragePlant(operations: OperationEntry[], idBase: bigint) {
  const given = givenIds(operations).map((id) => idBase + id)
  return { id: firstFreshId(given, idBase), ...COVERAGE_PLANT }
}

/**
 * The deterministic coverage probes of every operation: boundary values of each keyword of each
 * parameter and body property as valid probes, and one invalid probe per keyword per field, each with
 * exactly one defect; content types and the three ways to fail authentication once per operation.
 * Item probes name ids around `idBase`: the plants the document's examples assume (`x-given-plants`,
 * kept by the verifier at idBase + their id) and ids just past them, so that some hit and some miss;
 * the coverage plant is at idBase + 100 (or past the given plants), and a create names ids past it,
 * but for one that collides with a given plant.
 */
export function coverageProbes(operations: OperationEntry[], bodyLimit: number, idBase: bigint): Probe[] {
  const given = givenIds(operations).map((id) => idBase + id)
  const last = given.at(-1) ?? idBase
  const misses = [last + 1n, last + 6n]
  const itemIds = [...given.slice(0, 3), ...misses]
  const present = given[0] ?? misses[0] ?? idBase + 1n
  // The ids a create gets, one each, well past the given plants, the misses and the coverage plant.
  let nextFresh = firstFreshId(given, idBase) + 1n
  // What each body schema names: a key one schema names is one another (a replace's) must ignore.
  const named = new Map<string, JsonSchema>()
  for (const entry of operations) {
    const body = entry.operation.requestBody?.content[JSON_TYPE]?.schema
    for (const [key, schema] of Object.entries(body ? flatten(body).properties : {}))
      if (!named.has(key)) named.set(key, schema)
  }

  const probes: Probe[] = []
  for (const entry of operations) {
    const drafts = operationDrafts(entry, bodyLimit, { base: idBase, itemIds, present, given, named })
    for (const draft of drafts) probes.push(finish(entry, draft, () => nextFresh++))
  }
  return probes
}

/** Numbers the fresh create ids, renders the body and builds the probe from its parts. */
function finish(entry: OperationEntry, draft: Draft, nextId: () => bigint): Probe {
  let id: bigint | undefined
  const renumber = (n: JsonNode): JsonNode => {
    if (n.kind === 'integer' && n.value === FRESH) {
      id ??= nextId()
      return { ...n, value: id }
    }
    if (n.kind === 'object') return { ...n, entries: n.entries.map(([k, v]) => [k, renumber(v)]) }
    if (n.kind === 'array') return { ...n, items: n.items.map(renumber) }
    if (n.kind === 'raw' && n.text.includes(String(FRESH))) {
      id ??= nextId()
      return { kind: 'raw', text: n.text.replaceAll(String(FRESH), String(id)) }
    }
    return n
  }
  const node = draft.node && renumber(draft.node)
  const features: Feature[] = [...(draft.features ?? [])]
  const readable =
    node !== undefined && draft.readable === true && !/^(body|content type):/.test(draft.defect ?? '')
  const named = draft.pathId ?? bodyId(node)
  if (draft.pathId !== undefined && (draft.pathId > SAFE || draft.pathId < -SAFE))
    features.push('id beyond 2^53')
  if (node && readable) features.push(...bodyFeatures(node))
  if (draft.query.some(([, v]) => v === '') && !features.includes('query: empty value'))
    features.push('query: empty value')
  const parts: Parts = {
    defect: draft.defect,
    features,
    pathValues: draft.pathValues,
    query: draft.query,
    auth: draft.auth,
    ...(draft.contentType === undefined ? {} : { contentType: draft.contentType }),
    ...(node === undefined ? {} : { body: render(node) }),
    ...(node && readable ? { bodyValue: value(node) } : {}),
    ...(named === undefined ? {} : { id: named }),
  }
  return { ...toProbe(entry, parts), covers: draft.covers }
}
