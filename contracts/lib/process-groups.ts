// Process groups this process started and has not yet seen end: all killed if it exits or is
// interrupted without stopping them (a crash, Ctrl-C, vitest tearing its worker down).
const live = new Set<number>()
let guarded = false

/** Tracks a detached child (the leader of its own group) until untrack(); call before work starts. */
export function track(pgid: number): void {
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

export function untrack(pgid: number): void {
  live.delete(pgid)
}

export function killAllNow(): void {
  for (const pgid of live) killGroup(pgid, 'SIGKILL')
  live.clear()
}

export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // Already gone.
  }
}
