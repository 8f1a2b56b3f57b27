// `npm run compat`: compares spec/openapi.yaml with the last released document (spec/released/), applies
// the policy of spec/CHANGELOG.md, then replays the released document's examples against the current
// server, and judges it against the consumer contracts the frontends recorded. Writes reports/compat.md
// and reports/compat.junit.xml; exits 1 when a client would break, or a recorded consumer (with
// --only-consumers, a recorded consumer alone), 2 on an option it does not know.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { readOptions } from '../../scripts/lib/options.js'
import { type Exit, repoRoot, runToExit } from '../../scripts/lib/processes.js'
import { loadSpec, document as served, specPath } from '../../scripts/lib/spec.js'
import { checkWithBroker } from './broker.js'
import { judgeConsumers } from './consumers.js'
import { checkCompat, latestRelease } from './policy.js'
import { changeLines, junit, markdown, passed, type ReplayResult, verdictLines } from './report.js'

const usage = `Usage: npm run compat -- [--spec PATH] [--base PATH] [--changelog PATH] [--no-replay]
                      [--reports DIR] [--consumers DIR [--only-consumers]] [--broker URL]

Judges a draft of the document against the last released one by the changelog's policy, replays the
released document's examples against the server, and judges the draft against the recorded consumers.

  --spec PATH        the draft to judge (default spec/openapi.yaml)
  --base PATH        the released document to judge it against (default the highest version in
                     spec/released/)
  --changelog PATH   the changelog (default spec/CHANGELOG.md)
  --no-replay        the document diff alone, without starting the server
  --reports DIR      where compat.md and compat.junit.xml go (default reports/)
  --consumers DIR    the recorded consumer contracts (default contracts/consumers/, when it exists)
  --only-consumers   the recorded consumers are all the clients there are: exit 1 only when one of
                     them breaks; the general rule's verdict is printed as a note
  --broker URL       also judge the draft against every consumer a contract broker knows to run
                     (deployed, released, or a main branch's latest), with BROKER_TOKEN: exit 1
                     when it breaks one
  -h, --help         this text

Exit status: 0 the draft can be released; 1 it cannot (a change the changelog does not allow, a
failed or refused replay, a recorded consumer it breaks, a running consumer the broker knows it
breaks; with --only-consumers, a recorded consumer it breaks alone) or a contract cannot be read;
2 a usage error.`

const values = readOptions(
  {
    spec: { type: 'string' },
    base: { type: 'string' },
    changelog: { type: 'string' },
    'no-replay': { type: 'boolean', default: false },
    reports: { type: 'string' },
    consumers: { type: 'string' },
    'only-consumers': { type: 'boolean', default: false },
    broker: { type: 'string' },
  },
  usage,
)

const reports = values.reports ? resolve(values.reports) : join(repoRoot, 'reports')
// Inside the repository by its relative path, elsewhere (a draft in /tmp) in full.
const name = (path: string) => {
  const inside = relative(repoRoot, path)
  return inside && !inside.startsWith('..') ? inside : path
}
const spec = values.spec ? resolve(values.spec) : specPath
const changelog = values.changelog ? resolve(values.changelog) : join(repoRoot, 'spec', 'CHANGELOG.md')
const base = values.base ? resolve(values.base) : latestRelease(join(repoRoot, 'spec', 'released'))?.path
// The replay starts the server and Prism; it must end well within `npm test`'s limit for a stage.
const REPLAY_TIMEOUT_MS = 10 * 60_000

if (base === undefined) {
  console.error(
    'FAIL: no released document in spec/released/: release one first (copy spec/openapi.yaml to spec/released/<version>.yaml)',
  )
  process.exit(1)
}
for (const [option, path] of [
  ['--base', base],
  ['--spec', spec],
] as const)
  if (!existsSync(path)) {
    console.error(`${option}: ${name(path)} does not exist`)
    process.exit(2)
  }

// The repository's own folder when it has one; a folder given that does not exist fails the run.
const defaultConsumers = join(repoRoot, 'contracts', 'consumers')
const consumersDir = values.consumers
  ? resolve(values.consumers)
  : existsSync(defaultConsumers)
    ? defaultConsumers
    : undefined
const onlyConsumers = values['only-consumers']
if (onlyConsumers && consumersDir === undefined) {
  console.error(
    `--only-consumers judges by the recorded consumers alone, and there are none: give --consumers DIR (${name(defaultConsumers)} does not exist)`,
  )
  process.exit(2)
}

const verdict = await checkCompat({
  spec,
  base,
  releasedDir: join(repoRoot, 'spec', 'released'),
  changelog,
  changelogName: name(changelog),
})
const head = await loadSpec(spec)
const consumers = consumersDir
  ? judgeConsumers({
      folder: consumersDir,
      name: name(consumersDir),
      head: head.dereferenced,
      base: (await loadSpec(base)).dereferenced,
      changes: verdict.changes,
    })
  : undefined
if (onlyConsumers && consumers?.verdicts.length === 0 && consumers.problems.length === 0) {
  console.error(
    `--only-consumers judges by the recorded consumers alone, and ${consumers.folder} holds no consumer contract (*.json)`,
  )
  process.exit(2)
}
const input = {
  verdict,
  specName: name(spec),
  baseName: name(base),
  changelogName: name(changelog),
  consumers,
  onlyConsumers,
}
for (const line of changeLines(input)) console.log(line)
const replay = values['no-replay'] ? undefined : await replayReleased(base, head.document)
for (const line of verdictLines({ ...input, replay })) console.log(line)
mkdirSync(reports, { recursive: true })
writeFileSync(join(reports, 'compat.md'), markdown({ ...input, replay }))
writeFileSync(join(reports, 'compat.junit.xml'), junit({ ...input, replay }))
console.log(`Reports: ${name(join(reports, 'compat.md'))}, ${name(join(reports, 'compat.junit.xml'))}`)
const broker = values.broker ? await checkWithBroker(values.broker, head.document) : undefined
for (const line of broker?.lines ?? []) console.log(line)
process.exitCode = passed({ ...input, replay }) && broker?.ok !== false ? 0 : 1

/**
 * Why the replay cannot judge the draft, or undefined when it can. The server serves the generated
 * copy of the document (src/core/generated/, written by `npm run generate` from spec/openapi.yaml),
 * not the file: replayed against a copy of another document, a draft that renames a field would pass.
 */
function staleServer(draft: object): string | undefined {
  if (JSON.stringify(draft) === JSON.stringify(served)) return undefined
  const generated = 'src/core/generated/'
  return spec === specPath
    ? `the server serves ${generated}, which is stale against ${name(spec)}: \`npm run generate\` refreshes it (or --no-replay judges the document alone)`
    : `the server serves ${generated}, generated from ${name(specPath)}, not from ${name(spec)}: copy the draft there and run \`npm run generate\` (or --no-replay judges the document alone)`
}

/**
 * The contract suite run on the released document (CONTRACT_SPEC) while the real server serves the
 * draft (refused when the server's generated copy is not the draft's): a server change that breaks
 * what was released fails here even when the draft was edited to match it. Its coverage report is
 * kept apart, so the contract stage's own stays as it was.
 */
async function replayReleased(document: string, draft: object): Promise<ReplayResult> {
  const refused = staleServer(draft)
  if (refused)
    return { document: name(document), skipped: refused, passed: 0, failed: 0, ok: false, seconds: 0 }
  const require = createRequire(import.meta.url)
  const vitest = join(require.resolve('vitest/package.json'), '..', 'vitest.mjs')
  const junitFile = join(reports, 'compat-replay.junit.xml')
  // The contract suite always writes its coverage to the repository's reports/contract-coverage/
  // (contracts/lib/coverage.ts): the contract stage's is kept aside meanwhile, and the replay's moved
  // to compat-replay-coverage/.
  const coverage = join(repoRoot, 'reports', 'contract-coverage')
  const kept = existsSync(coverage) ? mkdtempSync(join(tmpdir(), 'plant-store-coverage-')) : undefined
  if (kept) cpSync(coverage, kept, { recursive: true })
  mkdirSync(reports, { recursive: true })
  rmSync(junitFile, { force: true })
  console.log(`\nBehaviour replay: the contract suite on ${name(document)}, against the current server`)
  const began = performance.now()
  let exit: Exit | undefined
  try {
    ;({ exit } = await runToExit({
      name: 'behaviour replay',
      command: process.execPath,
      args: [
        vitest,
        'run',
        '--config',
        'contracts/vitest.config.ts',
        'contracts/plant-store.contract.ts',
        `--outputFile.junit=${junitFile}`,
      ],
      cwd: repoRoot,
      env: { CONTRACT_SPEC: document },
      timeoutMs: REPLAY_TIMEOUT_MS,
      onOutput: (chunk, stream) => process[stream].write(chunk),
    }))
  } catch (error) {
    // Timed out (runToExit has killed it): a failed replay, reported as one.
    console.error(error instanceof Error ? error.message : String(error))
  } finally {
    const replayed = join(reports, 'compat-replay-coverage')
    rmSync(replayed, { recursive: true, force: true })
    if (existsSync(coverage)) {
      cpSync(coverage, replayed, { recursive: true })
      rmSync(coverage, { recursive: true })
    }
    if (kept) {
      cpSync(kept, coverage, { recursive: true })
      rmSync(kept, { recursive: true })
    }
  }
  const seconds = (performance.now() - began) / 1000
  const counts = countJunit(junitFile)
  return {
    document: name(document),
    passed: counts.passed,
    failed: counts.failed,
    // A suite that dies before its tests still fails the replay.
    ok: exit === 0 && counts.failed === 0,
    seconds,
  }
}

function countJunit(file: string): { passed: number; failed: number } {
  if (!existsSync(file)) return { passed: 0, failed: 0 }
  const top = /<testsuites\s[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? ''
  const attr = (key: string) => Number(new RegExp(`\\s${key}="(\\d+)"`).exec(top)?.[1] ?? 0)
  const failed = attr('failures') + attr('errors')
  return { passed: attr('tests') - failed - attr('skipped'), failed }
}
