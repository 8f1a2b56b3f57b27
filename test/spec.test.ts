// The document itself: valid OpenAPI 3.1 carrying the seed's interface unchanged, and types generated from it.
import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, it } from 'vitest'
import { outputs } from '../scripts/codegen/generate-types.js'
import {
  checkOf,
  createAjv,
  dereference,
  isSecured,
  loadSpec,
  requestValidators,
  routeSchema,
  type SecurityRequirement,
  specPath,
  validatorCompiler,
} from '../scripts/lib/spec.js'

// validate: the full OpenAPI 3.1 schema check of swagger-parser; it throws on an invalid document.
const { document, operations } = await loadSpec(specPath, { validate: true })

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1.0 document: Plant Store 1.0.0 under MIT, with global bearer auth', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.info).toMatchObject({ title: 'Plant Store', version: '1.0.0', license: { name: 'MIT' } })
    expect(document.security).toEqual([{ bearerAuth: [] }])
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('keeps the seed’s schemas exactly', () => {
    const schemas = document.components?.schemas ?? {}
    expect(schemas.Plant).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, tag: { type: 'string' } },
    })
    expect(schemas.NewPlant).toMatchObject({
      allOf: [
        { $ref: '#/components/schemas/Plant' },
        { required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } },
      ],
    })
    expect(schemas.Error).toMatchObject({
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
    })
  })

  it('keeps the seed’s createPlant: NewPlant in, Plant on 200, Error on 400', () => {
    const create = document.paths?.['/plants']?.post
    expect(create?.operationId).toBe('createPlant')
    expect(create?.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } },
    })
    expect(create?.responses?.['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } },
    })
    expect(create?.responses?.['400']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    })
  })

  it('marks every operation it adds to the 1.0.0 interface as an addition', () => {
    expect(operations.map((op) => op.operationId).sort()).toEqual([
      'createPlant',
      'deletePlant',
      'getHealth',
      'getPlant',
      'getReadiness',
      'listPlants',
      'replacePlant',
    ])
    for (const { operationId, operation } of operations) {
      if (operationId !== 'createPlant')
        expect(operation.description, operationId).toMatch(/addition to 1\.0\.0/)
    }
  })

  it.each(Object.entries(outputs))('has %s up to date (npm run generate)', async (file, generate) => {
    const current = await readFile(new URL(`../${file}`, import.meta.url), 'utf8')
    expect(current).toBe(await generate())
  })
})

describe('isSecured', () => {
  it.each<[SecurityRequirement[], boolean]>([
    [[], false],
    [[{}], false],
    [[{ bearerAuth: [] }, {}], false],
    [[{ bearerAuth: [] }], true],
    [[{ bearerAuth: [] }, { apiKey: [] }], true],
  ] as [SecurityRequirement[], boolean][])('%j is secured: %s', (security, secured) => {
    expect(isSecured(security)).toBe(secured)
  })
})

describe('the server’s document reader', () => {
  it('reads and dereferences the document exactly as swagger-parser does', async () => {
    const fast = await loadSpec()
    const parsed = await SwaggerParser.parse(specPath)
    expect(fast.document).toEqual(parsed)
    expect(fast.dereferenced).toEqual(await SwaggerParser.dereference(structuredClone(parsed)))
    expect(fast.operations).toEqual(operations)
  })

  it('shares one object per target, merges sibling keys, follows chains and cycles', () => {
    const doc = dereference({
      a: { $ref: '#/defs/x' },
      b: { $ref: '#/defs/x' },
      c: { $ref: '#/defs/x', description: 'mine', type: 'mine' },
      d: { $ref: '#/defs/chain' },
      e: { $ref: '#/defs/chain/type' },
      f: { $ref: '#/defs/a~1b' },
      defs: {
        x: { type: 'string', description: 'theirs' },
        chain: { $ref: '#/defs/x' },
        node: { next: { $ref: '#/defs/node' } },
        'a/b': 1,
      },
    })
    expect(doc.a).toBe(doc.defs.x)
    expect(doc.b).toBe(doc.defs.x)
    expect(doc.c).toEqual({ description: 'mine', type: 'mine' })
    expect(Object.keys(doc.c)).toEqual(['description', 'type'])
    expect(doc.d).toBe(doc.defs.x)
    expect(doc.e).toBe('string')
    expect(doc.f).toBe(1)
    expect((doc.defs.node as { next: unknown }).next).toBe(doc.defs.node)
    expect(() => dereference({ a: { $ref: 'other.yaml#/x' } })).toThrow(/within the document/)
    expect(() => dereference({ a: { $ref: '#/nothing' } })).toThrow(/points to nothing/)
  })
})

describe('the request validators compiled ahead of time (src/core/generated/request-validators.ts)', () => {
  const long = (n: number, unit = 'x') => unit.repeat(n)
  // For each part, what a caller may send: valid, and wrong in each way the schemas refuse.
  const samples = {
    params: [
      { id: '1' },
      { id: '-9223372036854775808' },
      { id: '9223372036854775808' },
      { id: 'abc' },
      { id: '1.5' },
      { id: '' },
      {},
    ],
    querystring: [
      {},
      { limit: '100', tag: 'herb', cursor: 'MQ' },
      { limit: '0' },
      { limit: '101' },
      { limit: 'ten' },
      { limit: '1e2' },
      { limit: '2147483648' },
      { tag: ['a', 'b'] },
      { tag: long(65) },
      { cursor: long(1025) },
    ],
    body: [
      { id: 1, name: 'Basil', tag: 'herb' },
      { id: 2n ** 63n - 1n, name: long(256, '🌿') },
      { id: 2n ** 63n, name: 'Basil' },
      { id: '1', name: 'Basil' },
      { id: 1.5, name: 'Basil' },
      { name: 'Basil' },
      { id: 1 },
      { id: 1, name: long(257) },
      { id: 1, name: long(257, '🌿') },
      { id: 1, name: '\ud800' },
      { id: 1, name: 7 },
      { id: 1, name: 'Basil', tag: long(65) },
      { id: 1, name: 'Basil', unknown: true },
      [],
      null,
      'Basil',
    ],
  }

  it('answers every sample as Ajv compiling the document at run time does: the result, the errors, the defaults', async () => {
    const { operations } = await loadSpec(specPath)
    const compile = validatorCompiler(createAjv())
    let compared = 0
    for (const entry of operations) {
      const schema = routeSchema(entry)
      for (const part of ['params', 'querystring', 'body'] as const) {
        const partSchema = schema[part]
        const compiled = requestValidators[entry.operationId]?.[part]
        expect(Boolean(compiled), `${entry.operationId} ${part}`).toBe(Boolean(partSchema))
        if (!partSchema || !compiled) continue
        const atRunTime = compile({ schema: partSchema, httpPart: part })
        const ahead = checkOf({ schema: partSchema, httpPart: part }, () => compiled)
        for (const [i, sample] of samples[part].entries()) {
          const label = `${entry.operationId} ${part}, sample ${i}`
          expect(ahead(structuredClone(sample)), label).toEqual(atRunTime(structuredClone(sample)))
          expect(ahead.errors, label).toEqual(atRunTime.errors)
          compared++
        }
      }
    }
    // Each operation's parts met every sample of their kind, refused ones among them.
    expect(compared).toBeGreaterThan(40)
  })
})
