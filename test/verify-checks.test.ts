// The verifier's checks are registered by name: a finding carries the name of the check whose code
// found it, and nothing reads a message's words to decide where it goes. Also the pieces that judge
// by what the document promises: the interface apart from the kit's profile, an example shown, the
// statuses the document allows where it does not order two conditions.
import { document as shipped } from '@plant-store/core'
import { describe, expect, it } from 'vitest'
import { coverageProbes } from '../contracts/lib/coverage-probes.js'
import { interfaceOf, loadDocument } from '../contracts/lib/document.js'
import { acceptedStatuses } from '../contracts/lib/explore.js'
import { answerOf } from '../contracts/lib/http.js'
import { judgeAnswer } from '../contracts/lib/validate.js'
import { CHECK_NAMES, CHECKS, finding, selectChecks } from '../contracts/verify/checks.js'
import { showsExample } from '../contracts/verify/judging.js'
import { Results } from '../contracts/verify/results.js'

const kit = await loadDocument(undefined, 'kit')
const entry = (operationId: string) => {
  const found = kit.operations.find((e) => e.operationId === operationId)
  if (!found) throw new Error(`no ${operationId}`)
  return found
}

describe('checks registered by name', () => {
  it('records a finding under the check that found it, whatever its words say', () => {
    const results = new Results(
      [{ operationId: 'getPlant', statuses: [200] }],
      selectChecks(undefined, undefined),
    )
    // Words that once steered a message elsewhere: a status, WWW-Authenticate, Link, "reads back".
    const message =
      'status 500, the document says 200; WWW-Authenticate; Link; reads back; the page should be []'
    for (const check of CHECK_NAMES) {
      const [failure] = results.record({
        layer: 'examples',
        operationId: 'getPlant',
        checks: [],
        findings: [finding(check, message)],
        title: check,
        request: '',
        answer: '',
        document: '',
        replay: '',
      })
      expect(failure?.check).toBe(check)
    }
    expect(
      results
        .rows()
        .map((r) => r.check)
        .sort(),
    ).toEqual([...CHECK_NAMES].sort())
  })

  it('leaves out an excluded check, and refuses a name it does not know', () => {
    const kept = selectChecks(undefined, ['store_conformance'])
    expect(kept.has('store_conformance')).toBe(false)
    expect(kept.size).toBe(CHECK_NAMES.length - 1)
    expect(() => selectChecks(['no_such_check'], undefined)).toThrow(/unknown check no_such_check/)
    for (const name of CHECK_NAMES) expect(CHECKS[name].length).toBeGreaterThan(10)
  })

  it('names the check of each document-only problem from the code that found it', () => {
    const missingChallenge = answerOf(
      401,
      { 'content-type': 'application/json' },
      '{"error":401,"message":"no"}',
    )
    expect(judgeAnswer(entry('getPlant'), missingChallenge).map((f) => f.check)).toEqual([
      'www_authenticate_on_401',
    ])
    const wrongCode = answerOf(404, { 'content-type': 'application/json' }, '{"error":400,"message":"no"}')
    expect(judgeAnswer(entry('getPlant'), wrongCode).map((f) => f.check)).toEqual(['error_code_conformance'])
    const html = answerOf(404, { 'content-type': 'text/html' }, '<p>no</p>')
    expect(judgeAnswer(entry('getPlant'), html).map((f) => f.check)).toEqual(['content_type_conformance'])
    const wrapped = answerOf(200, { 'content-type': 'application/json' }, '{"items":[]}')
    expect(judgeAnswer(entry('listPlants'), wrapped).map((f) => f.check)).toContain(
      'response_schema_conformance',
    )
    const teapot = answerOf(418, {}, '')
    expect(judgeAnswer(entry('listPlants'), teapot).map((f) => f.check)).toEqual(['status_code_conformance'])
  })

  it('holds an answer to the kit profile only when asked', () => {
    const bare = answerOf(200, { 'content-type': 'application/json' }, '[]')
    expect(judgeAnswer(entry('listPlants'), bare)).toEqual([])
    const profiled = judgeAnswer(entry('listPlants'), bare, { kitProfile: true })
    expect(new Set(profiled.map((f) => f.check))).toEqual(new Set(['kit_profile_conformance']))
    expect(profiled.map((f) => f.message).join('\n')).toMatch(/X-Request-Id/)
  })
})

describe('the interface apart from the kit profile', () => {
  const view = interfaceOf(shipped) as unknown as {
    info: Record<string, unknown>
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    components: { responses: Record<string, unknown>; headers: Record<string, unknown> }
  }
  it('leaves out every part marked x-kit-profile, and names none of the kit server’s configuration', () => {
    expect(Object.keys(view.paths).sort()).toEqual(['/plants', '/plants/{id}'])
    expect(view.info['x-kit-profile']).toBeUndefined()
    expect(view.paths['/plants']?.get?.responses['405']).toBeUndefined()
    expect(view.paths['/plants']?.get?.responses['431']).toBeDefined()
    expect(view.components.responses.MethodNotAllowed).toBeUndefined()
    expect(view.components.headers['RateLimit-Policy']).toBeUndefined()
    const text = JSON.stringify(view)
    expect(text).not.toMatch(
      /"x-kit-profile"|_TIMEOUT_MS|AUTH_TOKENS|WEBHOOK_[A-Z]|RATE_LIMIT|DATABASE_URL|healthz|JWT_/,
    )
    // The whole document keeps all of it: the kit's server serves that one.
    expect(JSON.stringify(shipped)).toMatch(/healthz/)
  })
})

describe('answers judged by what the document promises', () => {
  it('meets an example when every property it shows is there with its value', () => {
    expect(
      showsExample({ name: 'Basil', tag: 'herb' }, { id: 1n, name: 'Basil', tag: 'herb', createdAt: 'x' }),
    ).toBe(true)
    expect(showsExample({ name: 'Basil', tag: 'herb' }, { name: 'Basil' })).toBe(false)
    expect(showsExample([{ id: 1 }, { id: 3 }], [{ id: 1n }, { id: 3n }])).toBe(true)
    expect(showsExample([{ id: 1 }, { id: 3 }], [{ id: 1n }])).toBe(false)
    expect(showsExample({ id: 1 }, { id: 2n })).toBe(false)
  })

  it('allows either status where the document does not order two conditions, and one where it does', () => {
    const probes = coverageProbes(kit.operations, 65_536, 1000n)
    const put = probes.find(
      (p) => p.entry.operationId === 'replacePlant' && p.defect === 'body: required field missing',
    )
    if (!put) throw new Error('no replace without a name')
    // No plant at all in the caller's state: the body and the missing plant are both wrong.
    expect(acceptedStatuses(put, new Map())).toEqual([400, 404])
    const noToken = probes.find((p) => p.entry.operationId === 'replacePlant' && p.defect === 'auth: none')
    if (!noToken) throw new Error('no replace without a token')
    expect(acceptedStatuses(noToken, new Map())).toEqual([401])
  })
})
