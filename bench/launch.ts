// Starts what the benchmark loads: the real server (dist/, or another build, or the ledger's
// server-less-a-layer) as production runs it, and the other processes beside it; keeps them all to be
// stopped at the end, and each server's start time.
import { join, resolve } from 'node:path'
import * as commands from '../scripts/lib/commands.js'
import type { KeySet } from '../scripts/lib/key-set.js'
import { type Started, startProcess } from '../scripts/lib/processes.js'

export interface Principal {
  principal: string
  token: string
}

export interface LaunchOptions {
  /** Where the logs go (and, for the callers, the stores). */
  dir: string
  /** The identity provider the servers trust for JWTs. */
  keySet: KeySet
  principals: readonly Principal[]
  /** Where --cpu-prof profiles go, when asked for. */
  profileDir?: string
}

export type Launcher = ReturnType<typeof launcher>

export function launcher({ dir, keySet, principals, profileDir }: LaunchOptions) {
  const started: Started[] = []
  const serverStarts: { store: string; ms: number }[] = []
  let logCount = 0

  // The real server as production runs it: file storage, auth, info logging (to a file in `dir`).
  async function startServer(
    databaseUrl: string,
    store: string,
    profiled: boolean,
    /** What node runs in place of dist/server.js: another build, or the ledger's server-less-a-layer. */
    script?: string[],
    env: Record<string, string> = {},
  ): Promise<Started> {
    const profile = profiled && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
    const command = commands.server({
      name: `server (${store})`,
      built: true,
      env: {
        NODE_ENV: 'production',
        ...commands.generousLimits,
        DATABASE_URL: databaseUrl,
        AUTH_TOKENS: principals.map(({ principal, token }) => `${principal}:${token}`).join(','),
        ...keySet.env(),
        ...env,
      },
      logFile: join(dir, `server-${++logCount}.log`),
    })
    // Node's settings as `npm start` gives them, for every build and layer alike.
    const server = await startProcess({
      ...command,
      args: [...profile, ...commands.serverNodeFlags, ...(script ?? [commands.serverScript])],
    })
    serverStarts.push({ store, ms: server.startMs })
    started.push(server)
    return server
  }

  async function startOther(options: Parameters<typeof startProcess>[0]): Promise<Started> {
    const other = await startProcess({ ...options, logFile: join(dir, `${options.name}.log`) })
    started.push(other)
    return other
  }

  return {
    startServer,
    startOther,
    serverStarts,
    /** Stops every process started, whatever state the run ended in. */
    stopAll: () => Promise.allSettled(started.map((p) => p.stop())),
  }
}

/**
 * A candidate is named after the checkout it was built in (/work/try-x/src/server/dist/server.js →
 * try-x), or else the directory that holds its dist/ (/tmp/exp-nocors/dist/server.js → exp-nocors).
 */
export function candidateName(script: string, i: number): string {
  const path = resolve(script)
  return (
    /([^/]+)\/src\/server\/dist\/[^/]+$/.exec(path)?.[1] ??
    /([^/]+)\/dist\/[^/]+$/.exec(path)?.[1] ??
    `candidate ${i + 1}`
  )
}
