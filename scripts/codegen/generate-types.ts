// Generates, from spec/openapi.yaml, @plant-store/core's src/core/generated/openapi.ts (the types of the
// server and the handlers) and src/core/generated/document.ts (the document as a module: the one copy
// every package reads, in a browser too), and @plant-store/client's src/client/generated/client-types.ts
// (int64 as bigint) and src/client/generated/int64-answers.ts (where its answers hold int64s); `--check`
// fails when any is stale, and so does `npm test` (test/spec.test.ts).
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import type { Int64Shape } from '../../src/client/exact-json.js'
import { flatten, loadSpec, specPath } from '../lib/spec.js'

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

export const outputs = {
  'src/core/generated/openapi.ts': generateTypes,
  'src/core/generated/document.ts': generateDocument,
  'src/client/generated/client-types.ts': generateClientTypes,
  'src/client/generated/int64-answers.ts': generateInt64Answers,
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isMain) {
  for (const [file, generate] of Object.entries(outputs)) {
    const outUrl = new URL(`../../${file}`, import.meta.url)
    const text = await generate()
    if (process.argv.includes('--check')) {
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
