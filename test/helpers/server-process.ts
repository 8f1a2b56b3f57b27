// The real server as a process on a free loopback port, with nothing of this environment but PATH.
import { generousLimits, server } from '../../scripts/lib/commands.js'
import { type Exit, runToExit, type Started, startProcess } from '../../scripts/lib/processes.js'

export type ServerProcess = Started

export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  // The limits a fast machine would meet, and the overload guard a busy one would trip, answer 429 and
  // 503 whatever the server does: a test about them sets its own.
  return startProcess({
    ...server({ env: { ...generousLimits, ...env }, cleanEnv: true }),
    timeoutMs: 15_000,
  })
}

/** Runs the server expecting it to refuse to start; resolves with how it ended and what it printed. */
export async function refusedStart(env: Record<string, string>): Promise<{ exit: Exit; output: string }> {
  const result = await runToExit({ ...server({ env, cleanEnv: true }), timeoutMs: 15_000 })
  if (/Server listening at/.test(result.output)) throw new Error(`the server started:\n${result.output}`)
  return result
}
