// The oracle for generated probes, which is the document and not any server: the status a probe must
// get in a known state, and what the answer must hold (schema, Error code, WWW-Authenticate, Link
// exactly when more plants follow, a created plant that reads back digit for digit). Each stateful
// target keeps one principal in that state, undoing what a probe changed.
import { isDeepStrictEqual } from 'node:util'
import type { GivenPlant } from '@plant-store/core'
import { nextAddress } from '@plant-store/core'
import { UNKNOWN_TOKEN } from '../fixtures.js'
import { lowestSuccess, type OperationEntry } from './document.js'
import { type Answer, describeAnswer, type Endpoint, send } from './http.js'
import { type Defect, type Probe, requestOf } from './probes.js'
import { parseExact } from './stateful.js'
import { validateAnswer } from './validate.js'

/** A plant as the oracle keeps it: ids as bigint. */
export interface Plant {
  id: bigint
  name: string
  tag?: string
}

export type State = Map<bigint, Plant>

export function stateOf(plants: GivenPlant[]): State {
  return new Map(
    plants.map((p) => [
      BigInt(p.id),
      { id: BigInt(p.id), name: p.name, ...(p.tag === undefined ? {} : { tag: p.tag }) },
    ]),
  )
}

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

/** The status the document calls for, given the state the caller's plants are in. */
export function expectedStatus(probe: Probe, state: State): number {
  if (probe.defect) return defectStatus(probe.defect)
  const success = lowestSuccess(probe.entry) ?? 200
  const role = roleOf(probe.entry)
  if (role === 'create' && probe.id !== undefined && state.has(probe.id)) return 409
  if (role === 'item' && probe.id !== undefined && !state.has(probe.id)) return 404
  return success
}

/** A plant as the store answers it, read with parseExact (every integer a bigint). */
function asAnswered(plant: Plant): Record<string, unknown> {
  return { id: plant.id, name: plant.name, ...(plant.tag === undefined ? {} : { tag: plant.tag }) }
}

/** The plant a valid create or replace body describes (unknown keys dropped). */
function plantOf(probe: Probe): Plant | undefined {
  const body = probe.bodyValue as Record<string, unknown> | undefined
  if (!body || probe.id === undefined || typeof body.name !== 'string') return undefined
  return { id: probe.id, name: body.name, ...(typeof body.tag === 'string' ? { tag: body.tag } : {}) }
}

export interface Verdict {
  expected: number
  answer: Answer
  problems: string[]
}

/** Checks an answer against the document; on stateful targets the body against the state too. */
export function judge(probe: Probe, state: State, answer: Answer, stateful: boolean): Verdict {
  const expected = expectedStatus(probe, state)
  const problems: string[] = []
  if (answer.status !== expected) problems.push(`status ${answer.status}, the document says ${expected}`)
  problems.push(
    ...validateAnswer(probe.entry, answer, {
      requiredHeaders: answer.status === 401 ? ['www-authenticate'] : [],
    }),
  )
  if (!stateful || answer.status !== expected || expected >= 300) return { expected, answer, problems }

  const body = answer.isJson ? parseExact(answer.text) : undefined
  const role = roleOf(probe.entry)
  const plant = role === 'item' && probe.id !== undefined ? state.get(probe.id) : undefined
  const sent = plantOf(probe)
  if (role === 'list') {
    const limit = Number(probe.query.limit ?? 20)
    const tag = probe.query.tag
    const all = [...state.values()]
      .filter((p) => tag === undefined || p.tag === tag)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
    const page = all.slice(0, limit).map(asAnswered)
    if (!isDeepStrictEqual(body, page))
      problems.push(`the page should be ${JSON.stringify(page, bigintText)}`)
    const more = all.length > limit
    const link = nextAddress(answer.headers.link)
    if (more && !link) problems.push(`more plants follow (${all.length} > ${limit}), but there is no Link`)
    if (!more && answer.headers.link !== undefined)
      problems.push(`no plant follows, but Link says ${answer.headers.link}`)
  } else if (role === 'create' && sent) {
    const { id: _id, ...created } = asAnswered(sent)
    if (!isDeepStrictEqual(body, created))
      problems.push(`the body should be the Plant ${JSON.stringify(created)}`)
  } else if (probe.method === 'GET' && plant) {
    if (!isDeepStrictEqual(body, asAnswered(plant)))
      problems.push(`the body should be ${JSON.stringify(asAnswered(plant), bigintText)}`)
  } else if (probe.method === 'PUT' && sent) {
    if (!isDeepStrictEqual(body, asAnswered(sent)))
      problems.push(`the body should be ${JSON.stringify(asAnswered(sent), bigintText)}`)
  }
  return { expected, answer, problems }
}

export const bigintText = (_key: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)

/** A plant created by a valid probe must read back exactly as sent, its id digit for digit. */
export function readBackProblems(probe: Probe, readBack: Answer): string[] {
  const body = probe.bodyValue as Record<string, unknown>
  const expectedPlant = {
    name: body.name,
    id: probe.id,
    ...(typeof body.tag === 'string' ? { tag: body.tag } : {}),
  }
  const got = readBack.isJson ? (parseExact(readBack.text) as Record<string, unknown>) : undefined
  const same =
    got !== undefined &&
    got.name === expectedPlant.name &&
    BigInt(String(got.id)) === probe.id &&
    got.tag === expectedPlant.tag &&
    Object.keys(got).length === Object.keys(expectedPlant).length
  if (readBack.status === 200 && same) return []
  return [
    `the created plant reads back as ${describeAnswer(readBack)}, not ${JSON.stringify(expectedPlant, bigintText)}`,
  ]
}

// ---- One principal per stateful target, kept in the state ----------------------------------------

/**
 * The principal a target's probes run as, its plants kept equal to `state`: after a probe, what it
 * changed is undone; after an answer the oracle did not expect, a fresh principal takes over. A
 * server under test has no fresh principals: its one principal is brought back to the state instead,
 * touching only the plants the run created (`existing` are the plants it had before, left alone).
 */
export class Principal {
  token = ''
  /** Requests sent to set up, undo and read back, beside the probes themselves. */
  housekeeping = 0

  constructor(
    readonly target: Endpoint,
    private readonly state: State,
    private readonly existing?: ReadonlySet<bigint>,
  ) {}

  /** The state's plants that this run creates (all of them, but for a server under test's own). */
  private ours(): Plant[] {
    return [...this.state.values()].filter((p) => !this.existing?.has(p.id))
  }

  /** A fresh principal with exactly the state's plants; `touched`, the id of the probe judged wrong. */
  async reset(touched?: bigint): Promise<void> {
    this.token = this.target.newToken()
    if (!this.target.stateUrl) return
    if (this.existing) {
      const ids = new Set(this.ours().map((p) => p.id))
      if (touched !== undefined && !this.existing.has(touched)) ids.add(touched)
      for (const id of ids) await this.request('DELETE', `/plants/${id}`)
      for (const plant of this.ours()) await this.expect('POST', '/plants', 200, plant)
      return
    }
    // The sandbox seeds a new principal itself; the server's starts empty.
    if (!this.target.seeded)
      for (const plant of this.state.values()) await this.expect('POST', '/plants', 200, plant)
  }

  /** Deletes what the run created, at its end (a server under test's own plants stay). */
  async clear(): Promise<void> {
    for (const plant of this.ours()) await this.request('DELETE', `/plants/${plant.id}`)
  }

  authorization(probe: Probe): string | undefined {
    const auth = probe.auth
    if (auth.kind === 'principal') return `Bearer ${this.token}`
    if (auth.kind === 'unknown') return `Bearer ${UNKNOWN_TOKEN}`
    if (auth.kind === 'header') return auth.value
    return undefined
  }

  /** Sends the probe and reads back what a 200 create stored. */
  async send(probe: Probe): Promise<{ answer: Answer; readBack?: Answer }> {
    const answer = await (this.target.send ?? send)(
      this.target.url,
      requestOf(probe),
      this.authorization(probe),
    )
    let readBack: Answer | undefined
    if (
      this.target.stateUrl &&
      roleOf(probe.entry) === 'create' &&
      answer.status === 200 &&
      probe.id !== undefined
    ) {
      readBack = await this.request('GET', `/plants/${probe.id}`)
    }
    return { answer, readBack }
  }

  /** Puts the principal's plants back as the state has them, after a probe the oracle judged. */
  async undo(probe: Probe, status: number, judgedRight: boolean): Promise<void> {
    if (!this.target.stateUrl) return
    if (!judgedRight) return this.reset(probe.id)
    const id = probe.id
    if (id === undefined || status >= 300) return
    const before = this.state.get(id)
    if (roleOf(probe.entry) === 'create') await this.expect('DELETE', `/plants/${id}`, 204)
    else if (probe.method === 'PUT' && before)
      await this.expect('PUT', `/plants/${id}`, 200, { name: before.name, tag: before.tag })
    else if (probe.method === 'DELETE' && before) await this.expect('POST', '/plants', 200, before)
  }

  private async request(method: string, path: string, body?: Partial<Plant>): Promise<Answer> {
    this.housekeeping++
    const base = this.target.stateUrl ?? this.target.url
    return (this.target.send ?? send)(
      base,
      {
        method,
        path,
        auth: { kind: 'principal' },
        ...(body === undefined
          ? {}
          : {
              contentType: 'application/json',
              body: plantJson(body),
            }),
      },
      `Bearer ${this.token}`,
    )
  }

  private async expect(method: string, path: string, status: number, body?: Partial<Plant>): Promise<void> {
    const answer = await this.request(method, path, body)
    if (answer.status !== status) {
      throw new Error(
        `housekeeping on the ${this.target.name}: ${method} ${path} answered ${answer.status} ${answer.text}`,
      )
    }
  }
}

// JSON.stringify cannot write a bigint, and must not round the id through a number.
function plantJson(plant: Partial<Plant>): string {
  const fields = [
    ...(plant.id === undefined ? [] : [`"id":${plant.id}`]),
    `"name":${JSON.stringify(plant.name)}`,
    ...(plant.tag === undefined ? [] : [`"tag":${JSON.stringify(plant.tag)}`]),
  ]
  return `{${fields.join(',')}}`
}
