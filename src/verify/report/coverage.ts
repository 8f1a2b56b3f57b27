// What a run exercised of the document, operation by operation: each documented status (answered or
// not, and why not when a layer said), each parameter and request-body property (carried by a judged
// request or not), and each check (passed, failed, never judged), with one percentage a team can
// gate on: the document's promises judged, of those a request can show.

import { documentedStatuses, type JsonSchema, type OperationEntry } from '../document.js'
import type { RequestSpec } from '../http.js'
import { promiseCoverage, unjudgedParts } from '../promises/coverage.js'
import type { DocumentPromise } from '../promises/document-promises.js'
import {
  type CheckCoverage,
  type Coverage,
  type DocumentedParameter,
  type OperationCoverage,
  type ParameterCoverage,
  percentOf,
  type StatusCoverage,
  type Tally,
} from './coverage-summary.js'
import type { Results } from './results.js'

/** The reason given when no layer said why a documented status was not answered. */
export const NO_ANSWER = 'no answer of the run had it'

// ---- Parameters -----------------------------------------------------------------------------------

/** The top-level property names a body schema names, through allOf, anyOf and oneOf. */
function propertyNames(schema: JsonSchema | undefined, into = new Set<string>(), depth = 0): Set<string> {
  if (!schema || typeof schema !== 'object' || depth > 8) return into
  for (const name of Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}))
    into.add(name)
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = schema[key]
    if (Array.isArray(parts)) for (const part of parts) propertyNames(part as JsonSchema, into, depth + 1)
  }
  return into
}

/** The request-body properties the document names for an operation, over all its media types. */
function bodyProperties(entry: OperationEntry): Set<string> {
  const names = new Set<string>()
  for (const media of Object.values(entry.operation.requestBody?.content ?? {}))
    propertyNames(media.schema, names)
  return names
}

/** The parameters of an operation a run can exercise: path and query parameters, then body properties. */
export function documentedParameters(entry: OperationEntry): DocumentedParameter[] {
  const out: DocumentedParameter[] = []
  for (const p of entry.parameters)
    if (p.in === 'path' || p.in === 'query') out.push({ name: p.name, in: p.in })
  for (const name of bodyProperties(entry)) out.push({ name, in: 'body' })
  return out
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The names of the operation's parameters and body properties a request carried: each path
 * parameter with a value in the path, each documented query parameter in the query string, and each
 * top-level key of a JSON object body that the body's schema names. Pure, and lenient: a body that
 * is not JSON, or not an object, carries no property.
 */
export function parametersOf(entry: OperationEntry, request: Pick<RequestSpec, 'path' | 'body'>): string[] {
  const carried = new Set<string>()
  const [pathPart = '', query = ''] = splitOnce(request.path, '?')
  const names: string[] = []
  const pattern = entry.path.replace(/\{([^}]+)\}|[^{]+/g, (whole, name: string | undefined) => {
    if (name === undefined) return escapeRegExp(whole)
    names.push(name)
    return '([^/]*)'
  })
  const match = new RegExp(`^${pattern}/?$`).exec(pathPart)
  if (match) for (const [i, name] of names.entries()) if (match[i + 1]) carried.add(name)
  const documentedQuery = new Set(entry.parameters.filter((p) => p.in === 'query').map((p) => p.name))
  for (const key of new URLSearchParams(query).keys()) if (documentedQuery.has(key)) carried.add(key)
  if (request.body !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(request.body)
    } catch {
      value = undefined
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const named = bodyProperties(entry)
      for (const key of Object.keys(value)) if (named.has(key)) carried.add(key)
    }
  }
  return [...carried]
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)]
}

// ---- Why a status was not exercised ---------------------------------------------------------------

/** Each example name of an operation, with the status whose response documents it. */
function exampleStatuses(entry: OperationEntry): Map<string, number> {
  const byName = new Map<string, number>()
  for (const status of documentedStatuses(entry)) {
    const response = entry.operation.responses[String(status)]
    for (const media of Object.values(response?.content ?? {}))
      for (const name of Object.keys(media.examples ?? {})) if (!byName.has(name)) byName.set(name, status)
    for (const name of response?.['x-example-names'] ?? []) if (!byName.has(name)) byName.set(name, status)
  }
  return byName
}

/**
 * The reasons layers gave, as notes `not exercised: <operationId> · <example> (<why>)`, by
 * operation and the status that example documents.
 */
function reasonsFromNotes(
  notes: readonly string[],
  entries: readonly OperationEntry[],
): Map<string, string[]> {
  const reasons = new Map<string, string[]>()
  const examples = new Map(entries.map((e) => [e.operationId, exampleStatuses(e)]))
  for (const note of notes) {
    const found = /^not exercised: (.+?) · (.+?) \((.*)\)$/s.exec(note)
    if (!found) continue
    const [, operationId = '', example = '', why = ''] = found
    const status = examples.get(operationId)?.get(example)
    if (status === undefined) continue
    const key = `${operationId} ${status}`
    const list = reasons.get(key) ?? []
    if (!list.includes(why)) list.push(why)
    reasons.set(key, list)
  }
  return reasons
}

// ---- The summary ----------------------------------------------------------------------------------

/**
 * What the run exercised. `entries` are the document's operations (`loadDocument(spec).operations`):
 * without them, only statuses and checks are counted, as the parameters are not known. `promises`,
 * the document's (`loadPromises(spec)`): each is then said exercised or not, and why. `outsideProfile`,
 * the promises of the whole document the run's profile leaves out (the kit profile's, in a run of the
 * interface): counted among the parts not judged.
 */
export function coverageOf(
  results: Results,
  entries: readonly OperationEntry[] = [],
  promises?: readonly DocumentPromise[],
  outsideProfile: readonly DocumentPromise[] = [],
): Coverage {
  const byId = new Map(entries.map((e) => [e.operationId, e]))
  const reasons = reasonsFromNotes(results.notes, entries)
  const cells = new Map(results.rows().map((r) => [`${r.operationId}\t${r.check}`, r]))
  const statuses: Tally = { exercised: 0, total: 0 }
  const parameters: Tally = { exercised: 0, total: 0 }
  const checks = { passed: 0, failed: 0, notJudged: 0 }
  // A run that counts only some of an operation's parameters (a consumer's: those it sends) says which.
  const countedOf = new Map(results.operations.map((o) => [o.operationId, o.parameters]))
  const operations = results.operations.map(({ operationId, statuses: documented }): OperationCoverage => {
    const seen = results.statusesSeen(operationId)
    const statusRows = documented.map((status): StatusCoverage => {
      const exercised = seen.includes(status)
      statuses.total++
      if (exercised) {
        statuses.exercised++
        return { status, exercised }
      }
      const why = [
        ...results.reasonsNotExercised(operationId, status),
        ...(reasons.get(`${operationId} ${status}`) ?? []),
      ]
      return { status, exercised, reason: why.length ? [...new Set(why)].join('; ') : NO_ANSWER }
    })
    const entry = byId.get(operationId)
    const carried = new Set(results.parametersCarried(operationId))
    const counted = countedOf.get(operationId)
    const counts = (p: DocumentedParameter) =>
      !counted || counted.some((c) => c.name === p.name && c.in === p.in)
    const countedHere = entry ? documentedParameters(entry).filter(counts) : []
    const parameterRows = countedHere.map((p): ParameterCoverage => {
      const exercised = carried.has(p.name)
      parameters.total++
      if (exercised) parameters.exercised++
      return { ...p, exercised }
    })
    const checkRows = [...results.selected].map((check): CheckCoverage => {
      const cell = cells.get(`${operationId}\t${check}`)
      const passed = cell?.passed ?? 0
      const failed = cell?.failed ?? 0
      const state = failed ? 'failed' : passed ? 'passed' : 'not judged'
      if (state === 'failed') checks.failed++
      else if (state === 'passed') checks.passed++
      else checks.notJudged++
      return { check, passed, failed, state }
    })
    return {
      operationId,
      statuses: statusRows,
      undocumented: seen.filter((s) => !documented.includes(s)).sort((a, b) => a - b),
      parameters: parameterRows,
      checks: checkRows,
    }
  })
  const counted = { statuses, parameters, checks, operations }
  if (!promises) {
    const exercised = statuses.exercised + parameters.exercised
    const total = statuses.total + parameters.total
    const counts = 'statuses and parameters exercised'
    return { percent: percentOf(exercised, total), exercised, total, counts, ...counted }
  }
  const covered = promiseCoverage(promises, results.judged)
  const showable = covered.filter((p) => !p.untestable)
  // Judged: a request exercised it, and one of its own checks, which would have reported a breach, judged it.
  const exercised = showable.filter((p) => p.requests > 0 && p.checks.length > 0).length
  return {
    percent: percentOf(exercised, showable.length),
    exercised,
    total: showable.length,
    counts: 'promises judged',
    ...counted,
    promises: covered,
    notJudged: unjudgedParts(covered, outsideProfile),
  }
}
