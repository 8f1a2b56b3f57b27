// Starts the processes under test (real server, baseline, Prism) on free loopback ports, reads their
// peak memory, and kills them, whole process groups, at the end, on failure and on interruption.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { killGroup, track, untrack } from '../contracts/lib/process-groups.js'

export { killAllNow } from '../contracts/lib/process-groups.js'

export interface Started {
  name: string
  /** e.g. `http://127.0.0.1:43817`, read from the process's own "listening" line. */
  url: string
  pid: number
  logFile: string
  /** Milliseconds from spawn to the moment the process said it listens. */
  startMs: number
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>
  /** SIGKILL at once, as a crash or an OOM killer would: nothing gets to flush or close. */
  kill9(): Promise<void>
  /** How the process ended (`code 0, signal null`), or undefined while it runs. */
  exited(): string | undefined
}

export interface StartOptions {
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  /** stdout and stderr go here, not through a pipe: reading ~20,000 log lines/s would load the client. */
  logFile: string
  /** Matched against the log; group 1 is the base URL. */
  listening: RegExp
  timeoutMs?: number
}

export async function startProcess(options: StartOptions): Promise<Started> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const fd = openSync(options.logFile, 'a')
  const spawnedAt = performance.timeOrigin + performance.now()
  // detached: the child leads its own process group, so a kill reaches anything it spawns too.
  const child: ChildProcess = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  const pid = child.pid
  if (pid === undefined) throw new Error(`${options.name}: could not be spawned`)
  track(pid)
  let exited: string | undefined
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `code ${code}, signal ${signal}`
      untrack(pid)
      resolve()
    })
  })

  // Once only: a second kill of the group after it is gone could hit a reused process group id.
  let stopping: Promise<void> | undefined
  const stopWith = (first: NodeJS.Signals) => {
    stopping ??= (async () => {
      if (exited === undefined) {
        killGroup(pid, first)
        const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 5_000)
        await exitPromise
        clearTimeout(timer)
      }
      // The leader may exit before the rest of its group: make sure nothing is left behind.
      killGroup(pid, 'SIGKILL')
    })()
    return stopping
  }

  // Polls the log file rather than piping it; a bounded number of tries.
  const deadline = Date.now() + timeoutMs
  const log = await open(options.logFile, 'r')
  try {
    let seen = ''
    let partial = ''
    let position = 0
    const buffer = Buffer.alloc(64 * 1024)
    while (Date.now() < deadline) {
      const { bytesRead } = await log.read(buffer, 0, buffer.length, position)
      position += bytesRead
      const chunk = buffer.toString('utf8', 0, bytesRead)
      seen = (seen + chunk).slice(-4000)
      // Only whole lines: a port read from half a line would be wrong.
      const lines = (partial + chunk).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        const match = options.listening.exec(line)
        if (match?.[1]) {
          const startMs = listenedAt(line) - spawnedAt
          return {
            name: options.name,
            url: match[1],
            pid,
            logFile: options.logFile,
            startMs: Math.max(0, startMs),
            stop: () => stopWith('SIGTERM'),
            kill9: () => stopWith('SIGKILL'),
            exited: () => exited,
          }
        }
      }
      if (exited !== undefined) break
      if (bytesRead === 0) await sleep(5)
    }
    await stopWith('SIGKILL')
    const why = exited === undefined ? `did not listen within ${timeoutMs} ms` : `exited (${exited})`
    throw new Error(`${options.name} ${why}. Log (${options.logFile}):\n${seen}`)
  } finally {
    await log.close()
  }
}

// The server's own pino line carries the time it listened; other processes' lines are timed as read.
function listenedAt(line: string): number {
  try {
    const time = (JSON.parse(line) as { time?: unknown }).time
    if (typeof time === 'number') return time
  } catch {
    // Not JSON: Prism or the baseline.
  }
  return Date.now()
}

/** Peak resident set size of a process in bytes (VmHWM), or undefined when it is gone. */
export function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

/**
 * Resets a process's VmHWM to its current RSS (Linux: `5` into clear_refs), so the next reading is the
 * peak of what follows. False when the kernel does not allow it; the peak is then the lifetime one.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

let ticksPerSecond: number | undefined

/** CPU time (user + system, all threads) a process has used so far, in ms; undefined when it is gone. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may hold spaces: utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000
  } catch {
    return undefined
  }
}

/** The machine's CPU time so far from /proc/stat, in ticks: all of it, and the part stolen by the hypervisor. */
export function machineTicks(): { total: number; steal: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already in user.
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 }
  } catch {
    return { total: 0, steal: 0 }
  }
}
