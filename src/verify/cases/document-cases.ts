// The cases the document's examples give (examples.ts) and the negative cases derived from them
// (negative.ts), and what both share: a case's request built from the document's examples of one
// name, the operation's base request, and the headers a status must carry.

import {
  type Example,
  lowestSuccess,
  type MediaType,
  type OperationEntry,
  type Response,
} from '../document.js'
import type { Derivation } from '../document-prose.js'
import { requiredHeaders } from '../document-prose.js'
import type { RequestSpec } from '../http.js'
import { type Parts, type Probe, requestOf, toProbe } from './probe.js'

export interface ExampleCase {
  kind: 'example'
  /** `operationId · example`, the name deviations and messages use. */
  id: string
  entry: OperationEntry
  example: string
  /** The status of the response that documents this example. */
  status: number
  response: Response
  /** The documented body, or undefined for a response without a body. */
  body: { mediaType: string; value: unknown } | undefined
  request: RequestSpec
  /** Plants the caller must own first (x-given-plants of every example the request uses). */
  givenPlants: Plant[]
  requiredHeaders: string[]
  derivation?: Derivation
  /** For a derived case: the base request it was derived from. */
  baseRequest?: RequestSpec
}

export interface GeneratedCase {
  kind: 'generated'
  id: string
  /** Undefined for a path the document does not have. */
  entry: OperationEntry | undefined
  /** The request as a probe of the operation (the case model of every generated request); none for a path the document lacks. */
  probe?: Probe
  request: RequestSpec
  /** The status the document calls for. */
  status: number
  requiredHeaders: string[]
  /** Plants the caller must own first: the base request's, for cases expecting success. */
  givenPlants: Plant[]
}

export type Case = ExampleCase | GeneratedCase

export type Plant = Record<string, unknown> & { id: number }

/** A breach of the document's example conventions: reported by a test of its own, not thrown. */
export interface ConventionProblem {
  operationId: string
  message: string
}

export const JSON_TYPE = 'application/json'

export const firstEntry = (examples: Record<string, Example> | undefined): [string, Example] | undefined =>
  examples ? Object.entries(examples)[0] : undefined

export function jsonMedia(content: Record<string, MediaType> | undefined): MediaType | undefined {
  return content?.[JSON_TYPE]
}

/**
 * The request for a named example, as a probe's parts: each parameter and the body take their example
 * of that name; a required one without such an example takes its first example; an optional one is
 * left out.
 */
export function exampleParts(entry: OperationEntry, name: string): { parts: Parts; givenPlants: Plant[] } {
  const used: Example[] = []
  const parts: Parts = {
    defect: undefined,
    features: [],
    pathValues: {},
    query: [],
    auth: entry.secured ? { kind: 'principal' } : { kind: 'none' },
  }
  for (const p of entry.parameters) {
    const example = p.examples?.[name] ?? (p.required ? firstEntry(p.examples)?.[1] : undefined)
    if (!example) {
      if (p.required) throw new Error(`${entry.operationId}: required parameter ${p.name} has no example`)
      continue
    }
    used.push(example)
    const value = String(example.value)
    if (p.in === 'path') parts.pathValues[p.name] = encodeURIComponent(value)
    else if (p.in === 'query') parts.query.push([p.name, value])
    else throw new Error(`${entry.operationId}: ${p.in} parameters are not supported by the suite yet`)
  }
  const requestBody = entry.operation.requestBody
  if (requestBody) {
    const media = jsonMedia(requestBody.content)
    const example =
      media?.examples?.[name] ?? (requestBody.required ? firstEntry(media?.examples)?.[1] : undefined)
    if (example) {
      used.push(example)
      parts.contentType = JSON_TYPE
      parts.body = JSON.stringify(example.value)
      parts.bodyValue = example.value
    } else if (requestBody.required) {
      throw new Error(`${entry.operationId}: the required body has no application/json example`)
    }
  }
  const givenPlants = new Map<string, Plant>()
  for (const example of used) {
    for (const plant of (example['x-given-plants'] ?? []) as Plant[])
      givenPlants.set(JSON.stringify(plant), plant)
  }
  return { parts, givenPlants: [...givenPlants.values()] }
}

/** The request for a named example (see exampleParts). */
export function requestFor(
  entry: OperationEntry,
  name: string,
): { request: RequestSpec; givenPlants: Plant[] } {
  const { parts, givenPlants } = exampleParts(entry, name)
  return { request: requestOf(toProbe(entry, parts)), givenPlants }
}

/** The name of the operation's first success example: its request is the base of derived requests. */
export function baseExampleName(entry: OperationEntry): string | undefined {
  const status = lowestSuccess(entry)
  if (status === undefined) return undefined
  const response = entry.operation.responses[String(status)]
  const media = response?.content ? Object.values(response.content)[0] : undefined
  return firstEntry(media?.examples)?.[0] ?? response?.['x-example-names']?.[0]
}

export function headersFor(status: number, example?: string): string[] {
  return [
    ...(requiredHeaders.byStatus[status] ?? []),
    ...((example && requiredHeaders.byExample[example]) || []),
  ]
}
