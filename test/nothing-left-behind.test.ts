// A contract run killed outright (SIGKILL to npm, as a CI time-out or a closed terminal may do) while
// its targets are up leaves no process and no listening port behind: nothing of the run can clean up
// after a SIGKILL, so each process must end by itself once the one that started it is gone.
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../scripts/lib/processes.js'
import {
  canReadProcesses,
  listening,
  listeningPorts,
  type ProcessSeen,
  processTree,
  stillRunning,
} from './helpers/process-tree.js'

if (!canReadProcesses) console.warn('nothing-left-behind: skipped, it reads /proc, which only Linux has')

// The generated layer starts five targets: the server, the sandbox, Prism and the handlers twice.
const TARGETS = 5

describe.skipIf(!canReadProcesses)('a contract run killed with SIGKILL', () => {
  it('leaves no process and no port of the run within 10 s', async () => {
    const env: Record<string, string | undefined> = { ...process.env }
    // This test runs inside vitest: the run it starts must not take itself for one of its workers.
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name]
    const npm = spawn('npm', ['run', '--silent', 'contract', '--', 'contracts/explore.contract.ts'], {
      cwd: repoRoot,
      env: { ...env, CONTRACT_REQUESTS: '100000', NO_COLOR: '1' },
      // Its own group, so that this test can clear up whatever the run leaves, should it fail.
      detached: true,
      stdio: 'ignore',
    })
    const root = npm.pid as number
    let seen: ProcessSeen[] = []
    let ports: number[] = []
    try {
      for (let i = 0; i < 480 && ports.length < TARGETS; i++) {
        await sleep(250)
        seen = processTree(root)
        ports = listeningPorts(seen)
      }
      expect(
        ports.length,
        `the targets did not come up:\n${seen.map((p) => p.command).join('\n')}`,
      ).toBeGreaterThanOrEqual(TARGETS)
      // Everything there is now, from npm down: its seen processes and their ports.
      seen = processTree(root)
      ports = listeningPorts(seen)
      process.kill(root, 'SIGKILL')
      // Looked at until all is gone, for as long as 10 s: a correct run is gone well before.
      const left = () => stillRunning(seen).filter((p) => p.pid !== root)
      const held = () =>
        listening()
          .map((l) => l.port)
          .filter((port) => ports.includes(port))
      for (let i = 0; i < 40 && (left().length || held().length); i++) await sleep(250)
      expect(left().map((p) => `${p.pid} ${p.command}`)).toEqual([])
      expect(held()).toEqual([])
    } finally {
      // Whatever survived, should this test fail: by the pids seen, never by name.
      for (const p of stillRunning(seen))
        try {
          process.kill(p.pid, 'SIGKILL')
        } catch {
          // Gone.
        }
      try {
        process.kill(-root, 'SIGKILL')
      } catch {
        // Gone.
      }
    }
  }, 180_000)
})
