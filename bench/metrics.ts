// What the benchmark reads of the processes it loads and of the machine: peak memory and what holds it,
// CPU time, steal.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

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
 * What holds a process's resident memory now, bytes: anonymous pages (V8's heap, SQLite's page cache,
 * what native code allocates) and pages of files (node's binary and the libraries it maps, shared
 * memory included); undefined when it is gone.
 */
export function residentParts(pid: number): { anon: number; file: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024
    return { anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') }
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
