// Generates, from spec/openapi.yaml, @plant-store/core's src/core/generated/openapi.ts (the types of the
// server and the handlers), src/core/generated/document.ts (the document as a module: the one copy
// every package reads, in a browser too), src/core/generated/handler-document.ts and
// request-validators.ts (what the in-process handlers serve: the document without its prose, and its
// request schemas compiled ahead of time), src/core/generated/plant-fields.ts (a stored plant's
// properties, for the code that handles a plant field by field), and @plant-store/client's src/client/generated/client-types.ts
// (int64 as bigint) and src/client/generated/int64-answers.ts (where its answers hold int64s); and,
// from the server's environment schema, src/server/config/generated/env-validator.ts. `--check` fails
// when any is stale, and so does `npm test` (test/spec.test.ts).
import { readFile, writeFile } from 'node:fs/promises'
import { _ } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standaloneCodeModule from 'ajv/dist/standalone/index.js'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import type { Int64Shape } from '../../src/client/exact-json.js'
import { formats } from '../../src/core/lib/formats.js'
import { createAjv } from '../../src/core/lib/validation.js'
import { envAjvOptions, envSchema } from '../../src/server/config/env-schema.js'
import { readOptions } from '../lib/options.js'
import { flatten, loadSpec, routeSchema, specPath } from '../lib/spec.js'

const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default

const specUrl = new URL('../../spec/openapi.yaml', import.meta.url)
const header = '// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.\n\n'

// JSON numbers beyond 2^53 cannot be JavaScript numbers, so the server hands int64 values beyond
// that range to handlers as bigint; the types must admit both.
const int64 = ts.factory.createUnionTypeNode([
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword),
])

export async function generateTypes(): Promise<string> {
  const ast = await openapiTS(specUrl, {
    transform: (schema) => (schema.format === 'int64' ? int64 : undefined),
  })
  return `${header}${astToString(ast)}`
}

// The typed client reads every int64 as a bigint and nothing else, so its types say bigint alone.
const bigint = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword)

export async function generateClientTypes(): Promise<string> {
  const ast = await openapiTS(specUrl, {
    transform: (schema) => (schema.format === 'int64' ? bigint : undefined),
  })
  return `${header}${astToString(ast)}`
}

export async function generateDocument(): Promise<string> {
  const { document } = await loadSpec(specPath)
  return (
    `${header}import type { Document } from '../document.js'\n\n` +
    `export const document = ${JSON.stringify(document, null, 2)} as unknown as Document\n`
  )
}

/**
 * The document as the in-process handlers serve it, without what only people read: every
 * `description` and `summary`, and the info, servers and tags beyond the title and version. The
 * values of examples, defaults and enums are data, copied whole. A page that imports the handlers
 * gets this rather than the whole document.
 */
export async function generateHandlerDocument(): Promise<string> {
  const { document } = await loadSpec(specPath)
  const data = new Set(['value', 'example', 'default', 'const', 'enum', 'x-given-plants'])
  const lean = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(lean)
    if (typeof node !== 'object' || node === null) return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      // A property, header or example may be named `description`: only a string one is prose.
      if ((key === 'description' || key === 'summary') && typeof value === 'string') continue
      // JSON Schema's examples are values; OpenAPI's are Example Objects, whose prose goes.
      out[key] = data.has(key) || (key === 'examples' && Array.isArray(value)) ? value : lean(value)
    }
    return out
  }
  const { info, servers, tags, externalDocs, ...rest } = document
  const served = { ...(lean(rest) as object), info: { title: info.title, version: info.version } }
  return (
    `${header}import type { Document } from '../document.js'\n\n` +
    `/** The document without its prose (descriptions, summaries): what the in-process handlers serve. */\n` +
    `export const handlerDocument = ${JSON.stringify(served, null, 2)} as unknown as Document\n`
  )
}

/** The functions of Ajv's run time the compiled validators may call, and their stand-ins in core. */
const ajvRuntime: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
}

/**
 * The request schemas of every operation (path, query string, body), compiled by Ajv ahead of time
 * with the options of the server's createAjv, so that the in-process handlers validate as the server
 * does with neither Ajv nor the schemas' compiler in a page. Ajv writes the validators; what they
 * call of its run time comes from core (lib/ajv-runtime.ts), the formats from lib/formats.ts.
 */
export async function generateRequestValidators(): Promise<string> {
  const { operations } = await loadSpec(specPath)
  const ajv = createAjv({ code: { source: true, esm: true, formats: _`formats`, lines: true } })
  const names: Record<string, string> = {}
  const parts: [operationId: string, part: string, name: string][] = []
  for (const entry of operations) {
    const schema = routeSchema(entry)
    for (const part of ['params', 'querystring', 'body'] as const) {
      const partSchema = schema[part]
      if (!partSchema) continue
      const name = `${entry.operationId}_${part}`
      ajv.addSchema(partSchema, name)
      names[name] = name
      parts.push([entry.operationId, part, name])
    }
  }
  // Ajv exports each validator by name; the module exports only the typed table, which refers to them.
  const validators = new Map<string, string>()
  let code = standaloneCode(ajv, names)
    .replace(/^"use strict";/, '')
    .replace(/^export const (\w+) = (validate\d+);$/gm, (_line, name: string, validator: string) => {
      validators.set(name, validator)
      return ''
    })
  const table = operations.map(({ operationId }) => {
    const own = parts.filter(([id]) => id === operationId)
    const fields = own.map(([, part, name]) => {
      const validator = validators.get(name)
      if (!validator) throw new Error(`Ajv's standalone code exports no ${name}`)
      return `${part}: ${validator}`
    })
    return `  ${operationId}: {${fields.length ? ` ${fields.join(', ')} ` : ''}},`
  })
  const runtime: string[] = []
  for (const [call, name] of Object.entries(ajvRuntime))
    if (code.includes(call)) {
      code = code.replaceAll(call, name)
      runtime.push(name)
    }
  const left = /require\([^)]*\)/.exec(code)
  if (left)
    throw new Error(
      `a request schema needs ${left[0]} of Ajv's run time: add it to src/core/lib/ajv-runtime.ts`,
    )
  // createAjv knows every format of ajv-formats; the compiled code finds only core's own.
  for (const [, name] of code.matchAll(/\bformats\.([\w$]+)/g))
    if (!(name && name in formats))
      throw new Error(`a request schema has format ${name}: add it to src/core/lib/formats.ts`)
  return (
    `${header.trimEnd()}\n// @ts-nocheck: Ajv's standalone code, untyped; the table at the end is typed.\n\n` +
    `import type { Validate } from '../lib/check.js'\n` +
    (runtime.length ? `import { ${runtime.join(', ')} } from '../lib/ajv-runtime.js'\n` : '') +
    `import { formats } from '../lib/formats.js'\n\n` +
    `${code.trim()}\n\n` +
    `/** By operation id: the compiled validators of its path parameters, query string and body. */\n` +
    `export const requestValidators: Record<string, { params?: Validate; querystring?: Validate; body?: Validate }> = {\n` +
    `${table.join('\n')}\n}\n`
  )
}

type JsonSchema = Record<string, unknown>

/** Where a schema holds int64s, and nothing else; undefined when it holds none. */
function int64Shape(schema: JsonSchema, ancestors: JsonSchema[] = []): Int64Shape | undefined {
  if (ancestors.includes(schema)) throw new Error('a recursive schema has no finite int64 shape')
  const within = [...ancestors, schema]
  const flat = flatten(schema)
  if (flat.format === 'int64') return 'int64'
  const items = flat.schema.items as JsonSchema | undefined
  const inner = items && int64Shape(items, within)
  if (inner) return { items: inner }
  const properties = Object.entries(flat.properties).flatMap(([name, property]) => {
    const shape = int64Shape(property, within)
    return shape ? [[name, shape] as const] : []
  })
  return properties.length ? { properties: Object.fromEntries(properties) } : undefined
}

// The client reads which numbers of an answer are int64 from this digest of the document rather than
// from @plant-store/core, so that an app installing it gets no validator and no copy of the document.
export async function generateInt64Answers(): Promise<string> {
  const { operations } = await loadSpec(specPath)
  const answers: Record<string, Int64Shape> = {}
  for (const { method, path, operation } of operations)
    for (const [status, answer] of Object.entries(operation.responses ?? {})) {
      const schema = (answer as { content?: Record<string, { schema?: JsonSchema }> }).content?.[
        'application/json'
      ]?.schema
      const shape = schema && int64Shape(schema)
      if (shape) answers[`${method.toUpperCase()} ${path} ${status}`] = shape
    }
  return (
    `${header}import type { Int64Shape } from '../exact-json.js'\n\n` +
    `/** By \`METHOD path status\`: where the answer's JSON holds int64s. */\n` +
    `export const int64Answers: Record<string, Int64Shape> = ${JSON.stringify(answers, null, 2)}\n`
  )
}

/**
 * A stored plant's properties (the document's StoredPlant, allOf merged), for the code that handles a
 * plant field by field: the stores' columns, copying a plant out of a body, the webhook event's JSON
 * and the verifier's field lists. So a property added to the document needs no edit there. The order
 * is the one a plant's JSON is written in: the int64 id first, then the others as the document lists
 * them.
 */
export async function generatePlantFields(): Promise<string> {
  const { dereferenced } = await loadSpec(specPath)
  const stored = dereferenced.components?.schemas?.StoredPlant as JsonSchema | undefined
  if (!stored) throw new Error('the document has no StoredPlant schema')
  const flat = flatten(stored)
  const fields = Object.entries(flat.properties).map(([name, property]) => {
    // A column is named as its field, in SQL that quotes it: a name must be a plain identifier.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`StoredPlant.${name}: a property's name must be a plain identifier (it names a column)`)
    const { type, format } = flatten(property)
    if (type !== 'string' && type !== 'integer')
      throw new Error(`StoredPlant.${name} is of type ${type}: the stores keep strings and integers only`)
    return { name, type, int64: format === 'int64', required: flat.required.includes(name) }
  })
  const ids = fields.filter((field) => field.int64)
  if (ids.length !== 1 || ids[0]?.name !== 'id' || !ids[0].required)
    throw new Error(
      'StoredPlant must have exactly one int64 property, `id`, required: the key of /plants/{id}',
    )
  const ordered = [...ids, ...fields.filter((field) => !field.int64)]
  const rows = ordered.map(
    ({ name, type, int64, required }) =>
      `  { name: '${name}', type: '${type}', int64: ${int64}, required: ${required} },`,
  )
  // fast-json-stringify (Fastify's serializer) writes an object's required properties first: a store
  // that writes an answer's JSON itself keeps that order, so its answers are the serializer's byte for byte.
  const answerOrder = [
    ...fields.filter((field) => field.required),
    ...fields.filter((field) => !field.required),
  ]
  return (
    `${header}/** StoredPlant's properties: the int64 id first, then the others in the document's order. */\n` +
    `export const plantFields = [\n${rows.join('\n')}\n] as const\n\n` +
    `/** StoredPlant's property names as an answer's JSON lists them: the required ones first, each in the document's order. */\n` +
    `export const plantAnswerOrder = [${answerOrder.map((field) => `'${field.name}'`).join(', ')}] as const\n`
  )
}

/**
 * The server's environment check (src/server/config/env.ts) compiled ahead of time from its schema
 * (src/server/config/env-schema.ts): Ajv compiling it at every start took about a tenth of the start.
 */
export async function generateEnvValidator(): Promise<string> {
  const ajv = new Ajv2020({
    ...envAjvOptions,
    code: { source: true, esm: true, lines: true },
    // The schema is a constant: checking it against the 2020-12 meta-schema is all cost.
    validateSchema: false,
  })
  const code = standaloneCode(ajv, ajv.compile(envSchema))
    .replace(/^"use strict";/, '')
    .replace(/^export (const validate = \w+|default \w+);$/gm, '')
  const name = /^function (validate\d+)\(/m.exec(code)?.[1]
  if (!name) throw new Error("Ajv's standalone code for the environment has no validate function")
  return (
    '// Generated from src/server/config/env-schema.ts by `npm run generate`. Do not edit.\n' +
    `// @ts-nocheck: Ajv's standalone code, untyped; its export is typed at the end.\n\n` +
    "import { createRequire } from 'node:module'\n" +
    "import type { ValidateFunction } from 'ajv'\n\n" +
    "// What it calls of Ajv's run time (ajv/dist/runtime/) is the server's own Ajv's, required as Ajv wrote it.\n" +
    'const require = createRequire(import.meta.url)\n\n' +
    `${code.trim()}\n\n` +
    '/** The environment as env-schema.ts describes it, with defaults filled in and strings coerced. */\n' +
    `export const validateEnv: ValidateFunction = ${name}\n`
  )
}

export const outputs = {
  'src/core/generated/openapi.ts': generateTypes,
  'src/core/generated/document.ts': generateDocument,
  'src/core/generated/handler-document.ts': generateHandlerDocument,
  'src/core/generated/request-validators.ts': generateRequestValidators,
  'src/core/generated/plant-fields.ts': generatePlantFields,
  'src/client/generated/client-types.ts': generateClientTypes,
  'src/client/generated/int64-answers.ts': generateInt64Answers,
  'src/server/config/generated/env-validator.ts': generateEnvValidator,
}

const usage = `Usage: npm run generate [-- --check]

Writes, from spec/openapi.yaml, the types, the document as a module and the compiled request
validators of src/core/generated/ and the client's types of src/client/generated/; and, from
src/server/config/env-schema.ts, the server's compiled environment check.

  --check      write nothing: exit 1 naming each generated file that is stale
  -h, --help   this text`

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isMain) {
  const { check } = readOptions({ check: { type: 'boolean', default: false } }, usage)
  for (const [file, generate] of Object.entries(outputs)) {
    const outUrl = new URL(`../../${file}`, import.meta.url)
    const text = await generate()
    if (check) {
      const current = await readFile(outUrl, 'utf8').catch(() => '')
      if (current !== text) {
        console.error(`${file} is stale: run \`npm run generate\``)
        process.exitCode = 1
      }
    } else {
      await writeFile(outUrl, text)
    }
  }
}
