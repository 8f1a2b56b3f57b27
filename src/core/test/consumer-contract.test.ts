// The consumer contract's recorder and its joining, on the kit's own document: what a request's values
// make of its schema (types, the bounds reached, the fields always sent), what an answer's reads keep of
// the document's, and that joining recordings in any order, once or again, gives the same file.
import { dereference, handlerDocument, listOperations, type OperationEntry } from '@plant-store/core'
import {
  type ConsumerContract,
  ContractRecorder,
  type Exchange,
  joinContracts,
  observe,
  parseContract,
  readPaths,
  serializeContract,
} from '@plant-store/core/contract'
import { describe, expect, it } from 'vitest'

const document = dereference(structuredClone(handlerDocument))
const operations = listOperations(document)
const entry = (operationId: string) => operations.find((e) => e.operationId === operationId) as OperationEntry
const none = { has: () => false }
const noHeaders = { get: () => null }

/** A recorder on the kit's document, and the contract it holds after `exchanges`. */
function record(exchanges: Omit<Exchange, 'headers'>[], reads: [string, string, number, string[]][] = []) {
  const recorder = new ContractRecorder({ consumer: 'shop' })
  recorder.register(document, operations)
  for (const exchange of exchanges) recorder.exchange({ headers: none, ...exchange })
  for (const [method, path, status, property] of reads) recorder.read(method, path, status, property)
  return recorder.current as ConsumerContract
}

const create = (body: unknown): Omit<Exchange, 'headers'> => ({
  entry: entry('createPlant'),
  sent: { params: {}, query: {}, headers: noHeaders, body },
  status: 200,
  body: { name: 'x' },
  tracked: true,
})
const bodySchema = (contract: ConsumerContract) =>
  contract.paths['/plants']?.post?.requestBody?.content['application/json']?.schema as Record<string, unknown>

describe("a request's values", () => {
  it('give their types, the bounds they reach in characters, and the document’s promises', () => {
    expect(observe('🌿 Basil', { type: 'string', maxLength: 256, format: 'plant-name' })).toEqual({
      type: 'string',
      format: 'plant-name',
      minLength: 7,
      maxLength: 7,
    })
    expect(observe(9007199254740993n, { type: 'integer', format: 'int64' })).toEqual({
      type: 'integer',
      format: 'int64',
      minimum: 9007199254740993n,
      maximum: 9007199254740993n,
    })
    expect(observe([1, 2.5], {})).toEqual({
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { type: ['integer', 'number'], minimum: 1, maximum: 2.5 },
    })
  })

  it('make a field required only when every request sent it, and widen the bounds over all of them', () => {
    const contract = record([
      create({ id: 1, name: 'Fern' }),
      create({ id: 9007199254740993n, name: 'Giant fern', tag: 'fern' }),
    ])
    expect(bodySchema(contract)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', format: 'int64', minimum: 1, maximum: 9007199254740993n },
        name: { type: 'string', minLength: 4, maxLength: 10 },
        tag: { type: 'string', minLength: 4, maxLength: 4 },
      },
    })
  })

  it('of a parameter: the ones given, as the document types them; one left out is not required', () => {
    const list = (query: Record<string, unknown>): Omit<Exchange, 'headers'> => ({
      entry: entry('listPlants'),
      sent: { params: {}, query, headers: noHeaders },
      status: 200,
      tracked: true,
    })
    const contract = record([list({ limit: 2 }), list({ limit: 50, cursor: 'MQ' })])
    expect(contract.paths['/plants']?.get?.parameters).toEqual([
      { in: 'query', name: 'cursor', required: false, schema: expect.objectContaining({ maxLength: 2 }) },
      {
        in: 'query',
        name: 'limit',
        required: true,
        schema: { type: 'integer', format: 'int32', default: 20, minimum: 2, maximum: 50 },
      },
    ])
  })

  it('of a request the document refused are not known: only its status is kept', () => {
    const contract = record([
      { entry: entry('createPlant'), status: 400, body: { error: 400, message: 'bad' }, tracked: true },
    ])
    const operation = contract.paths['/plants']?.post
    expect(operation?.parameters).toBeUndefined()
    expect(operation?.requestBody).toBeUndefined()
    expect(Object.keys(operation?.responses ?? {})).toEqual(['400'])
  })
})

describe("what an answer's reads keep", () => {
  const getPlant: Omit<Exchange, 'headers'> = {
    entry: entry('getPlant'),
    sent: { params: { id: 1 }, query: {}, headers: noHeaders },
    status: 200,
    body: { id: 1n, name: 'Basil', tag: 'herb' },
    tracked: true,
  }
  const response = (
    contract: ConsumerContract,
    path = '/plants/{id}',
    method: 'get' | 'post' = 'get',
    status = '200',
  ) => contract.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema

  it('through the client: the properties the app read, as the document describes them, and nothing else', () => {
    const contract = record(
      [getPlant],
      [
        ['GET', '/plants/{id}', 200, ['name']],
        // What a runtime asks of any object is no property of the document's.
        ['GET', '/plants/{id}', 200, ['then']],
        ['GET', '/plants/{id}', 200, ['toJSON']],
      ],
    )
    expect(response(contract)).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 256 } },
    })
    expect(readPaths(response(contract))).toEqual(['name'])
  })

  it('of a list: a property of its items', () => {
    const contract = record([], [['GET', '/plants', 200, ['[]', 'tag']]])
    expect(readPaths(response(contract, '/plants'))).toEqual(['[].tag'])
  })

  it('read some other way: every property received', () => {
    const contract = record([{ ...getPlant, tracked: false }])
    expect(readPaths(response(contract)).sort()).toEqual(['id', 'name', 'tag'])
  })

  it('a status the document does not describe is not kept, nor a header not received', () => {
    const contract = record([{ ...getPlant, status: 418, tracked: false }])
    expect(contract.paths['/plants/{id}']?.get?.responses).toEqual({})
    const listed = record([
      {
        entry: entry('listPlants'),
        status: 200,
        body: [],
        tracked: true,
      },
    ])
    expect(listed.paths['/plants']?.get?.responses['200']).toEqual({})
  })
})

describe('joining recordings', () => {
  const a = record([create({ id: 1, name: 'Fern' })], [['POST', '/plants', 200, ['name']]])
  const b = record(
    [
      create({ id: 2, name: 'Giant fern', tag: 'fern' }),
      {
        ...create(undefined),
        sent: undefined,
        status: 409,
        tracked: false,
        body: { error: 409, message: 'taken' },
      },
    ],
    [['GET', '/plants', 200, ['[]', 'id']]],
  )

  it('gives the same file in either order, and joining one again changes nothing', () => {
    const ab = serializeContract(joinContracts(a, b))
    expect(serializeContract(joinContracts(b, a))).toBe(ab)
    expect(serializeContract(joinContracts(joinContracts(a, b), b))).toBe(ab)
    expect(serializeContract(joinContracts(a, a))).toBe(serializeContract(a))
    const joined = joinContracts(a, b)
    expect(Object.keys(joined.paths['/plants']?.post?.responses ?? {}).sort()).toEqual(['200', '409'])
    expect(bodySchema(joined).required).toEqual(['id', 'name'])
  })

  it('refuses to join two consumers', () => {
    const other = { ...a, consumer: 'another app' }
    expect(() => joinContracts(a, other)).toThrow(/two consumers/)
  })
})

describe('the file', () => {
  const contract = record([create({ id: 9007199254740993n, name: 'Giant fern' })])

  it('is sorted JSON with every digit of an int64, and reads back as it was written', () => {
    const text = serializeContract(contract)
    expect(text).toContain('"maximum": 9007199254740993')
    expect(text.indexOf('"consumer"')).toBeLessThan(text.indexOf('"document"'))
    expect(text.endsWith('}\n')).toBe(true)
    expect(serializeContract(parseContract(text))).toBe(text)
    expect(bodySchema(parseContract(text)).properties).toMatchObject({ id: { maximum: 9007199254740993n } })
  })

  it('says what is wrong with a file that is not a contract', () => {
    expect(() => parseContract('{', 'shop.json')).toThrow(/^shop.json is not JSON/)
    expect(() => parseContract('[]', 'shop.json')).toThrow(
      'shop.json is not a consumer contract: it is not a JSON object',
    )
    const text = serializeContract(contract)
    expect(() =>
      parseContract(text.replace('consumer-contract/1', 'consumer-contract/9'), 'shop.json'),
    ).toThrow(/"format" is "plant-store-consumer-contract\/9"/)
    expect(() => parseContract(text.replace('"consumer": "shop"', '"consumer": ""'), 'shop.json')).toThrow(
      /names no "consumer"/,
    )
    const broken = JSON.parse(text)
    broken.paths['/plants'].post.security = {}
    expect(() => parseContract(JSON.stringify(broken), 'shop.json')).toThrow(
      'shop.json is not a consumer contract: POST /plants must have its "security" (a list)',
    )
  })
})
