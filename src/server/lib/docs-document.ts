// The copy of the document that the /docs page shows. The document itself stays as it is (the
// contract suite and Prism read its failing examples on purpose); the page gets what a person trying
// the interface needs: Try it out goes to the page's own origin, the values it fills in are the
// examples that succeed, and allOf schemas are merged so that each reads as one object.
import { type Document, flatten, givenPlants, listOperations } from '@plant-store/core'

type Json = Record<string, unknown>
type Examples = Record<string, unknown> | undefined

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null

export function docsDocument(dereferenced: Document): Document {
  const copy = structuredClone(dereferenced)
  // A relative server is the page's own origin, on any host and port.
  copy.servers = [
    { url: '/', description: 'This server: the origin this page came from' },
    ...(copy.servers ?? []),
  ]
  // An id no example plant uses: a create the page fills in succeeds on the sandbox too (whose stores
  // start with the example plants), and the reads after it find the plant it made.
  const freshId = 1 + Math.max(0, ...givenPlants(dereferenced).map((plant) => Number(plant.id)))
  for (const entry of listOperations(copy)) {
    const successes = successNames(entry.operation.responses as Json | undefined)
    // Each operation gets parameters of its own: a path's shared ones may keep different examples.
    entry.operation.parameters = entry.parameters.map((parameter) => {
      const own = structuredClone(parameter) as unknown as Json
      keepSucceeding(own, successes)
      if (own.in === 'path' && own.name === 'id') useId(own, freshId)
      return own as never
    })
    const body = (entry.operation.requestBody as Json | undefined)?.content as
      | Record<string, Json>
      | undefined
    for (const media of Object.values(body ?? {})) {
      keepSucceeding(media, successes)
      useId(media, freshId)
    }
  }
  for (const item of Object.values(copy.paths ?? {})) if (item) delete item.parameters
  mergeAllOf(copy)
  return copy
}

/** The names of the examples that produce a success: those of the 2xx responses (fixture convention). */
function successNames(responses: Json | undefined): Set<string> {
  const names = new Set<string>()
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!status.startsWith('2') || !isObject(response)) continue
    for (const name of (response['x-example-names'] as string[] | undefined) ?? []) names.add(name)
    for (const media of Object.values((response.content as Record<string, Json> | undefined) ?? {}))
      for (const name of Object.keys((media.examples as Examples) ?? {})) names.add(name)
  }
  return names
}

/** Keeps the examples that succeed; with none left, the field starts empty rather than failing. */
function keepSucceeding(holder: Json, successes: Set<string>): void {
  const examples = holder.examples as Examples
  if (!examples) return
  const kept = Object.entries(examples).filter(([name]) => successes.has(name))
  if (kept.length > 0) holder.examples = Object.fromEntries(kept)
  else delete holder.examples
}

/** Puts `id` into the examples: a path parameter's value, or a body's `id` field where it has one. */
function useId(holder: Json, id: number): void {
  for (const example of Object.values((holder.examples as Examples) ?? {})) {
    if (!isObject(example)) continue
    if (isObject(example.value) && 'id' in example.value) example.value = { ...example.value, id }
    else if (!isObject(example.value)) example.value = id
  }
}

function mergeAllOf(node: unknown, seen = new Set<unknown>()): void {
  if (!isObject(node) || seen.has(node)) return
  seen.add(node)
  if (Array.isArray(node.allOf)) {
    const flat = flatten(node)
    delete node.allOf
    if (flat.type) node.type = flat.type
    node.properties = flat.properties
    if (flat.required.length > 0) node.required = flat.required
  }
  for (const value of Object.values(node)) mergeAllOf(value, seen)
}
