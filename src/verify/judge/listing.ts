// The oracle for generated probes, which is the document and not any server: the status a probe must
// get in a known state, and what the answer must hold (schema, Error code, WWW-Authenticate, Link
// exactly when more plants follow, a created plant that reads back digit for digit). Each stateful
// target keeps one principal in that state, undoing what a probe changed.
import type { GivenPlant } from '@plant-store/core'
import { nextAddress } from '@plant-store/core'
import { LosslessNumber } from 'lossless-json'
import { type CheckName, type Finding, finding } from '../checks.js'
import { lowestSuccess, type OperationEntry } from '../document.js'
import { UNKNOWN_TOKEN } from '../document-prose.js'
import { parseExact } from '../exact-json.js'
import { type Answer, describeAnswer, type Endpoint, type RequestSpec, send } from '../http.js'
import { type Defect, type Probe, requestOf } from '../requests/generated.js'
import { judgeAnswer } from './answer.js'
import { answerOptions, EXACT, type Judging, PLANT_FIELDS, type Plant, plantProblem, shown } from './plant.js'

export type { Plant } from './plant.js'

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

/** The plant a valid create or replace body describes (unknown keys dropped). */
function plantOf(probe: Probe): Plant | undefined {
  const body = probe.bodyValue as Record<string, unknown> | undefined
  if (!body || probe.id === undefined || typeof body.name !== 'string') return undefined
  return { id: probe.id, name: body.name, ...(typeof body.tag === 'string' ? { tag: body.tag } : {}) }
}

/** The page the store must answer a list probe with, and whether more plants follow it. */
export function expectedPage(state: State, query: Record<string, string>, from?: bigint) {
  const limit = Number(query.limit ?? 20)
  const all = [...state.values()]
    .filter((p) => query.tag === undefined || p.tag === query.tag)
    .filter((p) => from === undefined || p.id > from)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
  return { page: all.slice(0, limit), more: all.length > limit, limit, total: all.length }
}

/** What is wrong with a page against the store's page: order first, then each plant. */
export function pageFindings(
  operationId: string,
  body: unknown,
  expected: Plant[],
  judging: Judging,
  fields: string[] = PLANT_FIELDS,
): Finding[] {
  if (!Array.isArray(body))
    return [finding('store_conformance', `the answer is ${shown(body)}, not a page of plants`)]
  const ids = body.map((p) => (p as Record<string, unknown> | null)?.id)
  const out = ids.findIndex(
    (id, i) =>
      i > 0 && typeof id === 'bigint' && typeof ids[i - 1] === 'bigint' && id <= (ids[i - 1] as bigint),
  )
  if (out > 0) return [finding('link_conformance', `the page is not in ascending order of id: ${shown(ids)}`)]
  if (body.length !== expected.length)
    return [
      finding(
        'store_conformance',
        `the page holds ${body.length} plant(s), the store ${expected.length}: ids ${shown(ids)}, the store's ${shown(expected.map((p) => p.id))}`,
      ),
    ]
  const wrong = expected
    .map((plant, i) => plantProblem(operationId, body[i], plant, fields, judging))
    .map((problem, i) => (problem ? `plant ${i + 1} of the page: ${problem}` : undefined))
    .filter((p): p is string => p !== undefined)
  return wrong.map((message) => finding('store_conformance', message))
}

const NO_ORIGIN = 'http://origin.invalid'

/**
 * A Link target, in any form RFC 8288 allows (absolute, network-path, path-absolute, path-relative or
 * query-only), resolved against `from`, the address of the request that got the page (RFC 8288 §3.2,
 * RFC 3986 §5.2): an answer's `url`. Never against a base of the verifier's own, which a store mounted
 * below a proxy's prefix does not know. The result is absolute, which the senders send as it is; only
 * a `from` without an origin (an answer that does not record its address) gives back a path.
 */
export function resolveLink(target: string, from: string): string {
  const base = new URL(from, NO_ORIGIN)
  let url = new URL(target, base)
  // A store that writes absolute Links from its own configured address (`http://localhost:8080`)
  // while the verifier reaches it as 127.0.0.1:8080 names the same listener: followed there.
  if (url.origin !== base.origin && sameLoopbackListener(url, base))
    url = new URL(`${url.pathname}${url.search}`, base.origin)
  return base.origin === NO_ORIGIN && url.origin === NO_ORIGIN ? `${url.pathname}${url.search}` : url.href
}

const loopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)

/** Two addresses on this machine's loopback, with the same scheme and port: one listener by two names. */
function sameLoopbackListener(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && loopback(a.hostname) && loopback(b.hostname)
}

/**
 * Why a resolved Link is not followed, or undefined: one that leaves the origin of the page it came
 * with is not the same store's next page, and the principal's token is not sent there.
 */
export function linkLeaves(resolved: string, from: string): string | undefined {
  const base = new URL(from, NO_ORIGIN)
  const url = new URL(resolved, base)
  return url.origin === base.origin
    ? undefined
    : `the Link leads to ${url.href}, away from ${base.origin}, the store that answered the page`
}

/** A followed address as messages show it: path and query on the origin of the page before, else whole. */
export function shownAddress(address: string, from: string): string {
  const base = new URL(from, NO_ORIGIN)
  const url = new URL(address, base)
  return url.origin === base.origin ? `${url.pathname}${url.search}` : url.href
}

/**
 * Follows a listing's Link from its first page to its end, judging each page it reaches against the
 * store: the next plants the filter keeps, in ascending order of id, at most `limit` of them, and Link
 * exactly when more follow. What is wrong on a page reached through Link is the Link's fault.
 */
export async function pagesAfter(
  operationId: string,
  firstPath: string,
  query: Record<string, string>,
  state: State,
  first: Answer,
  judging: Judging,
  get: (path: string) => Promise<Answer>,
): Promise<Finding[]> {
  const findings: Finding[] = []
  const { total, limit } = expectedPage(state, query)
  let answer = first
  let path = firstPath
  let last = lastId(answer)
  for (let page = 2; ; page++) {
    const target = nextAddress(answer.headers.link)
    if (target === undefined || last === undefined) return findings
    if (page > Math.ceil(total / Math.max(1, limit)) + 2) {
      findings.push(
        finding('link_conformance', `more than ${page - 1} pages for ${total} plants of ${limit} a page`),
      )
      return findings
    }
    const from = answer.url ?? path
    path = resolveLink(target, from)
    const where = `page ${page} (${shownAddress(path, from)}, from the Link of the page before)`
    const leaves = linkLeaves(path, from)
    if (leaves) {
      findings.push(finding('link_conformance', `${where}: ${leaves}`))
      return findings
    }
    answer = await get(path)
    if (answer.status !== 200 || !answer.isJson) {
      findings.push(finding('link_conformance', `${where} answered ${describeAnswer(answer)}`))
      return findings
    }
    const expected = expectedPage(state, query, last)
    for (const f of pageFindings(operationId, parseExact(answer.text), expected.page, judging))
      findings.push(finding('link_conformance', `${where}: ${f.message}`))
    if (!expected.more && answer.headers.link !== undefined)
      findings.push(
        finding('link_conformance', `${where}: no plant follows, but Link says ${answer.headers.link}`),
      )
    if (expected.more && answer.headers.link === undefined)
      findings.push(finding('link_conformance', `${where}: more plants follow, but there is no Link`))
    if (findings.length) return findings
    last = lastId(answer) ?? last
  }
}

/** The id of the last plant of a page, or undefined for an empty or unreadable one. */
function lastId(answer: Answer): bigint | undefined {
  const items = answer.isJson ? parseExact(answer.text) : undefined
  const id = Array.isArray(items) ? (items.at(-1) as Record<string, unknown> | undefined)?.id : undefined
  return typeof id === 'bigint' ? id : undefined
}

export interface Verdict {
  expected: number
  accepted: number[]
  answer: Answer
  findings: Finding[]
}

/** Where a status that is not the document's goes: a valid request refused, or the wrong answer. */
function statusCheck(probe: Probe, status: number): CheckName {
  return !probe.defect && [400, 413, 414, 415, 422, 431].includes(status)
    ? 'positive_data_acceptance'
    : 'status_code_conformance'
}

/** Checks an answer against the document; on stateful targets the body against the state too. */
export function judge(
  probe: Probe,
  state: State,
  answer: Answer,
  stateful: boolean,
  judging: Judging = EXACT,
): Verdict {
  const accepted = judging.exact ? [expectedStatus(probe, state)] : acceptedStatuses(probe, state)
  const expected = accepted.includes(answer.status) ? answer.status : (accepted[0] as number)
  const findings: Finding[] = []
  if (!accepted.includes(answer.status))
    findings.push(
      finding(
        statusCheck(probe, answer.status),
        `status ${answer.status}, the document says ${accepted.join(' or ')}`,
      ),
    )
  findings.push(
    ...judgeAnswer(probe.entry, answer, {
      requiredHeaders: answer.status === 401 ? ['www-authenticate'] : [],
      ...answerOptions(judging),
    }),
  )
  if (!stateful || answer.status !== expected || expected >= 300 || !answer.isJson)
    return { expected, accepted, answer, findings }

  const body = parseExact(answer.text)
  const role = roleOf(probe.entry)
  const { operationId } = probe.entry
  const plant = role === 'item' && probe.id !== undefined ? state.get(probe.id) : undefined
  const sent = plantOf(probe)
  const store = (problem: string | undefined) => {
    if (problem) findings.push(finding('store_conformance', problem))
  }
  if (role === 'list') {
    const { page, more, limit, total } = expectedPage(state, probe.query)
    findings.push(...pageFindings(operationId, body, page, judging))
    const link = nextAddress(answer.headers.link)
    if (more && !link)
      findings.push(
        finding('link_conformance', `more plants follow (${total} > ${limit}), but there is no Link`),
      )
    if (!more && answer.headers.link !== undefined)
      findings.push(finding('link_conformance', `no plant follows, but Link says ${answer.headers.link}`))
  } else if (role === 'create' && sent) {
    // The create answers a Plant, which names no id; an id it shows anyway is the one created.
    const fields = PLANT_FIELDS.filter((f) => f !== 'id')
    store(plantProblem(operationId, body, sent, fields, judging, judging.exact ? [] : ['id']))
  } else if (probe.method === 'GET' && plant) {
    store(plantProblem(operationId, body, plant, PLANT_FIELDS, judging))
  } else if (probe.method === 'PUT' && sent) {
    store(plantProblem(operationId, body, sent, PLANT_FIELDS, judging))
  }
  return { expected, accepted, answer, findings }
}

/** A plant created by a valid probe must read back exactly as sent, its id digit for digit. */
export function readBackFindings(probe: Probe, readBack: Answer, judging: Judging = EXACT): Finding[] {
  const sent = plantOf(probe)
  if (!sent) return []
  const problem =
    readBack.status !== 200
      ? `the created plant reads back as ${describeAnswer(readBack)}`
      : !readBack.isJson
        ? `the created plant reads back as ${describeAnswer(readBack)}, not JSON`
        : plantProblem(probe.entry.operationId, parseExact(readBack.text), sent, PLANT_FIELDS, {
            ...judging,
            undocumented: undefined,
          })
  return problem ? [finding('create_read_back', `read back after the create: ${problem}`)] : []
}

/**
 * A request sent to set up or undo state (not a probe) that got another answer than the document's:
 * the answer is judged like any other, and the layer that sent it says it could not go on.
 */
export class Housekeeping extends Error {
  override name = 'Housekeeping'
  constructor(
    readonly targetName: string,
    readonly request: RequestSpec,
    readonly answer: Answer,
    readonly expected: number,
  ) {
    super(
      `housekeeping on the ${targetName}: ${request.method} ${request.path} answered ${answer.status} ${answer.text}, the document says ${expected}`,
    )
  }
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
    const request = {
      method,
      path,
      auth: { kind: 'principal' } as const,
      ...(body === undefined ? {} : { contentType: 'application/json', body: plantJson(body) }),
    }
    const answer = await this.request(method, path, body)
    if (answer.status !== status) throw new Housekeeping(this.target.name, request, answer, status)
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
