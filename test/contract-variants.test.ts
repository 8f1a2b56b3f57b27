// The contract suite on drafts of the document that a team changing it may well write (no security,
// an operation removed, an optional field made required, no examples): on each it must end by itself,
// passing or failing with a message, never hanging. Small run counts keep this to a few minutes, and
// the drafts run two at a time (the unit config's maxConcurrency): each waits on its targets more than it
// computes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { load } from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot, runToExit } from '../scripts/lib/processes.js'
import { specPath } from '../scripts/lib/spec.js'

type Node = Record<string, unknown>
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null

/** Every object in the document, depth first. */
function* objects(value: unknown): Generator<Node> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item)
  else if (isNode(value)) {
    yield value
    for (const item of Object.values(value)) yield* objects(item)
  }
}

const variants: Record<string, (document: Node) => void> = {
  'no security': (document) => {
    document.security = []
  },
  'one operation removed': (document) => {
    const paths = document.paths as Record<string, Node>
    const [path, item] = Object.entries(paths).find(([, item]) => isNode(item.delete)) ?? []
    if (!path || !item) throw new Error('the document has no DELETE to remove')
    const removed = (item.delete as Node).operationId
    delete item.delete
    // A link to the operation removed would leave the document pointing nowhere.
    for (const node of objects(document))
      if (isNode(node.links))
        for (const [name, link] of Object.entries(node.links))
          if (isNode(link) && link.operationId === removed) delete node.links[name]
  },
  'an optional field made required': (document) => {
    for (const schema of Object.values((document.components as Node).schemas as Record<string, Node>)) {
      const properties = Object.keys((schema.properties as Node | undefined) ?? {})
      const required = (schema.required as string[] | undefined) ?? []
      const optional = properties.find((name) => !required.includes(name))
      if (optional) {
        schema.required = [...required, optional]
        return
      }
    }
    throw new Error('the document has no optional field')
  },
  'no examples': (document) => {
    for (const node of objects(document)) {
      delete node.examples
      delete node.example
    }
  },
}

const dir = mkdtempSync(join(tmpdir(), 'contract-variants-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The runs' own bound is CONTRACT_TIME_LIMIT_MS for each searching layer plus the config's hook and
// test time-outs; past this, the run is taken for hung (and killed with all it started).
const HUNG_AFTER_MS = 8 * 60_000

describe('the contract suite on drafts of the document', () => {
  for (const [name, change] of Object.entries(variants)) {
    it.concurrent(
      `${name}: ends by itself, passing or failing with a message`,
      async () => {
        const document = load(readFileSync(specPath, 'utf8')) as Node
        change(document)
        // JSON is YAML too, and the document holds no number JSON would change.
        const file = join(dir, `${name.replaceAll(' ', '-')}.json`)
        writeFileSync(file, JSON.stringify(document, null, 2))
        // A draft the suite may be given: a valid OpenAPI document.
        await SwaggerParser.validate(file)

        const { exit, output } = await runToExit({
          name: `contract suite on the draft with ${name}`,
          command: process.execPath,
          args: [
            join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
            'run',
            '--config',
            'contracts/vitest.config.ts',
            `--outputFile.junit=${join(dir, `${name.replaceAll(' ', '-')}.junit.xml`)}`,
          ],
          cleanEnv: true,
          env: {
            CONTRACT_SPEC: file,
            CONTRACT_TARGETS: 'server,mock',
            CONTRACT_REQUESTS: '10',
            CONTRACT_SEQUENCES: '2',
            CONTRACT_TIME_LIMIT_MS: '60000',
            NO_COLOR: '1',
          },
          timeoutMs: HUNG_AFTER_MS,
        })
        const summary = output.match(/^\s*(Test Files|Tests)\s.*$/gm) ?? []
        console.log(`${name}: exit ${exit}; ${summary.map((s) => s.trim()).join('; ')}`)
        expect([0, 1], `the run ended with ${exit}:\n${output.slice(-3000)}`).toContain(exit)
        expect(summary.length, `no test summary:\n${output.slice(-3000)}`).toBe(2)
        // A failure names the test and says what went wrong.
        if (exit === 1) expect(output).toMatch(/FAIL\s+contracts\/\S+\.contract\.ts[^\n]*\n[\s\S]*?Error: \S/)
      },
      HUNG_AFTER_MS + 60_000,
    )
  }
})
