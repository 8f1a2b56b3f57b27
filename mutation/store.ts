// The store under mutation: the kit's server built from the sources of the directory it is started in
// (Stryker's sandbox, instrumented), listening on 127.0.0.1, driven over IPC by the verifier runner.
// Run with `node --import tsx` in that directory: tsx maps `@plant-store/core` to the sandbox's
// instrumented core through its tsconfig.json, while the runner's verifier keeps the original one.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** What the runner asks of the store; each is answered with a `StoreReply`. */
export type StoreRequest =
  | {
      kind: 'arm'
      testId: string | undefined
      activeMutant: string | undefined
      hitLimit: number | undefined
    }
  | { kind: 'coverage' }

export type StoreReply =
  | { kind: 'listening'; url: string; coreUrl: string }
  | { kind: 'armed' }
  | { kind: 'coverage'; coverage: unknown; hitCount: number | undefined }
  | { kind: 'failed'; message: string }

/** The instrumented code's global (Stryker's INSTRUMENTER_CONSTANTS), as far as the store touches it. */
interface StrykerGlobal {
  activeMutant?: string
  currentTestId?: string
  mutantCoverage?: unknown
  hitCount?: number
  hitLimit?: number
}

const g = globalThis as { __stryker__?: StrykerGlobal }
g.__stryker__ ??= {}
const stryker = g.__stryker__

function reply(message: StoreReply): void {
  process.send?.(message)
}

process.on('message', (message: StoreRequest) => {
  if (message.kind === 'arm') {
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
  const root = process.cwd()
  const app = await import(pathToFileURL(join(root, 'src/server/app.ts')).href)
  const config = await import(pathToFileURL(join(root, 'src/server/config.ts')).href)
  // Where the store's core was loaded from: the runner checks it is the sandbox's, not the verifier's.
  const coreUrl = import.meta.resolve('@plant-store/core')
  const built = await app.buildApp({
    config: config.loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      AUTH_TOKENS: 'alice:token-a,bob:token-b',
      // Limits a run never reaches, and no overload guard: it would measure the machine's load.
      RATE_LIMIT_MAX: '100000000',
      AUTH_FAILURE_LIMIT: '100000000',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      OVERLOAD_MAX_HEAP_USED_BYTES: '0',
      OVERLOAD_MAX_RSS_BYTES: '0',
    }),
    logger: false,
  })
  const url: string = await built.listen({ host: '127.0.0.1', port: 0 })
  reply({ kind: 'listening', url, coreUrl })
} catch (error) {
  reply({ kind: 'failed', message: (error as Error).stack ?? String(error) })
  process.exit(1)
}
