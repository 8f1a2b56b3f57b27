// "Who uses this": the places of a document (each operation, parameter, status and field) and the
// consumer versions whose contracts use each, in the same words on both sides, so that a place no
// running consumer uses is one the store can deprecate.
import { type ConsumerContract, type Document, flatten, type Method, readPaths } from '@plant-store/core'
import { short } from './content.js'
import type { VersionRow } from './version-row.js'

/**
 * Every place of the store version's document, in its order, with the consumer versions (each with
 * where it runs) whose contracts use it.
 */
export function usesOf(
  store: VersionRow,
  document: Document,
  consumers: { consumer: VersionRow & { where: string[] }; contract: ConsumerContract }[],
): { document: string; entries: { place: string; users: string[] }[] } {
  const users = new Map<string, Set<string>>()
  for (const { consumer, contract } of consumers) {
    const who = `${consumer.application} ${short(consumer.version)} (${consumer.where.join(', ')})`
    for (const place of placesOf(contract))
      (users.get(place) ?? users.set(place, new Set()).get(place))?.add(who)
  }
  return {
    document: `${store.application} ${store.version}`,
    entries: documentPlaces(document).map((place) => ({
      place,
      users: [...(users.get(place) ?? [])].sort(),
    })),
  }
}

/** A schema with every allOf merged in, all the way down, as readPaths reads it. */
function merged(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined
  const flat = flatten(schema)
  const items = schema.items as Record<string, unknown> | undefined
  return {
    properties: Object.fromEntries(Object.entries(flat.properties).map(([k, v]) => [k, merged(v)])),
    ...(items ? { items: merged(items) } : {}),
  }
}

const methodOrder: Method[] = ['get', 'put', 'post', 'delete', 'patch']

/** The places a contract uses, in the words documentPlaces gives them. */
function placesOf(contract: ConsumerContract): string[] {
  const out: string[] = []
  for (const [path, item] of Object.entries(contract.paths))
    for (const [method, operation] of Object.entries(item)) {
      const op = `${method.toUpperCase()} ${path}`
      out.push(op)
      for (const p of operation.parameters ?? []) out.push(`${op} ${p.in} parameter ${p.name}`)
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        for (const field of readPaths(media.schema)) out.push(`${op} request body: ${field}`)
      for (const [status, response] of Object.entries(operation.responses)) {
        out.push(`${op} ${status}`)
        for (const media of Object.values(response.content ?? {}))
          for (const field of readPaths(media.schema)) out.push(`${op} ${status}: ${field}`)
      }
    }
  return out
}

/** Every operation, parameter, request field, status and answer field of a document, in its order. */
function documentPlaces(document: Document): string[] {
  const out: string[] = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shared = ((item as { parameters?: unknown[] }).parameters ?? []) as { in: string; name: string }[]
    for (const method of methodOrder) {
      const operation = (item as Record<string, unknown>)[method] as
        | {
            parameters?: { in: string; name: string }[]
            requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> }
            responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>
          }
        | undefined
      if (!operation) continue
      const op = `${method.toUpperCase()} ${path}`
      out.push(op)
      for (const p of [...shared, ...(operation.parameters ?? [])])
        out.push(`${op} ${p.in} parameter ${p.name}`)
      const fields = (content: Record<string, { schema?: Record<string, unknown> }> | undefined) => [
        ...new Set(Object.values(content ?? {}).flatMap((m) => readPaths(merged(m.schema)))),
      ]
      for (const field of fields(operation.requestBody?.content)) out.push(`${op} request body: ${field}`)
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        out.push(`${op} ${status}`)
        for (const field of fields(response.content)) out.push(`${op} ${status}: ${field}`)
      }
    }
  }
  return out
}
