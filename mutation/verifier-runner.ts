// A Stryker test runner whose "tests" are the verifier's layers, and `limits`, the verifier's spent
// quotas against a second store whose limits a run reaches: each store is built once from the sandbox's
// instrumented sources (store.ts, in a child process), mutants are switched on at run time, and a
// mutant is killed when a verifier run against the mutated store fails.
// Loaded by Stryker with Node's own type stripping, never through tsx: the verifier and the
// `@plant-store/core` it judges with must be the original build, not the sandbox's mutated sources.
import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { isAbsolute, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { MutantCoverage, StrykerOptions } from '@stryker-mutator/api/core'
import type { Logger } from '@stryker-mutator/api/logging'
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin'
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestResult,
  type TestRunner,
  TestStatus,
} from '@stryker-mutator/api/test-runner'
import type { StoreReply, StoreRequest } from './store-protocol.js'

/** The verifier's layers, Stryker's tests here; `concurrency` last, as a run orders them. */
export const LAYERS = ['examples', 'generated', 'stateful', 'security', 'concurrency'] as const
export type Layer = (typeof LAYERS)[number]

/**
 * The runner's tests: each layer against the store, then two single cases against the second store
 * (LIMITED_STORE_ENV): `limits`, the security layer's spent quotas (its 429s, Retry-After and
 * RateLimit), and `stalled`, a request whose headers stop arriving (its 408, once the store's short
 * headers timeout is up).
 */
export const TESTS = [...LAYERS, 'limits', 'stalled'] as const
export type TestId = (typeof TESTS)[number]

/** The case the `limits` test runs: the verifier's security case that spends the quotas the store declares. */
export const LIMITS_CASE = 'listPlants · the rate limits, spent'

/** The case the `stalled` test runs: the examples layer's request that stops arriving, to one operation. */
export const STALLED_CASE = 'listPlants · requestTimeout'

/** The second store's headers timeout (LIMITED_STORE_ENV's HEADERS_TIMEOUT_MS, written again as LIMITED is). */
const STALLED_AFTER_MS = 1_000

/**
 * The argument that makes a store script the `limits` test's (store-protocol.ts's LIMITED, written
 * again: Node loads this file without tsx, and can import only types from another .ts file).
 */
const LIMITED = '--limited'

/** Which store a test runs against. */
type StoreName = 'main' | 'limited'
const storeOf = (test: TestId): StoreName => (test === 'limits' || test === 'stalled' ? 'limited' : 'main')

/** What a test asks of the verifier besides the kit's profile and the sizes. */
const selection = (test: TestId) =>
  test === 'limits'
    ? { only: ['security' as const], case: LIMITS_CASE }
    : test === 'stalled'
      ? { only: ['examples' as const], case: STALLED_CASE, headersTimeoutMs: STALLED_AFTER_MS }
      : { only: [test] }

/** The runner's own options, `verifier` in the Stryker configuration. */
export interface VerifierRunnerOptions {
  /** The store's script (store.ts by default), run with `node --import tsx` in the sandbox. */
  store?: string
  /**
   * Rebuild the store for a static mutant in a new child (true, the default), or say the runner cannot
   * (false): Stryker then starts a new runner process for each, which costs more (see the README).
   */
  reloadEnvironment?: boolean
  /** The directory Stryker mutates in (the working directory by default): the judge's core must be outside it. */
  sandbox?: string
  /** The verifier's sizes: small and fixed, so that every mutant meets the same requests. */
  requests?: number
  sequences?: number
  seed?: number
}

/** Validates `verifier` in the Stryker configuration, so that Stryker knows the option. */
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    verifier: {
      description: 'The verifier runner: its store script and the sizes of each verifier run.',
      type: 'object',
      properties: {
        store: { type: 'string' },
        sandbox: { type: 'string' },
        reloadEnvironment: { type: 'boolean' },
        requests: { type: 'integer', minimum: 0 },
        sequences: { type: 'integer', minimum: 0 },
        seed: { type: 'integer' },
      },
      additionalProperties: false,
    },
  },
}

const DEFAULTS = { requests: 60, sequences: 8, seed: 20261202 }

/** One verifier run's outcome: its failure text when it failed. */
export type Judge = (baseUrl: string, test: TestId, dry?: boolean) => Promise<string | undefined>

/** The original verifier, judging the store at `baseUrl` with the kit's profile and one layer (or `limits`). */
export function verifierJudge(sizes: { requests: number; sequences: number; seed: number }): Judge {
  return async (baseUrl, test, dry = false) => {
    const { verify } = await import('@plant-store/verify')
    const results = await verify({
      baseUrl,
      tokens: ['token-a', 'token-b'],
      profile: 'kit',
      ...selection(test),
      ...sizes,
    })
    // A limits test that judges no spent quota on the unmutated store (its case renamed, the store's
    // quotas too large) would pass every mutant: the dry run fails instead. A mutant is judged by the
    // verifier's findings alone.
    if (dry && test === 'limits' && !results.judged.some((j) => j.kinds.includes('rate limit spent')))
      return `the verifier's case ${LIMITS_CASE} judged no spent quota: the case or the limited store's quotas changed`
    if (dry && test === 'stalled' && !results.judged.some((j) => j.kinds.includes('derived: stalled')))
      return `the verifier's case ${STALLED_CASE} judged no stalled request: the case was renamed`
    if (!results.failed) return undefined
    const failures = results.distinctFailures().map((failure) => results.failureText(failure))
    const stopped = results.stopped.map((s) => `${s.layer} could not go on: ${s.reason}`)
    return [...stopped, ...failures].join('\n\n').slice(0, 4000) || results.verdict()
  }
}

/**
 * The verifier must judge with the original `@plant-store/core`: a mutant of core that changed the
 * judge's own reading of the document would be judged by itself. The store reports where its core
 * came from; the judge's must be another file, outside the sandbox. Says what is wrong, if anything.
 */
export function judgeProblem(judgeCore: string, storeCore: string, sandbox: string): string | undefined {
  if (judgeCore === storeCore) return `the verifier and the store load one @plant-store/core (${judgeCore})`
  const where = relative(sandbox, fileURLToPath(judgeCore))
  if (!where.startsWith('..') && !isAbsolute(where)) {
    return `the verifier's @plant-store/core (${judgeCore}) is in the sandbox ${sandbox}, where it may be mutated`
  }
  return undefined
}

/** Not a mutant's doing: the run itself is wrong, and stops. */
class JudgeNotOriginal extends Error {}

/** The store's child process and its reply stream. */
class Store {
  private readonly child: ChildProcess
  url: string
  /** Where the store's `@plant-store/core` was loaded from. */
  readonly coreUrl: string

  // Node strips types only: no parameter properties here or below.
  private constructor(child: ChildProcess, url: string, coreUrl: string) {
    this.child = child
    this.url = url
    this.coreUrl = coreUrl
  }

  static async start(script: string, activeMutant: string | undefined, args: string[]): Promise<Store> {
    // A static mutant is read when the module loads: the instrumented code takes it from this variable.
    const env = { ...process.env, __STRYKER_ACTIVE_MUTANT__: activeMutant }
    if (activeMutant === undefined) delete env.__STRYKER_ACTIVE_MUTANT__
    const child = fork(script, args, {
      execArgv: ['--import', 'tsx'],
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    // A send to a store that has just exited fails through its callback (ask); not as an uncaught event.
    child.on('error', () => {})
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000)
    })
    const reply = await new Promise<StoreReply>((resolve) => {
      child.once('message', (message: StoreReply) => resolve(message))
      child.once('exit', (code) =>
        resolve({ kind: 'failed', message: `the store exited (${code}) before it listened\n${stderr}` }),
      )
    })
    if (reply.kind !== 'listening') {
      child.kill()
      throw new Error(reply.kind === 'failed' ? reply.message : `unexpected first message: ${reply.kind}`)
    }
    return new Store(child, reply.url, reply.coreUrl)
  }

  /** Sends one request and waits for its reply; a store that is gone, or exits first, is an error. */
  ask(request: StoreRequest): Promise<StoreReply> {
    return new Promise((resolve, reject) => {
      if (!this.child.connected) return reject(new Error('the store exited'))
      const onExit = (code: number | null) => fail(new Error(`the store exited (${code})`))
      const onMessage = (message: StoreReply) => {
        this.child.off('exit', onExit)
        resolve(message)
      }
      const fail = (error: Error) => {
        this.child.off('exit', onExit)
        this.child.off('message', onMessage)
        reject(error)
      }
      this.child.once('exit', onExit)
      this.child.once('message', onMessage)
      this.child.send(request, (error) => error && fail(error))
    })
  }

  /** A new app in the same process, on a new port: nothing counted, cached or stored before. */
  async rebuild(): Promise<void> {
    const reply = await this.ask({ kind: 'rebuild' })
    if (reply.kind !== 'listening')
      throw new Error(reply.kind === 'failed' ? reply.message : `unexpected reply to rebuild: ${reply.kind}`)
    this.url = reply.url
  }

  /** `ask`, for what a store a mutant crashed need not answer: undefined then. */
  async tryAsk(request: StoreRequest): Promise<StoreReply | undefined> {
    return this.ask(request).catch(() => undefined)
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  async stop(): Promise<void> {
    if (!this.alive) return
    const exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.child.kill()
    await exited
  }
}

/** One of the runner's stores: its child, the static mutant it was loaded with, whether a run spoilt it. */
class Slot {
  store: Store | undefined
  /** The mutant the running store was loaded with (a static mutant), or undefined. */
  loadedWith: string | undefined
  /** The last run may have left the store in a state a correct store never reaches. */
  dirty = false
  /** A test has run on it since it started: its counts and caches are no longer a new store's. */
  used = false
}

export class VerifierTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options)
  /** Each store, started when a test first needs it. */
  private readonly stores: Record<StoreName, Slot> = { main: new Slot(), limited: new Slot() }
  private checked = false
  private readonly script: string
  private readonly sandbox: string
  private readonly reloads: boolean
  private readonly judge: Judge
  private readonly log: Pick<Logger, 'debug'>

  constructor(log: Pick<Logger, 'debug'>, options: StrykerOptions, judge?: Judge) {
    this.log = log
    const own = (options.verifier ?? {}) as VerifierRunnerOptions
    this.script = own.store ?? fileURLToPath(new URL('./store.ts', import.meta.url))
    this.sandbox = own.sandbox ?? process.cwd()
    this.reloads = own.reloadEnvironment ?? true
    const { requests, sequences, seed } = { ...DEFAULTS, ...own }
    this.judge = judge ?? verifierJudge({ requests, sequences, seed })
  }

  capabilities() {
    // A static mutant (module load, app build) needs the store rebuilt: a new child process does it.
    return { reloadEnvironment: this.reloads }
  }

  async init(): Promise<void> {
    // A store starts on the first run that needs it, with that run's static mutant if it has one: a
    // runner Stryker starts for one static mutant builds each store once.
  }

  private checkJudgeIsOriginal(store: Store): void {
    const judgeCore = pathToFileURL(createRequire(import.meta.url).resolve('@plant-store/core')).href
    const problem = judgeProblem(judgeCore, store.coreUrl, this.sandbox)
    if (problem) throw new JudgeNotOriginal(problem)
    this.log.debug(`store core: ${store.coreUrl}; verifier core: ${judgeCore}`)
  }

  private async restart(name: StoreName, activeMutant: string | undefined): Promise<Store> {
    const slot = this.stores[name]
    await slot.store?.stop()
    slot.store = undefined
    const store = await Store.start(this.script, activeMutant, name === 'limited' ? [LIMITED] : [])
    slot.store = store
    if (!this.checked) {
      this.checkJudgeIsOriginal(store)
      this.checked = true
    }
    slot.loadedWith = activeMutant
    slot.dirty = false
    slot.used = false
    return store
  }

  /** The store, as a correct store would be: without a static mutant, and not left by a killed one. */
  private async fresh(name: StoreName): Promise<Store> {
    const slot = this.stores[name]
    return slot.dirty || slot.loadedWith !== undefined || !slot.store?.alive
      ? this.restart(name, undefined)
      : slot.store
  }

  async dryRun(_options: DryRunOptions): Promise<DryRunResult> {
    const tests: TestResult[] = []
    for (const test of TESTS) {
      const result = await this.runTest(await this.fresh(storeOf(test)), test)
      this.stores[storeOf(test)].used = true
      if (result.status === TestStatus.Failed) this.stores[storeOf(test)].dirty = true
      tests.push(result)
    }
    // The static coverage is what each store's start reached, before any test: a fresh store's.
    const mutantCoverage: MutantCoverage = { static: {}, perTest: {} }
    for (const slot of Object.values(this.stores)) {
      if (!slot.store) continue
      await slot.store.ask({ kind: 'arm', testId: undefined, activeMutant: undefined, hitLimit: undefined })
      const reply = await slot.store.ask({ kind: 'coverage' })
      const coverage = reply.kind === 'coverage' ? (reply.coverage as MutantCoverage | undefined) : undefined
      Object.assign(mutantCoverage.static, coverage?.static)
      Object.assign(mutantCoverage.perTest, coverage?.perTest)
    }
    return { status: DryRunStatus.Complete, tests, mutantCoverage }
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const id = options.activeMutant.id
    const isStatic = options.reloadEnvironment || options.mutantActivation === 'static'
    const tests = (options.testFilter ?? TESTS).filter((t): t is TestId =>
      (TESTS as readonly string[]).includes(t),
    )
    const killedBy: string[] = []
    let failureMessage = ''
    let ran = 0
    const started = Date.now()
    let hitLimitReached: string | undefined
    const used = new Set<StoreName>()
    for (const test of tests) {
      const name = storeOf(test)
      let store: Store
      try {
        // A static mutant is on from each store's start; a runtime one is switched on as the test runs.
        store =
          isStatic && !used.has(name)
            ? await this.restart(name, id)
            : isStatic
              ? (this.stores[name].store as Store)
              : await this.fresh(name)
        // The limits test meets each quota from its first request: its store is rebuilt for each run,
        // which costs a fraction of a verifier run (the main store keeps its plants and counts).
        if (name === 'limited' && this.stores[name].used) await store.rebuild()
      } catch (error) {
        if (error instanceof JudgeNotOriginal) throw error
        // A mutant that stops the store from starting is shown by every answer the store would give.
        this.stores[name].dirty = true
        for (const other of used) this.stores[other].dirty = true
        return {
          status: MutantRunStatus.Killed,
          killedBy: [],
          failureMessage: (error as Error).message,
          nrOfTests: ran,
        }
      }
      used.add(name)
      this.stores[name].used = true
      const result = await this.runTest(store, test, id, options.hitLimit)
      ran++
      // Past its hit limit the instrumented code throws, which a layer would see as a 500: an endless
      // loop, not a kill.
      const hits = options.hitLimit === undefined ? undefined : await store.tryAsk({ kind: 'coverage' })
      if (hits?.kind === 'coverage' && (hits.hitCount ?? 0) > (options.hitLimit ?? 0)) {
        hitLimitReached = `hit limit reached (${hits.hitCount}/${options.hitLimit}) in ${test}`
        break
      }
      if (result.status === TestStatus.Failed) {
        killedBy.push(test)
        failureMessage ||= result.failureMessage
        if (!options.disableBail) break
      }
    }
    for (const name of used) {
      const slot = this.stores[name]
      await slot.store?.tryAsk({
        kind: 'arm',
        testId: undefined,
        activeMutant: undefined,
        hitLimit: undefined,
      })
      // A killed mutant may have left plants or state a correct store never has: the next run gets a fresh one.
      slot.dirty = killedBy.length > 0 || isStatic || hitLimitReached !== undefined
    }
    const duration = Date.now() - started
    if (hitLimitReached) return { status: MutantRunStatus.Timeout, reason: hitLimitReached, duration }
    if (killedBy.length)
      return { status: MutantRunStatus.Killed, killedBy, failureMessage, nrOfTests: ran, duration }
    return { status: MutantRunStatus.Survived, nrOfTests: ran, duration }
  }

  /** One test, with the store told that it runs (its coverage) and which mutant is on. */
  private async runTest(
    store: Store,
    test: TestId,
    activeMutant?: string,
    hitLimit?: number,
  ): Promise<TestResult> {
    const started = Date.now()
    const base = {
      id: test,
      name:
        test === 'limits'
          ? 'verifier, spent rate limits'
          : test === 'stalled'
            ? 'verifier, a stalled request'
            : `verifier layer ${test}`,
    }
    let failure: string | undefined
    try {
      await store.ask({ kind: 'arm', testId: test, activeMutant, hitLimit })
      failure = await this.judge(store.url, test, activeMutant === undefined)
    } catch (error) {
      failure = `the run could not finish: ${(error as Error).message}`
    }
    if (!store.alive) failure ??= 'the store exited'
    const timeSpentMs = Date.now() - started
    this.log.debug(
      `${test}${activeMutant ? ` with mutant ${activeMutant}` : ''}: ${failure ? 'failed' : 'passed'} in ${timeSpentMs} ms`,
    )
    return failure === undefined
      ? { ...base, status: TestStatus.Success, timeSpentMs }
      : { ...base, status: TestStatus.Failed, failureMessage: failure, timeSpentMs }
  }

  async dispose(): Promise<void> {
    for (const slot of Object.values(this.stores)) {
      await slot.store?.stop()
      slot.store = undefined
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'verifier', VerifierTestRunner)]
