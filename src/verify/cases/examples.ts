// Cases from the document's named examples: one per response example, its request the request
// example of the same name, or a derivation (document-prose.ts) of the operation's base request.

import { documentedStatuses, type OperationEntry, type Response } from '../document.js'
import {
  DEFAULT_AUTH_FAILURE_LIMIT,
  DEFAULT_RATE_LIMIT,
  type Derivation,
  derivedExamples,
} from '../document-prose.js'
import { type RequestSpec, STALLED_WAIT_MS } from '../http.js'
import {
  baseExampleName,
  type ConventionProblem,
  type ExampleCase,
  headersFor,
  JSON_TYPE,
  jsonMedia,
  type Plant,
  requestFor,
} from './document-cases.js'

/** Every response example of an operation, with the status documenting it. */
function responseExamples(entry: OperationEntry, problems: ConventionProblem[]) {
  const found = new Map<string, { status: number; response: Response; mediaType?: string; value?: unknown }>()
  for (const status of documentedStatuses(entry)) {
    const response = entry.operation.responses[String(status)]
    if (!response) continue
    const add = (name: string, mediaType?: string, value?: unknown) => {
      const seen = found.get(name)
      if (seen && seen.status !== status) {
        problems.push({
          operationId: entry.operationId,
          message: `example "${name}" is documented under both ${seen.status} and ${status}: a request cannot produce both`,
        })
        return
      }
      found.set(name, { status, response, mediaType, value })
    }
    for (const [mediaType, media] of Object.entries(response.content ?? {})) {
      for (const [name, example] of Object.entries(media.examples ?? {})) add(name, mediaType, example.value)
    }
    for (const name of response['x-example-names'] ?? []) add(name)
    if (!response.content && !response['x-example-names']?.length) {
      problems.push({
        operationId: entry.operationId,
        message: `the bodiless ${status} response names no request example (x-example-names), so nothing exercises it`,
      })
    }
  }
  return found
}

/** The names of all request examples of an operation (parameters and body). */
function requestExampleNames(entry: OperationEntry): Set<string> {
  const names = new Set<string>()
  for (const p of entry.parameters) for (const name of Object.keys(p.examples ?? {})) names.add(name)
  for (const name of Object.keys(jsonMedia(entry.operation.requestBody?.content)?.examples ?? {}))
    names.add(name)
  return names
}

/** What the cases are built for: the rate limit of the server they will be sent to. */
export interface ExampleSettings {
  /** Requests a principal may make in a window (default: the document's 1000). */
  rateLimit?: number
}

function derive(
  base: RequestSpec,
  derivation: Derivation,
  settings: ExampleSettings,
): { request: RequestSpec; keepGivens: boolean } {
  switch (derivation.kind) {
    case 'no-token':
      return { request: { ...base, auth: { kind: 'none' } }, keepGivens: false }
    case 'unknown-token':
      return { request: { ...base, auth: { kind: 'unknown' } }, keepGivens: false }
    case 'oversized-body': {
      // The padding goes in a key no schema names, which a reader ignores: only the size is wrong.
      const body = JSON.parse(base.body ?? '{}') as Record<string, unknown>
      const padding = Math.max(0, derivation.bytes - (base.body ?? '').length)
      body.padding = 'x'.repeat(padding)
      return { request: { ...base, contentType: JSON_TYPE, body: JSON.stringify(body) }, keepGivens: true }
    }
    case 'store-down':
      return { request: base, keepGivens: true }
    case 'raw-body': {
      const { contentType: _json, ...rest } = base
      return {
        request: {
          ...rest,
          ...(derivation.contentType === undefined ? {} : { contentType: derivation.contentType }),
          body: derivation.body,
        },
        keepGivens: true,
      }
    }
    case 'over-rate-limit':
      // A few past the limit: the setup of a case spends some of it too.
      return {
        request: { ...base, repeat: { until: 429, atMost: (settings.rateLimit ?? DEFAULT_RATE_LIMIT) + 5 } },
        keepGivens: false,
      }
    case 'over-failed-auth-limit':
      return {
        request: {
          ...base,
          auth: { kind: 'unknown' },
          repeat: { until: 429, atMost: DEFAULT_AUTH_FAILURE_LIMIT + 5 },
        },
        keepGivens: false,
      }
    case 'other-method':
      return { request: { ...base, method: derivation.method }, keepGivens: false }
    case 'long-path-segment': {
      const [path = '', query] = base.path.split('?')
      const long = path.replace(/[^/]*$/, '9'.repeat(derivation.length))
      return {
        request: { ...base, path: query === undefined ? long : `${long}?${query}` },
        keepGivens: false,
      }
    }
    case 'oversized-headers':
      return {
        request: { ...base, headers: { ...base.headers, 'x-padding': 'x'.repeat(derivation.bytes) } },
        keepGivens: false,
      }
    case 'stalled':
      // A verifier run waits the store's headers timeout, which --headers-timeout gives, and a margin.
      return { request: { ...base, stall: STALLED_WAIT_MS }, keepGivens: false }
    case 'fault':
      return {
        request: {
          ...base,
          headers: {
            ...base.headers,
            'x-simulate-fault': derivation.fault,
            prefer: `code=${derivation.status}`,
          },
        },
        keepGivens: true,
      }
  }
}

export function exampleCases(
  operations: OperationEntry[],
  problems: ConventionProblem[] = [],
  settings: ExampleSettings = {},
): ExampleCase[] {
  const cases: ExampleCase[] = []
  for (const entry of operations) {
    const responses = responseExamples(entry, problems)
    const requestNames = requestExampleNames(entry)
    for (const name of requestNames) {
      if (!responses.has(name)) {
        problems.push({
          operationId: entry.operationId,
          message: `request example "${name}" has no response example of the same name, so its answer is unspecified`,
        })
      }
    }
    const baseName = baseExampleName(entry)
    // An operation that takes nothing (no parameters, no body): its one request produces its examples.
    const takesNothing = entry.parameters.length === 0 && !entry.operation.requestBody
    for (const [name, documented] of responses) {
      const derivation = requestNames.has(name) ? undefined : derivedExamples[name]
      let built: { request: RequestSpec; givenPlants: Plant[]; base?: RequestSpec }
      try {
        if (requestNames.has(name) || (takesNothing && !derivation)) {
          built = requestFor(entry, name)
        } else if (derivation && baseName !== undefined) {
          const base = requestFor(entry, baseName)
          const { request, keepGivens } = derive(base.request, derivation, settings)
          built = { request, givenPlants: keepGivens ? base.givenPlants : [], base: base.request }
        } else {
          problems.push({
            operationId: entry.operationId,
            message: `response example "${name}" (${documented.status}) has no request example of the same name and no derivation in the verifier's document-prose.ts`,
          })
          continue
        }
      } catch (error) {
        problems.push({ operationId: entry.operationId, message: (error as Error).message })
        continue
      }
      cases.push({
        kind: 'example',
        id: `${entry.operationId} · ${name}`,
        entry,
        example: name,
        status: documented.status,
        response: documented.response,
        body:
          documented.mediaType === undefined
            ? undefined
            : { mediaType: documented.mediaType, value: documented.value },
        request: built.request,
        givenPlants: built.givenPlants,
        requiredHeaders: headersFor(documented.status, name),
        derivation,
        ...(built.base ? { baseRequest: built.base } : {}),
      })
    }
  }
  return cases
}
