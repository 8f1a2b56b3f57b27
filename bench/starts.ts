// The start compared fairly: the baseline built to one .js file, as the server is built to dist/, and
// both started by the same node with the same flags, in alternation, so that neither pays for a
// TypeScript loader and a busy moment of the machine falls on both alike.
import { join } from 'node:path'
import { build } from 'esbuild'
import * as commands from '../scripts/lib/commands.js'
import { repoRoot, type Started, type startProcess } from '../scripts/lib/processes.js'
import { median } from './report.js'

/** bench/dist/baseline-server.js: the baseline's own code in one file, its packages loaded from node_modules as the server's are. */
export const baselineScript = join(repoRoot, 'bench', 'dist', 'baseline-server.js')

/** bench/dist/serve-without.js: the ledger's server without some layers, built alike, so that no server loaded runs through tsx. */
export const serveWithoutScript = join(repoRoot, 'bench', 'dist', 'serve-without.js')

/**
 * Builds the baseline and the ledger's serve-without; the bundles sit at the same depth as
 * scripts/lib/spec.ts, so the document's path the baseline computes holds.
 */
export async function buildBenchScripts(): Promise<void> {
  await build({
    entryPoints: [join(repoRoot, 'bench', 'baseline-server.ts'), join(repoRoot, 'bench', 'serve-without.ts')],
    outdir: join(repoRoot, 'bench', 'dist'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'warning',
  })
}

/** How the baseline starts: the server's Node flags, its built script. */
export function baselineCommand(name = 'baseline'): Parameters<typeof startProcess>[0] {
  return {
    name,
    command: process.execPath,
    args: [...commands.serverNodeFlags, baselineScript],
    listening: commands.serverListening,
  }
}

export interface Starts {
  /** Milliseconds from spawn to listening, one per start, in the order they were made. */
  server: number[]
  baseline: number[]
}

/**
 * `count` starts of each, alternating (baseline first, then the server), each stopped before the next
 * begins, so that no start shares the machine with another process of the comparison.
 */
export async function compareStarts(
  count: number,
  /** Its i-th start: each under a name of its own, since a process's log file is named after it. */
  startBaseline: (i: number) => Promise<Started>,
  startServer: (i: number) => Promise<Started>,
): Promise<Starts> {
  const starts: Starts = { server: [], baseline: [] }
  for (let i = 0; i < count; i++) {
    for (const [list, start] of [
      [starts.baseline, startBaseline],
      [starts.server, startServer],
    ] as const) {
      const started = await start(i)
      list.push(started.startMs)
      await started.stop()
    }
  }
  return starts
}

/** The server's median start over the baseline's, both from the same comparison. */
export const startRatio = (starts: Starts): number => median(starts.server) / median(starts.baseline)
