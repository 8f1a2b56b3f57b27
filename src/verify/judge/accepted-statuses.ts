// The statuses the document allows a probe in the caller's state: how an operation uses the plant its
// request names, what each defect is refused with, and where the document leaves two answers open.
import { LosslessNumber } from 'lossless-json'
import type { Defect, Probe } from '../cases/probe.js'
import { lowestSuccess, type OperationEntry } from '../document.js'
import { parseExact } from '../exact-json.js'
import type { State } from './state.js'

/** The status of each defect, as the document's responses and its prose give them. */
export function defectStatus(defect: Defect): number {
  if (defect.startsWith('auth:')) return 401
  if (defect.startsWith('content type:')) return 415
  if (defect === 'body: too large') return 413
  return 400
}

/**
 * How an operation uses the plant its request names: the document's verbs for the store; `other` for
 * one that answers no plants (the health checks), whose body only the document's schema judges.
 */
type Role = 'create' | 'list' | 'item' | 'other'

export function roleOf(entry: OperationEntry): Role {
  if (entry.parameters.some((p) => p.in === 'path')) return 'item'
  if (entry.operation.requestBody) return 'create'
  const success = entry.operation.responses[String(lowestSuccess(entry) ?? 200)]
  const schema = success?.content?.['application/json']?.schema as { type?: unknown } | undefined
  return schema?.type === 'array' ? 'list' : 'other'
}

/**
 * The statuses the document allows a probe in the caller's state, the one the kit's server gives first.
 * Where the document does not order two conditions a request meets at once (a body it refuses for a
 * plant the caller does not have; a refused body that names a taken id), either status is its answer;
 * a missing or unknown token comes before everything else (the document says so).
 */
export function acceptedStatuses(probe: Probe, state: State): number[] {
  const role = roleOf(probe.entry)
  if (probe.defect) {
    const status = defectStatus(probe.defect)
    // Past the size every store takes (the kit's server takes no more), a store may refuse the body
    // by its size or by what it holds, or take it.
    if (probe.defect === 'body: too large') {
      const taken = role === 'create' ? (probe.id !== undefined && state.has(probe.id) ? 409 : 200) : 200
      const found = role === 'item' && probe.id !== undefined && !state.has(probe.id) ? 404 : taken
      return [status, 400, found]
    }
    const accepted = [status]
    // No body where one is required has no content type either: a 400 or a 415.
    if (probe.defect === 'body: none') accepted.push(415)
    if (status !== 401 && /^(body|content type):/.test(probe.defect)) {
      if (role === 'item' && probe.id !== undefined && !state.has(probe.id)) accepted.push(404)
      // A refused body is drawn apart from the request's own id: the id it names is its own.
      const named = role === 'create' ? idInBody(probe) : undefined
      if (named !== undefined && state.has(named)) accepted.push(409)
    }
    return accepted
  }
  const success = lowestSuccess(probe.entry) ?? 200
  if (role === 'create' && probe.id !== undefined && state.has(probe.id)) return [409]
  if (role === 'item' && probe.id !== undefined && !state.has(probe.id)) return [404]
  return [success]
}

/** The status the kit's server gives a probe: the first the document allows. */
export function expectedStatus(probe: Probe, state: State): number {
  return acceptedStatuses(probe, state)[0] as number
}

/** The integer a (refused) body carries where a plant's id goes, if it carries one. */
function idInBody(probe: Probe): bigint | undefined {
  try {
    const body = parseExact(probe.body ?? '') as Record<string, unknown> | null
    const id = typeof body === 'object' && body !== null ? body.id : undefined
    if (typeof id === 'bigint') return id
    return id instanceof LosslessNumber ? integerOf(id.toString()) : undefined
  } catch {
    return undefined
  }
}

/** The integer a JSON number's text stands for (`1e3`, `1000.0`), or undefined when it has a fraction. */
function integerOf(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)
  if (!m) return undefined
  const digits = `${m[2]}${m[3] ?? ''}`
  const exponent = Number(m[4] ?? 0) - (m[3]?.length ?? 0)
  if (exponent >= 0) return exponent > 400 ? undefined : BigInt(`${m[1]}${digits}${'0'.repeat(exponent)}`)
  if (/[^0]/.test(digits.slice(exponent))) return undefined
  return BigInt(`${m[1]}${digits.slice(0, exponent) || '0'}`)
}
