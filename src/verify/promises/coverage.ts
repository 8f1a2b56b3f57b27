// A run's coverage by promise: for each promise of the document, how many judged requests exercised
// it and which checks judged them, or why none did; and the gaps between the document's promises and
// the registry (a promise no entry names, an entry that names no promise).
import SwaggerParser from '@apidevtools/swagger-parser'
import { document as shipped } from '@plant-store/core'
import { statusCodeConformance } from '../checks/status-code-conformance.js'
import type { Profile } from '../document.js'
import type { JudgedFacts } from '../report/results.js'
import { type DocumentPromise, documentPromises, type PromiseSource } from './document-promises.js'
import { OPTIONAL_PARTS, type OptionalPart, OUTSIDE_PROFILE } from './exercise.js'
import { entryFor, PROMISE_REGISTRY, type PromiseEntry } from './registry.js'

export interface PromiseCoverage {
  id: string
  source: PromiseSource
  /** The judged requests that exercised it. */
  requests: number
  /** Of those, the failed requests filed under it: built to test it, or touching it where nothing they were built for failed. */
  failed: number
  /** The checks that judged those requests, of those the registry gives it. */
  checks: string[]
  /** Why it was not exercised: not testable from outside, a reason the registry gives, or no case. */
  reason?: string
  /** Whether no request from outside can show it (the reason says why). */
  untestable?: true
}

/** Said of a promise no registry entry names: the kit's suite does not let one through. */
export const NO_CASE = 'the verifier has no case for it'
/** Said of a promise with a case that no request of this run was. */
export const NOT_SENT = 'no request of this run exercised it'

/**
 * The promises of the document at `spec` (the shipped one without), as written (not dereferenced):
 * the interface's, or with `kit` the kit profile's too.
 */
export async function loadPromises(
  spec?: string,
  profile: Profile = 'interface',
): Promise<DocumentPromise[]> {
  const raw = spec === undefined ? structuredClone(shipped) : await SwaggerParser.parse(spec)
  return documentPromises(raw, profile)
}

/** Said of a promise whose cases only layers the run left out send. */
export const layersLeftOut = (layers: readonly string[]) =>
  `only the ${layers.join(' or ')} layer sends it, and this run judged nothing of ${layers.length > 1 ? 'theirs' : 'its'} (--only)`

/** Each promise with the requests that exercised it and the checks that judged them, or why none did. */
export function promiseCoverage(
  promises: readonly DocumentPromise[],
  judged: readonly JudgedFacts[],
  registry: readonly PromiseEntry[] = PROMISE_REGISTRY,
): PromiseCoverage[] {
  const ran = new Set<string>(judged.map((r) => r.layer))
  const why = (entry: PromiseEntry) =>
    entry.sentBy && !entry.sentBy.some((layer) => ran.has(layer))
      ? layersLeftOut(entry.sentBy)
      : (entry.unlessSaid ?? NOT_SENT)
  const found = new Map(promises.map(({ id }) => [id, entryFor(id, registry)]))
  const exercises = (id: string, r: JudgedFacts) => {
    const at = found.get(id)
    return !at?.entry.untestable && (at?.entry.exercisedBy?.(r, at.captured) ?? false)
  }
  const its = (id: string, check: string) => {
    const checks = found.get(id)?.entry.checks
    return !checks || checks.includes(check)
  }
  // A failed request is filed under the promises its case was built to test: those it exercises by
  // its kind (a crossed principal's read: the principals' promises), not every promise it touched (any
  // read naming a plant: PlantId); and under each promise that is about nothing but the check that
  // failed (a 401 without WWW-Authenticate: that header's promise and its RFCs' rules), since that
  // failure breaks it whatever the case was for (the status alone says too little to count so: every
  // promise's answer has a status). Where no promise of its kind failed, under each whose check failed.
  const onlyAbout = (id: string, failed: readonly string[]) => {
    const checks = found.get(id)?.entry.checks
    return (
      checks?.length === 1 && checks[0] !== statusCodeConformance.name && failed.includes(checks[0] as string)
    )
  }
  const filed = new Map<JudgedFacts, Set<string>>()
  for (const r of judged) {
    if (!r.failed.length) continue
    const failedHere = promises
      .map((p) => p.id)
      .filter((id) => exercises(id, r) && r.failed.some((check) => its(id, check)))
    const aimed = failedHere.filter((id) => !exercises(id, { ...r, kinds: [] }))
    const about = failedHere.filter((id) => onlyAbout(id, r.failed))
    filed.set(r, new Set([...(aimed.length ? aimed : failedHere), ...about]))
  }
  return promises.map(({ id, source }) => {
    const at = found.get(id)
    if (!at) return { id, source, requests: 0, failed: 0, checks: [], reason: NO_CASE }
    const { entry } = at
    if (entry.untestable)
      return { id, source, requests: 0, failed: 0, checks: [], reason: entry.untestable, untestable: true }
    const exercised = judged.filter((r) => exercises(id, r))
    const checks = new Set<string>()
    for (const r of exercised) for (const check of r.checks) if (its(id, check)) checks.add(check)
    return {
      id,
      source,
      requests: exercised.length,
      failed: exercised.filter((r) => filed.get(r)?.has(id)).length,
      checks: [...checks],
      ...(exercised.length ? {} : { reason: why(entry) }),
    }
  })
}

/** Promises no registry entry names, and entries whose promise is gone from the document. */
export function registryGaps(
  promises: readonly DocumentPromise[],
  registry: readonly PromiseEntry[] = PROMISE_REGISTRY,
): { unregistered: string[]; stale: string[] } {
  const used = new Set<PromiseEntry>()
  const unregistered: string[] = []
  for (const { id } of promises) {
    const found = entryFor(id, registry)
    if (found) used.add(found.entry)
    else unregistered.push(id)
  }
  const stale = registry.filter((e) => !used.has(e)).map((e) => String(e.promise))
  return { unregistered, stale }
}

/** One line: the promises exercised, of those a request can show. */
export function promisesLine(promises: readonly PromiseCoverage[]): string {
  const testable = promises.filter((p) => !p.untestable)
  const exercised = testable.filter((p) => p.requests > 0).length
  const untestable = promises.length - testable.length
  return `Promises exercised: ${exercised} of ${testable.length}${untestable ? ` (and ${untestable} no request can show)` : ''}`
}

/** A part of the document the run did not judge, the promises of it a request could show, and the option that judges it. */
export interface UnjudgedPart extends OptionalPart {
  promises: number
}

/**
 * The parts of the document a run left unjudged for want of an option, each with how many of its
 * promises a request could show: those not exercised for a reason the registry ties to an option,
 * and the promises of the whole document outside the run's profile (`outsideProfile`).
 */
export function unjudgedParts(
  promises: readonly PromiseCoverage[],
  outsideProfile: readonly DocumentPromise[] = [],
  registry: readonly PromiseEntry[] = PROMISE_REGISTRY,
): UnjudgedPart[] {
  const counts = new Map<string, number>()
  const count = (reason: string) => counts.set(reason, (counts.get(reason) ?? 0) + 1)
  for (const p of promises) if (!p.untestable && p.requests === 0 && p.reason) count(p.reason)
  for (const p of promiseCoverage(outsideProfile, [], registry)) if (!p.untestable) count(OUTSIDE_PROFILE)
  return [...OPTIONAL_PARTS].flatMap(([reason, part]) => {
    const n = counts.get(reason)
    return n ? [{ ...part, promises: n }] : []
  })
}

/** One line: each part not judged, its promises and the option that judges it; undefined when none. */
export function unjudgedLine(parts: readonly UnjudgedPart[]): string | undefined {
  if (!parts.length) return undefined
  return `Not judged: ${parts.map((p) => `${p.part} (${p.promises} promise${p.promises === 1 ? '' : 's'}): ${p.option}`).join('; ')}.`
}
