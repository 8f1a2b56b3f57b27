// The benchmark's command line: a mistyped option or a value out of range is told in one line with the
// usage, exit 2, before anything is started.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../scripts/lib/processes.js'

const bench = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'run-bench.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
  })

describe('npm run bench', () => {
  it.each([
    [['--nope'], /^bench: Unknown option '--nope'\. Usage: npm run bench -- \[--help\] \[--quick\]/],
    [['--rounds', '0'], /^bench: --rounds must be in 1\.\.600\. Usage: npm run bench -- /],
  ])('refuses %j in one line with its usage', (args, message) => {
    const run = bench(...args)
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('prints its usage and every option with --help, exit 0', () => {
    const run = bench('--help')
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/^Usage: npm run bench -- \[--help\] \[--quick\]/)
    // Every option the command takes is explained on a line of its own.
    for (const option of [
      '--quick',
      '--only',
      '--rounds',
      '--duration',
      '--warmup',
      '--connections',
      '--rate',
      '--candidate',
      '--layers',
      '--cpu-prof',
      '--keep',
      '--help',
    ])
      expect(run.stdout).toMatch(new RegExp(`^\\s+(-h, )?${option}\\b`, 'm'))
  })
})
