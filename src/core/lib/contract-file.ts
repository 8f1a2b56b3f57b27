// Writes a consumer contract to its file (PLANT_STORE_CONTRACT) from a test run, in Node alone: Node's
// modules are reached through process.getBuiltinModule, so that a page importing the handlers imports
// nothing of Node's. Several vitest workers of one run write the same file: each joins what it recorded
// into what the run's others wrote, under a lock; a new run starts the file afresh.
import {
  type ConsumerContract,
  joinContracts,
  parseContract,
  serializeContract,
} from './consumer-contract.js'

/** The file a contract is recorded to: PLANT_STORE_CONTRACT, where there is an environment (Node). */
export function contractFileTarget(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.PLANT_STORE_CONTRACT || undefined
}

function node() {
  const load = (globalThis as { process?: Partial<NodeJS.Process> }).process?.getBuiltinModule
  if (!load) throw new Error('a consumer contract is written to a file in Node alone (22.12 or later)')
  return {
    fs: load('node:fs'),
    path: load('node:path'),
    os: load('node:os'),
    threads: load('node:worker_threads'),
  }
}

/** The name in the package.json nearest the working directory: the consumer's name by default. */
export function packageName(): string | undefined {
  const { fs, path } = node()
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    try {
      const { name } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown
      }
      if (typeof name === 'string' && name !== '') return name
    } catch {
      // No package.json here, or one without a name: look further up.
    }
    if (path.dirname(dir) === dir) return undefined
  }
}

/**
 * This test run: the vitest process, which is the worker's own process for a thread and its parent for
 * a fork (outside vitest, this process), with its start time where the system tells it (Linux), so that
 * a later process given the same id is another run.
 */
function runOf(): string {
  const { fs, threads } = node()
  const inWorker = process.env.VITEST_POOL_ID !== undefined
  const owner = inWorker && threads.isMainThread ? process.ppid : process.pid
  let started = ''
  try {
    const stat = fs.readFileSync(`/proc/${owner}/stat`, 'utf8')
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? ''
  } catch {
    // Not Linux: the process id alone.
  }
  return started ? `${owner}@${started}` : String(owner)
}

/** FNV-1a: a short, stable name for a file's path. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h.toString(16).padStart(8, '0')
}

// A writer holds the lock for a few milliseconds; one that died holding it is taken over after this.
const STALE_MS = 10_000
const GIVE_UP_MS = 60_000

function withLock<T>(lock: string, work: () => T): T {
  const { fs } = node()
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const began = Date.now()
  for (;;) {
    try {
      fs.mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > STALE_MS)
          fs.rmSync(lock, { recursive: true, force: true })
      } catch {
        // Released meanwhile.
      }
      if (Date.now() - began > GIVE_UP_MS)
        throw new Error(
          `the consumer contract's lock ${lock} has been held for a minute: remove it if no test run is writing`,
        )
      Atomics.wait(pause, 0, 0, 5)
    }
  }
  try {
    return work()
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * Joins `contract` into `file`: into what this run's other workers wrote there, or, the first time in a
 * run, in place of what an earlier run left. Synchronous, so that nothing recorded waits on a worker's end.
 */
export function writeContractFile(file: string, contract: ConsumerContract): void {
  const { fs, path, os, threads } = node()
  const target = path.resolve(file)
  const state = path.join(os.tmpdir(), `plant-store-contract-${hash(target)}`)
  fs.mkdirSync(state, { recursive: true })
  const run = runOf()
  const read = (name: string) => {
    try {
      return fs.readFileSync(name, 'utf8')
    } catch {
      return undefined
    }
  }
  withLock(path.join(state, 'lock'), () => {
    const marker = path.join(state, 'run')
    const before = read(target)
    let joined = contract
    if (read(marker) === run) {
      if (before !== undefined) joined = joinContracts(parseContract(before, target), contract)
    } else fs.writeFileSync(marker, run)
    const text = serializeContract(joined)
    if (text === before) return
    fs.mkdirSync(path.dirname(target), { recursive: true })
    const temporary = `${target}.${process.pid}-${threads.threadId}.tmp`
    fs.writeFileSync(temporary, text)
    fs.renameSync(temporary, target)
  })
}
