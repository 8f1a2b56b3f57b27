// Generates src/generated/openapi.ts from spec/openapi.yaml; `--check` fails when the file is stale.
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'

const specUrl = new URL('../spec/openapi.yaml', import.meta.url)
const outUrl = new URL('../src/generated/openapi.ts', import.meta.url)

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
  return `// Generated from spec/openapi.yaml by \`npm run generate\`. Do not edit.\n\n${astToString(ast)}`
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isMain) {
  const text = await generateTypes()
  if (process.argv.includes('--check')) {
    const current = await readFile(outUrl, 'utf8').catch(() => '')
    if (current !== text) {
      console.error('src/generated/openapi.ts is stale: run `npm run generate`')
      process.exit(1)
    }
  } else {
    await writeFile(outUrl, text)
  }
}
