// `npm run test:slowest [-- vitest's options and files]`: runs vitest (the unit and integration tests
// unless told otherwise, e.g. `--config contracts/vitest.config.ts`) with its JSON reporter beside the
// default one, then prints the slowest test files and tests with their times: where a run's time goes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { repoRoot, runToExit } from './lib/processes.js'

const SHOWN = 15

interface JsonReport {
  testResults?: {
    name: string
    startTime?: number
    endTime?: number
    assertionResults?: { fullName: string; duration?: number | null }[]
  }[]
}

const dir = mkdtempSync(join(tmpdir(), 'plant-store-slowest-'))
const report = join(dir, 'report.json')
try {
  const { exit } = await runToExit({
    name: 'vitest',
    command: process.execPath,
    args: [
      join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...process.argv.slice(2),
    ],
    timeoutMs: 30 * 60_000,
    onOutput: (chunk, stream) => process[stream].write(chunk),
  })
  // Killed by a signal: a failure all the same.
  const code = typeof exit === 'number' ? exit : 1
  let results: JsonReport
  try {
    results = JSON.parse(readFileSync(report, 'utf8')) as JsonReport
  } catch {
    console.error(`test:slowest: vitest wrote no report (it ended with ${exit})`)
    process.exit(code || 1)
  }
  const files = (results.testResults ?? []).map((file) => ({
    name: relative(repoRoot, file.name),
    ms: (file.endTime ?? 0) - (file.startTime ?? 0),
    tests: file.assertionResults ?? [],
  }))
  const tests = files.flatMap((file) =>
    file.tests.map((test) => ({ name: `${file.name} › ${test.fullName}`, ms: test.duration ?? 0 })),
  )
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`
  const show = (title: string, rows: { name: string; ms: number }[]) => {
    console.log(`\n${title}`)
    for (const row of [...rows].sort((a, b) => b.ms - a.ms).slice(0, SHOWN))
      console.log(`${seconds(row.ms)}  ${row.name}`)
  }
  show(`The ${SHOWN} slowest test files (from the file's start to its end, hooks included):`, files)
  show(`The ${SHOWN} slowest tests:`, tests)
  process.exitCode = code
} finally {
  rmSync(dir, { recursive: true, force: true })
}
