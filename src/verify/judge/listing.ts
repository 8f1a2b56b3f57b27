// The oracle for generated probes, which is the document and not any server: the status a probe must
// get in a known state (accepted-statuses.ts), and what the answer must hold (schema, Error code,
// WWW-Authenticate, a page of the store's plants with Link exactly when more follow, a created plant
// that reads back digit for digit). Each stateful target keeps one principal in that state
// (principal.ts); the pages after the first are followed through Link in links.ts.
import { nextAddress, pickPlant } from '@plant-store/core'
import { type CheckName, type Finding, finding } from '../checks.js'
import { parseExact } from '../exact-json.js'
import { type Answer, describeAnswer } from '../http.js'
import type { Probe } from '../requests/generated.js'
import { acceptedStatuses, expectedStatus, roleOf } from './accepted-statuses.js'
import { judgeAnswer } from './answer.js'
import { answerOptions, EXACT, type Judging, PLANT_FIELDS, type Plant, plantProblem, shown } from './plant.js'
import type { State } from './state.js'

/** The plant a valid create or replace body describes (unknown keys dropped). */
function plantOf(probe: Probe): Plant | undefined {
  const body = probe.bodyValue as Record<string, unknown> | undefined
  if (!body || probe.id === undefined || typeof body.name !== 'string') return undefined
  return pickPlant(body, probe.id)
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
