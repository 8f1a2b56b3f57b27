// `npm test`: every check the project has, one stage after another, each stage's output shown as it
// comes (a stage that mostly waits runs beside the ones after it, its output shown whole when it ends);
// then one line of totals over all of them. A stage that fails does not stop the others.
// First, before anything else loads: on an unsupported Node, the one sentence `npm start` gives, and exit 1.
import '../src/server/lib/supported-node.js'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readOptions } from './lib/options.js'
import { repoRoot, runToExit } from './lib/processes.js'

readOptions(
  {},
  `Usage: npm test

Runs every check the project has, one stage after another, then one line of totals. It takes no
options: each stage prints its own command as it starts, which runs that stage alone.

  -h, --help   this text`,
)

interface Stage {
  name: string
  command: string[]
  /** The JUnit report the stage writes, whose counts stand for it; without one, the stage is one check. */
  junit?: string
  /**
   * Runs beside the stages after it instead of before them, at a lower priority (nice), its output kept
   * and shown whole once it ends: for a stage that mostly waits (on the registry, on a browser), so that
   * its waits and the others' work overlap, and the others keep the cores when both want them.
   */
  beside?: true
}

const stages: Stage[] = [
  { name: 'lint: Biome', command: ['biome', 'check', '.'] },
  { name: 'lint: TypeScript', command: ['tsc', '--noEmit'] },
  { name: 'lint: the OpenAPI document', command: ['node', '--import', 'tsx', 'scripts/lint-spec.ts'] },
  {
    name: 'lint: the OpenAPI document (Spectral, OWASP rules)',
    command: ['spectral', 'lint', 'spec/openapi.yaml', '--fail-severity', 'warn'],
  },
  // The packages' list lives in package.json's build script alone. First: the tests start the server
  // and the commands from dist/, and packing writes no build while the benchmark reads them.
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  {
    name: 'unit and integration tests',
    command: [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=junit',
      '--outputFile.junit=reports/unit.junit.xml',
    ],
    junit: 'reports/unit.junit.xml',
  },
  // Beside the contract suite, the gate, Dredd and the benchmark, which leave the cores half idle; not
  // beside the unit tests, which keep both busy (beside them, the two together took longer).
  {
    name: 'packages, packed and installed into scratch apps (publint, attw)',
    command: ['vitest', 'run', '--config', 'test/packages/vitest.config.ts'],
    junit: 'reports/packages.junit.xml',
    beside: true,
  },
  {
    name: 'contract suite',
    command: ['vitest', 'run', '--config', 'contracts/vitest.config.ts'],
    junit: 'reports/contract.junit.xml',
  },
  {
    name: 'compatibility with the released document',
    command: ['node', '--import', 'tsx', 'contracts/compat/run-compat.ts'],
    junit: 'reports/compat.junit.xml',
  },
  {
    name: 'Dredd',
    command: ['node', '--import', 'tsx', 'contracts/dredd/run-dredd.ts'],
    junit: 'reports/dredd.junit.xml',
  },
  { name: 'benchmark, quick mode', command: ['node', '--import', 'tsx', 'bench/run-bench.ts', '--quick'] },
]

interface Counts {
  passed: number
  failed: number
  skipped: number
}

/**
 * Node's compile cache for every process the stages start. They start Node hundreds of times (servers,
 * Prism, the commands, vitest's workers), each start compiling the same modules again: with the cache
 * each is compiled once a run, which took an eighth off the unit tests' CPU (560 to 492 CPU-s). A folder
 * of this run's own, removed as it ends: kept between runs it would only grow, as the scratch apps are
 * installed at new paths each run. NODE_COMPILE_CACHE set (CI sets it) is used as it is, and set empty
 * turns the cache off.
 */
function compileCache(): string {
  const given = process.env.NODE_COMPILE_CACHE
  if (given !== undefined) return given
  const own = mkdtempSync(join(tmpdir(), 'plant-store-compile-cache-'))
  process.on('exit', () => rmSync(own, { recursive: true, force: true }))
  return own
}

// Colour codes are noise in a CI log or a file: only a terminal gets them.
const colour = process.stdout.isTTY && !process.env.NO_COLOR
const env = {
  PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH}`,
  NODE_COMPILE_CACHE: compileCache(),
  ...(colour ? {} : { NO_COLOR: '1', FORCE_COLOR: '0' }),
}

type Result = { stage: Stage; counts: Counts; seconds: number; note?: string }

/** Runs a stage to its end; its output goes to `show` as it comes. */
async function runStage(stage: Stage, show: (chunk: string, stream: 'stdout' | 'stderr') => void) {
  if (stage.junit) rmSync(join(repoRoot, stage.junit), { force: true })
  const began = performance.now()
  const [tool = '', ...rest] = stage.command
  const own = [tool, ...rest, ...(colour ? [] : noColourArgs(tool))]
  const [command = '', ...args] = stage.beside ? ['nice', '-n', '10', ...own] : own
  const { exit } = await runToExit({
    name: stage.name,
    command,
    args,
    env,
    timeoutMs: 20 * 60_000,
    onOutput: show,
  })
  const seconds = (performance.now() - began) / 1000
  const ok = exit === 0
  const counted = stage.junit ? readJunit(join(repoRoot, stage.junit)) : undefined
  let counts = counted ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 }
  let note: string | undefined
  // A runner that fails before or after its tests (a crash, a failed hook) still fails the stage.
  if (!ok && counts.failed === 0) {
    counts = { ...counts, failed: 1 }
    note = `exited with ${exit}`
  }
  return { stage, counts, seconds, note }
}

const heading = (stage: Stage) => `\n== ${stage.name}: ${stage.command.join(' ')}`
const results: Result[] = []
/** The stages running beside the others: each one's output, shown whole between two stages once it ends. */
const besides: { result: Promise<Result>; output: string[]; ended: boolean; shown: boolean }[] = []
const showEnded = () => {
  for (const side of besides.filter((side) => side.ended && !side.shown)) {
    side.shown = true
    process.stdout.write(side.output.join(''))
  }
}
for (const stage of stages) {
  showEnded()
  if (stage.beside) {
    console.log(`${heading(stage)}\n(beside the stages that follow; its output is shown whole when it ends)`)
    const output = [`${heading(stage)}\n`]
    const side: (typeof besides)[number] = {
      output,
      ended: false,
      shown: false,
      result: runStage(stage, (chunk) => output.push(chunk)).finally(() => {
        side.ended = true
      }),
    }
    besides.push(side)
    continue
  }
  console.log(heading(stage))
  results.push(await runStage(stage, (chunk, stream) => process[stream].write(chunk)))
}
for (const side of besides) {
  const result = await side.result
  showEnded()
  // In the summary where it was listed, as if it had run in turn.
  results.splice(stages.indexOf(result.stage), 0, result)
}

const total = results.reduce(
  (sum, { counts }) => ({
    passed: sum.passed + counts.passed,
    failed: sum.failed + counts.failed,
    skipped: sum.skipped + counts.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
)
console.log('\n== Summary')
for (const { stage, counts, seconds, note } of results) {
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : ''
  console.log(
    `${counts.failed ? 'FAIL' : 'ok  '} ${stage.name}: ${counts.passed} passed, ${counts.failed} failed${skipped}` +
      ` (${seconds.toFixed(0)} s)${note ? `, ${note}` : ''}`,
  )
}
console.log(
  `Total: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
)
process.exitCode = total.failed > 0 ? 1 : 0

// Tools that colour by default whatever their output is.
function noColourArgs(command: string): string[] {
  if (command === 'biome') return ['--colors=off']
  if (command === 'tsc') return ['--pretty', 'false']
  return []
}

/** The counts of a JUnit report, or undefined when the stage wrote none. */
function readJunit(file: string): Counts | undefined {
  if (!existsSync(file)) return undefined
  const xml = readFileSync(file, 'utf8')
  const suites = [...xml.matchAll(/<testsuite\s[^>]*>/g)].map((m) => m[0])
  const attr = (tag: string, name: string) => Number(new RegExp(`\\s${name}="(\\d+)"`).exec(tag)?.[1] ?? 0)
  const sum = (...names: string[]) =>
    suites.reduce((n, tag) => n + names.reduce((m, name) => m + attr(tag, name), 0), 0)
  const tests = sum('tests')
  const failed = sum('failures', 'errors')
  const skipped = sum('skipped', 'skip')
  return { passed: tests - failed - skipped, failed, skipped }
}
