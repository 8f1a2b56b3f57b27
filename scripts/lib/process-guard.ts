// Processes that end with the one that started them, however it ends: a watchdog kills the process
// groups spawned here when this process is gone (SIGKILL included), and a thread watching the parent
// ends this process when its own parent ends, even while the event loop is blocked.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { Worker } from 'node:worker_threads'

// The watchdog: it reads group ids from a pipe whose other end only this process holds ("-id" when a
// group ended by itself), and when the pipe closes, because this process ended however it did, it
// kills the groups still listed. Plain JavaScript for `node -e`: it needs nothing but Node.
const WATCHDOG = `
const groups = new Set()
let rest = ''
const end = () => {
  for (const id of groups) try { process.kill(-id, 'SIGKILL') } catch {}
  process.exit(0)
}
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\\n')
  rest = lines.pop()
  for (const line of lines) {
    const id = Number(line)
    if (id > 0) groups.add(id)
    else if (id < 0) groups.delete(-id)
  }
})
process.stdin.on('end', end)
process.stdin.on('error', end)
`

let watchdog: ChildProcess | undefined

function tellWatchdog(line: string): void {
  if (!watchdog) {
    // Its own session: a terminal's Ctrl-C or hang-up meant for this process does not reach it.
    watchdog = spawn(process.execPath, ['-e', WATCHDOG], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    watchdog.stdin?.on('error', () => {
      // It died: spawned groups are then only stopped by this process, as before it existed.
    })
    // Neither the watchdog nor its pipe may keep this process alive.
    watchdog.unref()
    ;(watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  }
  watchdog.stdin?.write(`${line}\n`)
}

/** The last line of a process that stops because the process that started it has exited. */
export const PARENT_GONE = 'stopping: the process that started this one has exited'

// Runs on a thread of its own, so that it works while the main thread is blocked: once the parent is
// gone, it says so on standard error (written from this thread, so it is said however busy the main
// one is), SIGTERM lets this process clean up if it can, and SIGKILL follows if it cannot.
const PARENT_WATCH = `
const { readFileSync, writeSync } = require('node:fs')
const { workerData } = require('node:worker_threads')
const parentNow = () => {
  try {
    // Linux: the fourth field of /proc/self/stat, after the command name in parentheses.
    const stat = readFileSync('/proc/self/stat', 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    try { process.kill(workerData.parent, 0); return workerData.parent } catch { return -1 }
  }
}
const timer = setInterval(() => {
  if (parentNow() === workerData.parent) return
  clearInterval(timer)
  try { writeSync(2, workerData.gone + '\\n') } catch {}
  process.kill(process.pid, 'SIGTERM')
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 3000)
}, 500)
`

let tethered = false

/**
 * Ends this process when the process that started it ends, even while this one's event loop is
 * blocked: for every process that starts others (the test runners, the benchmark, the launchers).
 */
export function exitWithParent(): void {
  if (tethered) return
  tethered = true
  const worker = new Worker(PARENT_WATCH, {
    eval: true,
    workerData: { parent: process.ppid, gone: PARENT_GONE },
    // Not this process's loaders (tsx): plain JavaScript needs none, and they would wait on the main thread.
    execArgv: [],
  })
  worker.unref()
}

/**
 * Spawns a process leading a group of its own, killed with its group by the watchdog if this process
 * ends first, however it ends; this process then ends with its own parent too.
 */
export function spawnGuarded(command: string, args: string[], options: SpawnOptions): ChildProcess {
  exitWithParent()
  const child = spawn(command, args, { ...options, detached: true })
  const pid = child.pid
  if (pid !== undefined) {
    tellWatchdog(String(pid))
    child.once('exit', () => tellWatchdog(String(-pid)))
  }
  return child
}
