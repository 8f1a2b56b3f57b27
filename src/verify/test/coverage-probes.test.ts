// The deterministic coverage probes of the shipped document: the same list every time, each keyword
// of each field at its boundaries (valid) and past them (one defect each), so that a bug one value
// shows is found on every run and not by chance.
import { BODY_LIMIT, INT64_MAX, INT64_MIN } from '@plant-store/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { coveragePlant, coverageProbes } from '../cases/coverage.js'
import { describeProbe, type Probe } from '../cases/probe.js'
import { codePoints } from '../cases/random-values.js'
import { flatten, type JsonSchema, loadDocument, type OperationEntry } from '../document.js'

const ID_BASE = 1_000_000_000_000n
let operations: OperationEntry[]
let probes: Probe[]

beforeAll(async () => {
  operations = (await loadDocument(undefined, 'kit')).operations
  probes = coverageProbes(operations, BODY_LIMIT, ID_BASE)
})

const of = (operationId: string) => probes.filter((p) => p.entry.operationId === operationId)
const covering = (operationId: string, covers: string) => of(operationId).filter((p) => p.covers === covers)
/** The one probe of an operation that covers this, checked to be the only one. */
function one(operationId: string, covers: string): Probe {
  const found = covering(operationId, covers)
  expect(found, `${operationId}: ${covers}`).toHaveLength(1)
  return found[0] as Probe
}

const bodyOf = (operationId: string): JsonSchema => {
  const entry = operations.find((e) => e.operationId === operationId)
  const schema = entry?.operation.requestBody?.content['application/json']?.schema
  if (!schema) throw new Error(`${operationId} takes no JSON body`)
  return schema
}
const property = (operationId: string, name: string) => flatten(bodyOf(operationId)).properties[name] ?? {}
const limitOf = (operationId: string) =>
  operations.find((e) => e.operationId === operationId)?.parameters.find((p) => p.name === 'limit')?.schema ??
  {}

/** The integer a JSON number writes (`12`, `12.0`, `1e18`), read without losing a digit. */
function exactInteger(text: string): bigint {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] =
    /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text) ?? []
  const digits = BigInt(`${sign}${whole}${fraction}`)
  const shift = Number(exponent) - fraction.length
  if (shift >= 0) return digits * 10n ** BigInt(shift)
  const scale = 10n ** BigInt(-shift)
  expect(digits % scale, `${text} is an integer`).toBe(0n)
  return digits / scale
}

/** What makes a probe what it is, for comparing two lists (bigints as text). */
const fingerprint = (p: Probe) =>
  JSON.stringify(
    {
      op: p.entry.operationId,
      covers: p.covers,
      defect: p.defect,
      features: p.features,
      request: describeProbe(p),
      body: p.body,
      contentType: p.contentType,
      bodyValue: p.bodyValue,
      id: p.id,
      query: p.query,
    },
    (_key, v) => (typeof v === 'bigint' ? `${v}n` : v),
  )

describe('coverage probes of the shipped document', () => {
  it('are the same list for the same input', async () => {
    const again = coverageProbes((await loadDocument(undefined, 'kit')).operations, BODY_LIMIT, ID_BASE)
    expect(again.map(fingerprint)).toEqual(probes.map(fingerprint))
  })

  it('stay well within what is sent before the random phase', () => {
    expect(probes.length).toBeGreaterThan(50)
    expect(probes.length).toBeLessThan(600)
  })

  it('cover every operation of the document, each probe labelled', () => {
    for (const entry of operations) expect(of(entry.operationId).length, entry.operationId).toBeGreaterThan(0)
    for (const p of probes) expect(p.covers, describeProbe(p)).toMatch(/\S/)
  })

  it('send a name of every wrong type to createPlant, and one without a name', () => {
    for (const [type, text] of [
      ['number', '7'],
      ['boolean', 'true'],
      ['null', 'null'],
      ['array', '[]'],
      ['object', '{}'],
    ]) {
      const p = one('createPlant', `name type: ${type}`)
      expect(p.defect).toBe('body: wrong type')
      expect(JSON.parse(p.body ?? '').name).toEqual(JSON.parse(text as string))
    }
    const missing = one('createPlant', 'name missing (required)')
    expect(missing.defect).toBe('body: required field missing')
    expect(Object.keys(JSON.parse(missing.body ?? ''))).not.toContain('name')
  })

  it('send a name at exactly maxLength as valid (ASCII and astral), and one character more as invalid', () => {
    const max = property('createPlant', 'name').maxLength as number
    const ascii = one('createPlant', `name maxLength ${max} (valid)`)
    expect(ascii.defect).toBeUndefined()
    expect((ascii.bodyValue as { name: string }).name).toBe('x'.repeat(max))
    // Never left out because it is large: the bound is the document's.
    const astral = one('createPlant', `name maxLength ${max} astral (valid)`)
    expect(astral.defect).toBeUndefined()
    const name = (astral.bodyValue as { name: string }).name
    expect(codePoints(name)).toBe(max)
    expect(name.length).toBe(2 * max)
    const tooLong = covering('createPlant', 'name maxLength+1').concat(
      covering('createPlant', 'name maxLength+1 (body too large)'),
    )
    expect(tooLong).toHaveLength(1)
    const [probe] = tooLong as [Probe]
    expect(codePoints(JSON.parse(probe.body ?? '').name)).toBe(max + 1)
    // Past the body limit, one more character makes a body too large: that is the status it must get.
    expect(probe.defect).toBe(
      Buffer.byteLength(probe.body ?? '') > BODY_LIMIT ? 'body: too large' : 'body: string too long',
    )
  })

  it('send creates with fresh ids that succeed, and one with a given plant’s id that collides', () => {
    const valid = of('createPlant').filter((p) => !p.defect && p.id !== undefined && p.id > ID_BASE + 99n)
    expect(valid.length).toBeGreaterThan(5)
    expect(new Set(valid.map((p) => p.id)).size).toBe(valid.length)
    const collision = of('createPlant').filter((p) => p.covers?.endsWith('(a given plant: 409)'))
    expect(collision).toHaveLength(1)
    expect(collision[0]?.id).toBe(ID_BASE + 1n)
    expect(collision[0]?.defect).toBeUndefined()
  })

  it('send limit at its bounds as valid, past them as invalid, repeated, and an unknown parameter', () => {
    const schema = limitOf('listPlants')
    const min = schema.minimum as number
    const max = schema.maximum as number
    for (const [covers, value] of [
      [`limit minimum ${min} (valid)`, min],
      [`limit maximum ${max} (valid)`, max],
    ] as const) {
      const p = one('listPlants', covers)
      expect(p.defect).toBeUndefined()
      expect(p.query).toEqual({ limit: String(value) })
      expect(p.path).toBe(`/plants?limit=${value}`)
    }
    for (const [covers, value] of [
      ['limit minimum-1', min - 1],
      ['limit maximum+1', max + 1],
    ] as const) {
      const p = one('listPlants', covers)
      expect(p.defect).toBe('query: out of range')
      expect(p.path).toBe(`/plants?limit=${value}`)
    }
    const repeated = one('listPlants', 'limit repeated')
    expect(repeated.defect).toBe('query: repeated')
    expect(repeated.path.match(/limit=/g)).toHaveLength(2)
    const unknown = one('listPlants', 'unknown query parameter (valid)')
    expect(unknown.defect).toBeUndefined()
    expect(unknown.features).toContain('query: unknown parameter')
    const longest = of('listPlants').find((p) => p.covers?.startsWith('longest query'))
    expect(longest?.defect).toBeUndefined()
    expect(longest?.query.limit).toBe(String(max))
  })

  it('ask for tags that differ from a held one by case, spaces, a prefix and the Unicode form', () => {
    const near = of('listPlants').filter((p) => p.covers?.includes(' of the held '))
    const asked = near.map((p) => p.query.tag)
    for (const tag of ['HERB', ' herb ', 'her', 'CAF\u00c9', ' caf\u00e9 ', 'caf', 'cafe\u0301'])
      expect(asked).toContain(tag)
    for (const p of near) expect(p.defect, p.covers).toBeUndefined()
    // The other form is the same text, another string: what the coverage plant holds, decomposed.
    const unicode = near.find((p) => p.covers?.includes('another Unicode form'))
    expect(unicode?.query.tag?.normalize('NFC')).toBe(coveragePlant(operations, ID_BASE).tag)
    expect(unicode?.query.tag).not.toBe(coveragePlant(operations, ID_BASE).tag)
    expect(coveragePlant(operations, ID_BASE).id).toBe(ID_BASE + 100n)
  })

  it('send a replace whose body carries an id, naming the plant of its path all the same', () => {
    const p = one('replacePlant', 'body: id, a key another schema names (valid)')
    expect(p.defect).toBeUndefined()
    const body = p.bodyValue as { id: bigint }
    expect(p.path).toBe(`/plants/${ID_BASE + 1n}`)
    expect(p.id).toBe(ID_BASE + 1n)
    expect(body.id).not.toBe(p.id)
  })

  it('send getPlant ids at the int64 edges as valid, and ids that are not int64s as invalid', () => {
    const atMax = one('getPlant', `id maximum int64 ${INT64_MAX} (valid)`)
    expect(atMax.defect).toBeUndefined()
    expect(atMax.id).toBe(INT64_MAX)
    expect(atMax.path).toBe(`/plants/${INT64_MAX}`)
    const atMin = one('getPlant', `id minimum int64 ${INT64_MIN} (valid)`)
    expect(atMin.defect).toBeUndefined()
    expect(atMin.id).toBe(INT64_MIN)
    for (const [covers, path] of [
      ['id type: string (abc)', '/plants/abc'],
      ['id not an integer (1.0)', '/plants/1.0'],
      [`id maximum+1 (${INT64_MAX + 1n})`, '/plants/9223372036854775808'],
    ]) {
      const p = one('getPlant', covers as string)
      expect(p.defect).toBe('path: not an int64')
      expect(p.path).toBe(path)
      expect(p.id).toBeUndefined()
    }
  })

  it('name item ids that hit the given plants and ids that miss them', () => {
    const ids = of('getPlant')
      .filter((p) => p.covers?.includes('plant, valid)'))
      .map((p) => [p.id, p.covers?.includes('a given plant')])
    expect(ids).toContainEqual([ID_BASE + 1n, true])
    expect(ids.filter(([, hit]) => !hit).length).toBeGreaterThan(0)
    for (const [id, hit] of ids) expect(hit).toBe((id as bigint) <= ID_BASE + 3n)
  })

  it('fail authentication three ways on each secured operation, and never on the others', () => {
    for (const entry of operations) {
      const defects = of(entry.operationId)
        .map((p) => p.defect)
        .filter((d) => d?.startsWith('auth:'))
        .sort()
      expect(defects, entry.operationId).toEqual(
        entry.secured ? ['auth: malformed', 'auth: none', 'auth: unknown token'] : [],
      )
    }
  })

  it('send each content type once per operation that takes a body', () => {
    for (const entry of operations.filter((e) => e.operation.requestBody)) {
      const mine = of(entry.operationId)
      expect(
        mine.filter((p) => p.defect === 'content type: none' && p.contentType === undefined),
      ).toHaveLength(1)
      expect(
        mine.filter((p) => p.defect === 'content type: unsupported' && p.contentType === 'text/plain'),
      ).toHaveLength(1)
      const charset = mine.filter((p) => p.contentType === 'application/json; charset=utf-8')
      expect(charset).toHaveLength(1)
      expect(charset[0]?.defect).toBeUndefined()
      expect(charset[0]?.features).toContain('content type: parameters or case')
      const cased = mine.filter((p) => p.contentType === 'Application/JSON')
      expect(cased).toHaveLength(1)
      expect(cased[0]?.defect).toBeUndefined()
    }
  })

  it('give each probe at most one defect, and each valid body a value that parses as JSON', () => {
    for (const p of probes) {
      expect(typeof p.defect === 'string' || p.defect === undefined).toBe(true)
      if (p.defect || p.body === undefined) continue
      expect(() => JSON.parse(p.body as string), describeProbe(p)).not.toThrow()
      // What a correct reader makes of a valid plant body is the bodyValue, ids as bigint, digit for digit.
      if (p.bodyValue !== undefined) {
        const read = JSON.parse(p.body as string)
        const expected = p.bodyValue as Record<string, unknown>
        for (const key of ['name', 'tag']) expect(read[key], describeProbe(p)).toEqual(expected[key])
        const idText = /"id":(-?[0-9.eE+-]+)/.exec(p.body as string)?.[1]
        if (idText) expect(expected.id, describeProbe(p)).toBe(exactInteger(idText))
        if (idText && p.entry.operationId === 'createPlant') expect(p.id).toBe(expected.id)
      }
    }
  })

  it('label defects so the oracle gives them their status (401, 415, 413 or 400)', () => {
    for (const p of probes.filter((x) => x.defect)) {
      const defect = p.defect as string
      if (p.covers?.startsWith('auth:')) expect(defect).toMatch(/^auth: /)
      if (p.covers?.startsWith('content type:')) expect(defect).toMatch(/^content type: /)
      if (defect === 'body: too large') expect(Buffer.byteLength(p.body ?? '')).toBeGreaterThan(BODY_LIMIT)
    }
  })
})
