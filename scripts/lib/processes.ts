// Starts, waits for and stops the processes the tests, the contract suite and the benchmark run: each
// leads its own process group, so stopping it stops whatever it started, and every group still alive
// when this process exits or is interrupted is killed. However this process ends (SIGKILL included,
// or stopped from outside while its event loop is blocked), a watchdog kills those groups, and a
// process that starts any ends when its own parent does.
import type { ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { spawnGuarded } from './process-guard.js'

export { exitWithParent, PARENT_GONE, spawnGuarded } from './process-guard.js'

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** A port on 127.0.0.1 the OS has just handed out, for a process that must be told its port before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no free port')
  return address.port
}

export interface StartOptions {
  name: string
  command: string
  args: string[]
  /**
   * Added to this process's environment, unless `cleanEnv` asks for PATH (and Node's compile cache)
   * alone underneath.
   */
  env?: Record<string, string | undefined>
  cleanEnv?: boolean
  cwd?: string
  /** Matched against each output line (ANSI colours removed); group 1 is the base URL. */
  listening: RegExp
  timeoutMs?: number
  /**
   * Where stdout and stderr go: piped and kept (the last lines) by default, or appended to a file,
   * for a process whose log is too busy to read through a pipe without loading the reader.
   */
  logFile?: string
}

/** How a process ended: its exit code, or the signal that ended it. */
export type Exit = number | NodeJS.Signals

export interface Started {
  name: string
  /** e.g. `http://127.0.0.1:43817`, read from the process's own "listening" line. */
  url: string
  pid: number
  /** Milliseconds from spawn to the "listening" line (its own `time` field when it is a pino line). */
  startMs: number
  /** What the process has printed (its last 500 lines), or the tail of its log file. */
  output(): string
  /** Resolves once the process has ended. */
  exited: Promise<Exit>
  /** How it ended, or undefined while it runs. */
  exit(): Exit | undefined
  /** Sends a signal to the process alone, as a supervisor would (SIGTERM to ask it to shut down). */
  signal(signal: NodeJS.Signals): void
  /** SIGTERM to the group, SIGKILL after a grace period; resolves once it is gone. */
  stop(): Promise<void>
  /** SIGKILL to the group at once, as a crash or an OOM killer would. */
  kill9(): Promise<void>
}

// ---- Process groups ----------------------------------------------------------------------------

const live = new Set<number>()
let guarded = false

function track(pgid: number): void {
  if (!guarded) {
    guarded = true
    process.once('exit', killAllNow)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killAllNow()
        process.exit(130)
      })
    }
  }
  live.add(pgid)
}

/** Kills every process group started here and not yet ended. */
export function killAllNow(): void {
  for (const pgid of live) killGroup(pgid, 'SIGKILL')
  live.clear()
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // Already gone.
  }
}

// ---- Spawning ----------------------------------------------------------------------------------

const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const KEPT_LINES = 500

interface Spawned {
  child: ChildProcess
  pid: number
  exited: Promise<Exit>
  /** Resolves once its output pipes are closed too. */
  closed: Promise<void>
  exit(): Exit | undefined
  stopWith(first: NodeJS.Signals): Promise<void>
}

function spawnGroup(options: Omit<StartOptions, 'listening'>, stdio: 'pipe' | number): Spawned {
  // Node's compile cache, where one is set, is kept underneath too: it changes no behaviour, only what
  // each start costs (scripts/test.ts).
  const env = options.cleanEnv
    ? { PATH: process.env.PATH, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE, ...options.env }
    : { ...process.env, ...options.env }
  // The child leads its own process group.
  const child = spawnGuarded(options.command, options.args, {
    cwd: options.cwd ?? repoRoot,
    env,
    stdio: ['ignore', stdio, stdio],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error(`${options.name}: could not be spawned`)
  track(pid)
  let ended: Exit | undefined
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = code ?? signal ?? 'SIGKILL'
      live.delete(pid)
      resolve(ended)
    })
  })
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  // Once only: a second kill of the group after it is gone could hit a reused process group id.
  let stopping: Promise<void> | undefined
  const stopWith = (first: NodeJS.Signals) => {
    stopping ??= (async () => {
      if (ended === undefined) {
        killGroup(pid, first)
        const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 5_000)
        await exited
        clearTimeout(timer)
      }
      // The leader may exit before the rest of its group: leave nothing behind.
      killGroup(pid, 'SIGKILL')
    })()
    return stopping
  }
  return { child, pid, exited, closed, exit: () => ended, stopWith }
}

/** Starts a long-running process and resolves once it prints its "listening" line. */
export async function startProcess(options: StartOptions): Promise<Started> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const spawnedAt = Date.now()
  const fd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a')
  let spawned: Spawned
  try {
    spawned = spawnGroup(options, fd ?? 'pipe')
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  const lines: string[] = []
  const output = () => lines.join('\n')
  const keep = (line: string) => {
    lines.push(line)
    if (lines.length > KEPT_LINES) lines.shift()
  }
  const lineSource =
    options.logFile === undefined
      ? pipedLines(spawned.child, keep)
      : fileLines(options.logFile, keep, spawned)

  let url: string | undefined
  let startMs = 0
  let timedOut = false
  // Killing it ends its output, and so the loop below.
  const timer = setTimeout(() => {
    timedOut = true
    void spawned.stopWith('SIGKILL')
  }, timeoutMs)
  for await (const line of lineSource) {
    const match = options.listening.exec(line)
    if (match?.[1]) {
      url = match[1]
      startMs = Math.max(0, listenedAt(line) - spawnedAt)
      break
    }
  }
  clearTimeout(timer)
  if (url === undefined) {
    await spawned.stopWith('SIGKILL')
    const why = timedOut ? `did not listen within ${timeoutMs} ms` : `exited (${spawned.exit()})`
    throw new Error(`${options.name} ${why} before listening. Output:\n${output()}`)
  }
  return {
    name: options.name,
    url,
    pid: spawned.pid,
    startMs,
    output,
    exited: spawned.exited,
    exit: spawned.exit,
    signal: (signal) => spawned.child.kill(signal),
    stop: () => spawned.stopWith('SIGTERM'),
    kill9: () => spawned.stopWith('SIGKILL'),
  }
}

/** Runs a process that must end by itself; resolves with how it ended and what it printed. */
export async function runToExit(
  options: Omit<StartOptions, 'listening'> & {
    timeoutMs: number
    /** Called with each chunk of output as it comes, e.g. to show it. */
    onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void
  },
): Promise<{ exit: Exit; output: string }> {
  const spawned = spawnGroup(options, 'pipe')
  let text = ''
  for (const stream of ['stdout', 'stderr'] as const) {
    spawned.child[stream]?.on('data', (chunk: Buffer) => {
      const piece = chunk.toString('utf8')
      text += piece
      options.onOutput?.(piece, stream)
    })
  }
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    void spawned.stopWith('SIGKILL')
  }, options.timeoutMs)
  const exit = await spawned.exited
  clearTimeout(timer)
  // Whatever it left running goes too; then its pipes are drained ('exit' can come before them).
  await spawned.stopWith('SIGKILL')
  await spawned.closed
  if (timedOut) throw new Error(`${options.name} still ran after ${options.timeoutMs} ms. Output:\n${text}`)
  return { exit, output: text.replace(ansi, '') }
}

// Lines from the child's pipes until it ends; they keep being read (and kept) after the caller stops.
async function* pipedLines(child: ChildProcess, keep: (line: string) => void): AsyncGenerator<string> {
  const queue: string[] = []
  let wake: (() => void) | undefined
  let ended = false
  let reading = true
  const onData = (chunk: Buffer) => {
    for (const raw of chunk.toString('utf8').split('\n')) {
      const line = raw.replace(ansi, '').trimEnd()
      if (!line) continue
      keep(line)
      if (reading) queue.push(line)
    }
    wake?.()
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  // 'close', not 'exit': the pipes may still hold output when the process has exited.
  child.once('close', () => {
    ended = true
    wake?.()
  })
  try {
    while (true) {
      const line = queue.shift()
      if (line !== undefined) {
        yield line
        continue
      }
      if (ended) return
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    }
  } finally {
    reading = false
    queue.length = 0
  }
}

// Lines appended to a log file, polled, until the process ends.
async function* fileLines(
  file: string,
  keep: (line: string) => void,
  spawned: Spawned,
): AsyncGenerator<string> {
  const log = await open(file, 'r')
  try {
    let partial = ''
    let position = 0
    const buffer = Buffer.alloc(64 * 1024)
    while (true) {
      const { bytesRead } = await log.read(buffer, 0, buffer.length, position)
      position += bytesRead
      // Only whole lines: a port read from half a line would be wrong.
      const lines = (partial + buffer.toString('utf8', 0, bytesRead)).split('\n')
      partial = lines.pop() ?? ''
      for (const raw of lines) {
        const line = raw.replace(ansi, '').trimEnd()
        if (!line) continue
        keep(line)
        yield line
      }
      if (bytesRead === 0) {
        if (spawned.exit() !== undefined) return
        await sleep(5)
      }
    }
  } finally {
    await log.close()
  }
}

// A pino line carries the time it was written; other processes' lines are timed as read.
function listenedAt(line: string): number {
  try {
    const time = (JSON.parse(line) as { time?: unknown }).time
    if (typeof time === 'number') return time
  } catch {
    // Not JSON.
  }
  return Date.now()
}
