// Starts src/server.ts as a real process on a free loopback port and waits, bounded, until it listens.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface ServerProcess {
  child: ChildProcess
  url: string
  output: () => string
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>
}

export function startServer(env: Record<string, string>, timeoutMs = 15_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal))
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not listen within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        resolve({ child, url, output: () => output, exited })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before listening:\n${output}`))
    })
  })
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and output. */
export async function refusedStart(
  env: Record<string, string>,
): Promise<{ code: number | string | null; output: string }> {
  try {
    const server = await startServer(env)
    server.child.kill('SIGKILL')
    throw new Error('server started although it should have refused')
  } catch (error) {
    const message = (error as Error).message
    const match = /server exited with (\S+) before listening:\n([\s\S]*)/.exec(message)
    if (!match) throw error
    return { code: match[1] === 'null' ? null : Number(match[1]), output: match[2] ?? '' }
  }
}
