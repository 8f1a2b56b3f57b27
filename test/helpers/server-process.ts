// The real server as a process on a free loopback port, with nothing of this environment but PATH.
import { overloadUnchecked, server } from '../../scripts/lib/commands.js'
import { type Exit, runToExit, type Started, startProcess } from '../../scripts/lib/processes.js'

export type ServerProcess = Started

export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  // The guard would answer 503 when the machine running the tests is busy, whatever the server does.
  return startProcess({
    ...server({ env: { ...overloadUnchecked, ...env }, cleanEnv: true }),
    timeoutMs: 15_000,
  })
}

/** Runs the server expecting it to refuse to start; resolves with how it ended and what it printed. */
export async function refusedStart(env: Record<string, string>): Promise<{ exit: Exit; output: string }> {
  const result = await runToExit({ ...server({ env, cleanEnv: true }), timeoutMs: 15_000 })
  if (/Server listening at/.test(result.output)) throw new Error(`the server started:\n${result.output}`)
  return result
}
