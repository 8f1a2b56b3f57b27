// Starts the servers the suites talk to (the real server, Prism) on free loopback ports and stops
// them again, whole process groups, on success, failure and interruption alike.
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { repoRoot, specPath } from './document.js'
import { killGroup, track, untrack } from './process-groups.js'

export interface Started {
  name: string
  /** e.g. `http://127.0.0.1:43817`, read from the process's own "listening" line. */
  url: string
  pid: number
  /** The last lines the process printed, for failure messages. */
  output(): string
  stop(): Promise<void>
}

export interface StartOptions {
  name: string
  command: string
  args: string[]
  env?: Record<string, string | undefined>
  /** Matched against each output line (ANSI colours removed); group 1 is the base URL. */
  listening: RegExp
  timeoutMs?: number
}

const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

export function startProcess(options: StartOptions): Promise<Started> {
  const timeoutMs = options.timeoutMs ?? 30_000
  // detached: the child leads its own process group, so stop() reaches anything it spawns too.
  const child: ChildProcess = spawn(options.command, options.args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const pid = child.pid
  if (pid === undefined) return Promise.reject(new Error(`${options.name}: could not be spawned`))
  track(pid)

  // Keep only the tail: the real server logs a line per request.
  const lines: string[] = []
  const output = () => lines.join('\n')
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal }
      untrack(pid)
      resolve()
    })
  })

  const stop = async () => {
    if (exited) return
    killGroup(pid, 'SIGTERM')
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 5_000)
    await exitPromise
    clearTimeout(timer)
    // The leader may exit before the rest of its group: make sure nothing is left behind.
    killGroup(pid, 'SIGKILL')
  }

  return new Promise<Started>((resolve, reject) => {
    let done = false
    const finish = (error: Error | undefined, url?: string) => {
      if (done) return
      done = true
      clearTimeout(timer)
      if (error) {
        void stop().then(() => reject(error))
      } else if (url) {
        resolve({ name: options.name, url, pid, output, stop })
      }
    }
    const timer = setTimeout(
      () => finish(new Error(`${options.name} did not listen within ${timeoutMs} ms. Output:\n${output()}`)),
      timeoutMs,
    )
    const onData = (chunk: Buffer) => {
      for (const raw of chunk.toString('utf8').split('\n')) {
        const line = raw.replace(ansi, '').trimEnd()
        if (!line) continue
        lines.push(line)
        if (lines.length > 200) lines.shift()
        const match = options.listening.exec(line)
        if (match?.[1]) finish(undefined, match[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('error', (error) => finish(new Error(`${options.name}: ${error.message}`)))
    void exitPromise.then(() =>
      finish(
        new Error(
          `${options.name} exited (code ${exited?.code}, signal ${exited?.signal}) before listening. Output:\n${output()}`,
        ),
      ),
    )
  })
}

/** Runs a process that must exit by itself; resolves with its exit code and output, or rejects on time-out. */
export function runToExit(
  options: Omit<StartOptions, 'listening'> & { timeoutMs: number },
): Promise<{ code: number | null; output: string; listened: boolean }> {
  const child = spawn(options.command, options.args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const pid = child.pid
  if (pid === undefined) return Promise.reject(new Error(`${options.name}: could not be spawned`))
  track(pid)
  let text = ''
  child.stdout?.on('data', (c: Buffer) => {
    text += c.toString('utf8')
  })
  child.stderr?.on('data', (c: Buffer) => {
    text += c.toString('utf8')
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(pid, 'SIGKILL')
      reject(new Error(`${options.name} still ran after ${options.timeoutMs} ms. Output:\n${text}`))
    }, options.timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      untrack(pid)
      killGroup(pid, 'SIGKILL')
      resolve({ code, output: text, listened: /listening/i.test(text) })
    })
  })
}

// ---- The commands --------------------------------------------------------------------------------

const require = createRequire(import.meta.url)
export const prismCli = require.resolve('@stoplight/prism-cli/dist/index.js')

/**
 * The real server. `CONTRACT_SERVER_CMD` (e.g. `node dist/server.js`) overrides the default, which
 * runs the TypeScript sources through tsx so the suite always tests the code as it is, unbuilt.
 */
export function serverCommand(): { command: string; args: string[] } {
  const custom = process.env.CONTRACT_SERVER_CMD?.trim()
  if (custom) {
    const [command = 'node', ...args] = custom.split(/\s+/)
    return { command, args }
  }
  return { command: process.execPath, args: ['--import', 'tsx', 'src/server.ts'] }
}

/** Fastify logs `Server listening at http://127.0.0.1:PORT` as the msg of a pino JSON line. */
export const serverListening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/

export function startServer(name: string, env: Record<string, string | undefined>): Promise<Started> {
  const { command, args } = serverCommand()
  return startProcess({
    name,
    command,
    args,
    // LOG_LEVEL stays at info: the "listening" line is an info line.
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      ...env,
    },
    listening: serverListening,
  })
}

/** Prism prints `Prism is listening on http://127.0.0.1:PORT` once its routes are loaded. */
export const prismListening = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/

export function startPrism(name: string, args: string[]): Promise<Started> {
  return startProcess({
    name,
    command: process.execPath,
    args: [prismCli, ...args],
    listening: prismListening,
  })
}

export { specPath }
