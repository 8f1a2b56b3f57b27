// `npm run dredd`: runs Dredd against a real server it starts itself, on a temporary OpenAPI 3.0
// conversion of spec/openapi.yaml, with contracts/dredd/hooks.cjs steering each transaction.
//
// Dredd 14 reads OpenAPI 3.0, not 3.1, and of several examples it keeps only the first; so every
// transaction (operation x status) would send the same first request example. Here we compute, per
// transaction, the request of the example Dredd expects (the response's first example, or the
// x-example-names of a bodiless response), and the hooks send exactly that.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Converter } from '@apiture/openapi-down-convert'
import { documentedStatuses, type JsonSchema, loadDocument } from '@plant-store/verify'
import { type ConventionProblem, exampleCases } from '@plant-store/verify/testing'
import * as commands from '../../scripts/lib/commands.js'
import { readOptions } from '../../scripts/lib/options.js'
import { repoRoot, runToExit, type Started, startProcess } from '../../scripts/lib/processes.js'
import { contractSpecPath, UNKNOWN_TOKEN } from '../lib/targets.js'
import type { DreddPlan, PlannedTransaction } from './plan.js'

readOptions(
  {},
  `Usage: npm run dredd

Runs Dredd against a real server it starts, on an OpenAPI 3.0 conversion of spec/openapi.yaml
(CONTRACT_SPEC names another document). It takes no options.

  -h, --help   this text`,
)

const require = createRequire(import.meta.url)
const dreddBin = join(require.resolve('dredd/package.json'), '..', 'bin', 'dredd')
const hookfile = join(repoRoot, 'contracts', 'dredd', 'hooks.cjs')
const reports = join(repoRoot, 'reports')
const DREDD_TIMEOUT_MS = 120_000

/** The converted document, with what Dredd's OpenAPI 3 reader needs and would otherwise reject. */
async function dreddDocument(): Promise<unknown> {
  // parse(), not dereference(): the converted copy keeps its $refs, as the document has them.
  const original = (await SwaggerParser.parse(contractSpecPath)) as object
  const converted = new Converter(original, { allOfTransform: false }).convert() as {
    paths: Record<
      string,
      Record<string, { parameters?: Record<string, unknown>[] }> & { parameters?: unknown[] }
    >
    components?: { parameters?: Record<string, Record<string, unknown>> }
  }
  // Dredd expands each URI template once and refuses a required parameter without a single
  // `example`; it ignores `examples`. The hooks replace every URI anyway, so the first example does.
  const singleExample = (p: Record<string, unknown>) => {
    const examples = p.examples as Record<string, { value?: unknown }> | undefined
    if (examples && p.example === undefined) p.example = Object.values(examples)[0]?.value
  }
  for (const item of Object.values(converted.paths)) {
    for (const value of Object.values(item)) {
      const params = Array.isArray(value) ? value : (value as { parameters?: unknown[] }).parameters
      for (const p of params ?? []) singleExample(p as Record<string, unknown>)
    }
  }
  for (const p of Object.values(converted.components?.parameters ?? {})) singleExample(p)
  return converted
}

/** A JSON Schema Gavel (Dredd's validator, Ajv 6) accepts: draft-07, without OpenAPI's int32/int64 formats. */
function gavelSchema(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip)
    if (!node || typeof node !== 'object') return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && (value === 'int32' || value === 'int64')) continue
      if (key === 'example' || key.startsWith('x-')) continue
      out[key] = strip(value)
    }
    return out
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...(strip(schema) as JsonSchema) }
}

async function buildPlan(
  serverUrl: string,
): Promise<{ plan: DreddPlan; tokens: string[]; problems: string[] }> {
  const { operations } = await loadDocument(contractSpecPath, 'kit')
  const conventionProblems: ConventionProblem[] = []
  const cases = exampleCases(operations, conventionProblems)
  const problems = conventionProblems.map((p) => `${p.operationId}: ${p.message}`)
  const transactions: Record<string, PlannedTransaction> = {}
  const tokens: string[] = []
  for (const entry of operations) {
    for (const status of documentedStatuses(entry)) {
      const response = entry.operation.responses[String(status)]
      if (!response) continue
      const mediaType = Object.keys(response.content ?? {})[0]
      // Dredd's transaction name: resource (the path) > action (the summary) > status [> media type].
      const name = [
        entry.path,
        entry.operation.summary ?? '',
        String(status),
        ...(mediaType ? [mediaType] : []),
      ].join(' > ')
      const media = mediaType ? response.content?.[mediaType] : undefined
      const example = media ? Object.keys(media.examples ?? {})[0] : response['x-example-names']?.[0]
      const c = cases.find((k) => k.entry === entry && k.example === example)
      if (!example || !c) {
        transactions[name] = {
          skip: `no request example produces the ${status} response's first example (${example ?? 'none'}): see the contract suite's convention test`,
        }
        continue
      }
      if (c.derivation?.kind === 'store-down') {
        transactions[name] = {
          skip: 'only an instance whose database has stopped answers this; the contract suite checks it on PostgreSQL',
        }
        continue
      }
      if (c.derivation?.kind === 'stalled') {
        // Dredd sends whole requests: a client too slow to finish one is the contract suite's to play.
        transactions[name] = {
          skip: `the ${status} answer comes only to a request that never finishes arriving: the contract suite checks it`,
        }
        continue
      }
      if (c.request.repeat) {
        // Dredd sends a request once; a limit spent by repetition is the contract suite's to check.
        transactions[name] = {
          skip: `the ${status} answer comes only once a principal has spent its rate limit: the contract suite checks it`,
        }
        continue
      }
      const token = `dredd-token-${tokens.length + 1}`
      tokens.push(token)
      const auth = c.request.auth
      const authorization =
        auth.kind === 'principal'
          ? `Bearer ${token}`
          : auth.kind === 'unknown'
            ? `Bearer ${UNKNOWN_TOKEN}`
            : auth.kind === 'header'
              ? auth.value
              : undefined
      transactions[name] = {
        example,
        operationId: entry.operationId,
        request: {
          method: c.request.method,
          uri: c.request.path,
          headers: {
            ...(authorization ? { Authorization: authorization } : {}),
            ...(c.request.contentType ? { 'Content-Type': c.request.contentType } : {}),
            ...c.request.headers,
          },
          body: c.request.body ?? '',
        },
        setup: auth.kind === 'principal' ? { token, plants: c.givenPlants } : undefined,
        expected: {
          status,
          body: c.body === undefined ? '' : JSON.stringify(c.body.value),
          bodySchema: media?.schema ? gavelSchema(media.schema) : undefined,
          requiredHeaders: c.requiredHeaders,
          optionalHeaders: Object.entries(response.headers ?? {})
            .filter(([h, header]) => !header.required && !c.requiredHeaders.includes(h.toLowerCase()))
            .map(([h]) => h.toLowerCase()),
        },
      }
    }
  }
  return { plan: { serverUrl, transactions, resultsFile: '' }, tokens, problems }
}

// A warning Dredd's logging library triggers on every run, about its own code: nothing to act on.
const dreddNoise = [
  /^\(node:\d+\) Warning: Accessing non-existent property 'padLevels'/,
  /^\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)/,
]

async function runDredd(args: string[], env: Record<string, string>): Promise<number> {
  const partial = { stdout: '', stderr: '' }
  const show = (chunk: string, stream: 'stdout' | 'stderr') => {
    const lines = (partial[stream] + chunk).split('\n')
    partial[stream] = lines.pop() ?? ''
    for (const line of lines)
      if (!dreddNoise.some((noise) => noise.test(line))) process[stream].write(`${line}\n`)
  }
  const { exit } = await runToExit({
    name: 'Dredd',
    command: process.execPath,
    args: [dreddBin, ...args],
    env,
    timeoutMs: DREDD_TIMEOUT_MS,
    onOutput: show,
  })
  for (const stream of ['stdout', 'stderr'] as const) if (partial[stream]) show('\n', stream)
  return typeof exit === 'number' ? exit : 1
}

async function main(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'plant-store-dredd-'))
  let server: Started | undefined
  try {
    // JSON is YAML too: Dredd reads it as it reads the YAML original.
    const documentFile = join(work, 'openapi.3.0.json')
    writeFileSync(documentFile, JSON.stringify(await dreddDocument(), null, 2))

    // Tokens are known only once the plan exists, and the plan needs the server's URL: plan first
    // with a placeholder, then start the server with the plan's tokens and fill the URL in.
    const { plan, tokens, problems } = await buildPlan('')
    server = await startProcess(
      commands.server({
        name: 'real server (Dredd)',
        env: {
          NODE_ENV: 'test',
          ...commands.generousLimits,
          // The 503 and 507 transactions send X-Simulate-Fault (the verifier's document-prose.ts).
          SIMULATE_FAULTS: 'true',
          AUTH_TOKENS: tokens.map((t, i) => `dredd-${i + 1}:${t}`).join(',') || 'dredd-0:unused',
        },
      }),
    )
    plan.serverUrl = server.url
    plan.resultsFile = join(work, 'hook-results.json')
    const planFile = join(work, 'plan.json')
    writeFileSync(planFile, JSON.stringify(plan, null, 2))

    mkdirSync(reports, { recursive: true })
    const code = await runDredd(
      [
        documentFile,
        server.url,
        '--hookfiles',
        hookfile,
        '--language',
        'nodejs',
        // Dredd's reader warns about every OpenAPI 3 feature it ignores; DREDD_LOGLEVEL=warning shows them.
        // Colour only for a terminal: in a CI log or a file the codes are noise.
        ...(process.stdout.isTTY && !process.env.NO_COLOR ? [] : ['--color', 'false']),
        '--loglevel',
        process.env.DREDD_LOGLEVEL ?? 'error',
        '--reporter',
        'xunit',
        '--output',
        join(reports, 'dredd.junit.xml'),
      ],
      { DREDD_PLAN: planFile },
    )

    // Dredd only warns when a hook file fails to load, and then runs unhooked: insist on proof they ran.
    const failures: string[] = [...problems]
    if (!existsSync(plan.resultsFile)) {
      failures.push(`the hooks (${hookfile}) did not run: Dredd could not load them`)
    } else {
      const results = JSON.parse(readFileSync(plan.resultsFile, 'utf8')) as {
        seen: string[]
        skipped: { name: string; reason: string }[]
        unplanned: string[]
      }
      for (const name of results.unplanned)
        failures.push(`Dredd ran a transaction the plan does not know: ${name}`)
      for (const name of Object.keys(plan.transactions)) {
        if (!results.seen.includes(name)) failures.push(`Dredd never ran the planned transaction ${name}`)
      }
      console.log(`\nDredd: ${results.seen.length} transactions, ${results.skipped.length} skipped`)
      for (const s of results.skipped) console.log(`  skipped: ${s.name}: ${s.reason}`)
    }
    for (const f of failures) console.error(`dredd run: ${f}`)
    return code !== 0 ? code : failures.length ? 1 : 0
  } finally {
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
