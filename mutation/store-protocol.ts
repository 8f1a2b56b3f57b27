// The store's side of the runner's IPC: it switches the instrumented code's mutant and test id
// (globalThis.__stryker__, as Stryker's instrumenter reads them) on the runner's word, and hands back
// the coverage and hit count the instrumented code recorded.

/**
 * The store's settings: the two principals the runner's verifier is given, limits a verifier run
 * never reaches, and no overload guard (it would measure the machine's load, not the store).
 */
export const STORE_ENV = {
  DATABASE_URL: 'sqlite::memory:',
  AUTH_TOKENS: 'alice:token-a,bob:token-b',
  RATE_LIMIT_MAX: '100000000',
  AUTH_FAILURE_LIMIT: '100000000',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  OVERLOAD_MAX_HEAP_USED_BYTES: '0',
  OVERLOAD_MAX_RSS_BYTES: '0',
}

/**
 * The second store's, for the runner's `limits` and `stalled` tests: the same, with quotas a run spends
 * in a few requests and a window of 2 seconds, so that the verifier sees, and judges, its 429s and
 * waits little; and a headers timeout of 1 second, after which a stalled request gets its 408.
 */
export const LIMITED_STORE_ENV = {
  ...STORE_ENV,
  RATE_LIMIT_MAX: '20',
  AUTH_FAILURE_LIMIT: '20',
  RATE_LIMIT_WINDOW: '2',
  HEADERS_TIMEOUT_MS: '1000',
}

/** The argument a store script is started with to be the `limits` test's store. */
export const LIMITED = '--limited'

/** The settings of the store this process is: `LIMITED_STORE_ENV` when started with `LIMITED`. */
export const storeEnv = (): Record<string, string> =>
  process.argv.includes(LIMITED) ? LIMITED_STORE_ENV : STORE_ENV

/** What the runner asks of the store; each is answered with a `StoreReply`. */
export type StoreRequest =
  | {
      kind: 'arm'
      testId: string | undefined
      activeMutant: string | undefined
      hitLimit: number | undefined
    }
  | { kind: 'coverage' }
  /** A new app in place of the old, on a new port: no count, cache or plant of earlier runs. */
  | { kind: 'rebuild' }

export type StoreReply =
  | { kind: 'listening'; url: string; coreUrl: string }
  | { kind: 'armed' }
  | { kind: 'coverage'; coverage: unknown; hitCount: number | undefined }
  | { kind: 'failed'; message: string }

/** The instrumented code's global (Stryker's INSTRUMENTER_CONSTANTS), as far as the store touches it. */
export interface StrykerGlobal {
  activeMutant?: string
  currentTestId?: string
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> }
  hitCount?: number
  hitLimit?: number
}

/** The global the instrumented code reads, made if nothing made it yet. */
export function strykerGlobal(): StrykerGlobal {
  const g = globalThis as { __stryker__?: StrykerGlobal }
  g.__stryker__ ??= {}
  return g.__stryker__
}

function reply(message: StoreReply): void {
  process.send?.(message)
}

/** A store listening: its URL, where its `@plant-store/core` was loaded from, and how it closes. */
export interface Listening {
  url: string
  coreUrl: string
  close(): Promise<void>
}

/**
 * Serves the runner once `start` has the store listening: `start` resolves with its URL and where its
 * `@plant-store/core` was loaded from. A store that cannot start says why and exits; so does one that
 * cannot be rebuilt.
 */
export async function serveRunner(start: () => Promise<Listening>): Promise<void> {
  const stryker = strykerGlobal()
  let current: Listening | undefined
  const listening = (store: Listening): StoreReply => ({
    kind: 'listening',
    url: store.url,
    coreUrl: store.coreUrl,
  })
  process.on('message', (message: StoreRequest) => {
    if (message.kind === 'rebuild') {
      const old = current
      current = undefined
      ;(async () => {
        await old?.close()
        current = await start()
        reply(listening(current))
      })().catch((error: Error) => {
        reply({ kind: 'failed', message: error.stack ?? String(error) })
        process.exit(1)
      })
    } else if (message.kind === 'arm') {
      stryker.currentTestId = message.testId
      stryker.activeMutant = message.activeMutant
      stryker.hitLimit = message.hitLimit
      stryker.hitCount = message.hitLimit === undefined ? undefined : 0
      reply({ kind: 'armed' })
    } else {
      reply({ kind: 'coverage', coverage: stryker.mutantCoverage, hitCount: stryker.hitCount })
    }
  })
  // The runner going away (Stryker ends its process, or it crashes) ends the store too.
  process.on('disconnect', () => process.exit(0))
  try {
    current = await start()
    reply(listening(current))
  } catch (error) {
    reply({ kind: 'failed', message: (error as Error).stack ?? String(error) })
    process.exit(1)
  }
}
