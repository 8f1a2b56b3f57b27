// The command lines that start the real server, the sandbox, the Prism mock, the validating proxy and
// the in-process handlers served over HTTP, in one place: the launchers (`npm run mock`, …), the
// tests, the contract suite and the benchmark all start them from here, so what is tested is what
// developers run.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { repoRoot, type StartOptions } from './processes.js'
import { specPath } from './spec.js'

/** Fastify logs `Server listening at http://HOST:PORT` once it listens; the baseline prints the same. */
export const serverListening = /Server listening at (http:\/\/[^\s",]+)/
/** `npm run mock` and `plant-store-mock` print this once the front (before Prism) listens. */
export const mockListening = /Mock is listening on (http:\/\/[^\s",]+)/
/** Prism prints `Prism is listening on http://HOST:PORT` once its routes are loaded. */
export const prismListening = /Prism is listening on (http:\/\/[^\s",]+)/
/** `npm run proxy` and `plant-store-proxy` print this once the validating proxy listens. */
export const proxyListening = /Proxy is listening on (http:\/\/[^\s",]+)/

/**
 * The overload guard's thresholds off (0: not checked). What it would measure in a test or benchmark
 * run is the load of the machine running it (other suites, other processes), not the server's: a
 * 503 from it says nothing. A test of overload sets a threshold of its own.
 */
export const overloadUnchecked = {
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  OVERLOAD_MAX_HEAP_USED_BYTES: '0',
  OVERLOAD_MAX_RSS_BYTES: '0',
}

/**
 * Limits a test or benchmark run never reaches: the rate limiter still runs (its cost is measured),
 * but one principal sending thousands of requests, or many bad tokens, is what these runs do; and
 * the overload guard is off, as above.
 */
export const generousLimits = {
  RATE_LIMIT_MAX: '100000000',
  AUTH_FAILURE_LIMIT: '100000000',
  ...overloadUnchecked,
}

export interface Listen {
  host: string
  port: number
}

const loopback: Listen = { host: '127.0.0.1', port: 0 }

/** The built server, as the kit's launchers start it. */
export const serverScript = join(repoRoot, 'src', 'server', 'dist', 'server.js')

/**
 * Node's settings the server runs with, as `npm start` gives them. V8's young generation capped at
 * 16 MB: under load V8 grows it to 64 MB (Node 24), which held most of the difference between the
 * server's resident memory and bare Fastify's; with 16 MB the server peaked 10 to 20 MB lower than
 * with 32 MB, its collector running more often (bench/README.md). Bare Fastify's young generation
 * stays at 8 MB, so it gains nothing. Optimizing compilations run on the main thread: on V8's
 * compiler thread each took its memory from that thread's own allocator arena, which kept it, and the
 * server peaked about 20 MiB higher under load while spending no less CPU a request
 * (bench/README.md). Node refuses the second flag in NODE_OPTIONS: both go on node's command line.
 */
export const serverNodeFlags = ['--max-semi-space-size=8', '--no-concurrent-recompilation']

/**
 * The real server as `npm start` and production run it: the built `src/server/dist/server.js`. Test runs
 * build the packages first (test/helpers/build-global-setup.ts), so it is the code as it is.
 * `CONTRACT_SERVER_CMD` (another build, another implementation) takes its place, unless `kit` asks
 * for the kit's own.
 */
export function serverCommand(kit = false): { command: string; args: string[] } {
  const custom = process.env.CONTRACT_SERVER_CMD?.trim()
  if (custom && !kit) {
    const [command = 'node', ...args] = custom.split(/\s+/)
    return { command, args }
  }
  return {
    command: process.execPath,
    args: [...serverNodeFlags, serverScript],
  }
}

export interface ServerOptions {
  name?: string
  listen?: Listen
  /** The server's environment on top of a loopback address, a free port and an in-memory store. */
  env?: Record<string, string | undefined>
  /** The kit's own server, whatever CONTRACT_SERVER_CMD names. */
  built?: boolean
  logFile?: string
  /** The environment holds PATH and these alone, nothing inherited. */
  cleanEnv?: boolean
}

export function server(options: ServerOptions = {}) {
  const { name = 'real server', listen = loopback, env = {}, built, logFile, cleanEnv } = options
  return {
    name,
    ...serverCommand(built),
    env: {
      HOST: listen.host,
      PORT: String(listen.port),
      DATABASE_URL: 'sqlite::memory:',
      // The "listening" line is an info line.
      LOG_LEVEL: 'info',
      ...env,
    },
    cleanEnv,
    logFile,
    listening: serverListening,
  } satisfies StartOptions
}

/** The sandbox is the real server with SANDBOX=true and a store in memory. */
export function sandbox(options: ServerOptions = {}) {
  return server({
    name: 'sandbox',
    ...options,
    env: { SANDBOX: 'true', DATABASE_URL: 'sqlite::memory:', ...options.env },
  })
}

/** The in-process handlers (src/msw/) served over HTTP by scripts/serve-handlers.ts. */
export const handlersListening = /Plant store handlers \(\w+\) listening at (http:\/\/[^\s",]+)/

export function handlers(mode: 'stateful' | 'examples', { port = 0 }: Partial<Listen> = {}) {
  return {
    name: `handlers (${mode})`,
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'scripts', 'serve-handlers.ts'), mode, String(port)],
    env: {},
    listening: handlersListening,
  } satisfies StartOptions
}

const require = createRequire(import.meta.url)
export const prismCli = require.resolve('@stoplight/prism-cli/dist/index.js')

export interface PrismOptions {
  listen?: Listen
  /** The document Prism serves: spec/openapi.yaml unless a draft is being tried. */
  spec?: string
  logFile?: string
}

/**
 * The `plant-store-mock` command (`--dynamic` with `dynamic`), built, as users run it and as
 * `npm run mock` runs it (scripts/launch.ts): Prism behind the front that judges requests as the real
 * server does (src/mock/mock-front.ts).
 */
export function mock({ listen = loopback, spec = specPath, logFile }: PrismOptions = {}, dynamic = false) {
  return {
    name: dynamic ? 'mock (dynamic)' : 'mock',
    command: process.execPath,
    args: [
      join(repoRoot, 'src', 'mock', 'bin', 'plant-store-mock.js'),
      ...(dynamic ? ['--dynamic'] : []),
      ...['--host', listen.host, '--port', String(listen.port), '--spec', spec],
    ],
    env: {},
    logFile,
    listening: mockListening,
  } satisfies StartOptions
}

/** `prism mock` alone, the document's examples (or data generated from its schemas with `dynamic`): the mock's inside. */
export function prismMock(
  { listen = loopback, spec = specPath, logFile }: PrismOptions = {},
  dynamic = false,
) {
  return prism('Prism mock', logFile, ['mock', spec, ...address(listen), ...(dynamic ? ['--dynamic'] : [])])
}

export interface ProxyOptions {
  listen?: Listen
  /** The document the proxy judges answers by: spec/openapi.yaml unless a draft is being tried. */
  spec?: string
  logFile?: string
  /** Also record the traffic to this HAR file (`npm run proxy -- --record FILE`). */
  record?: string
}

/**
 * The kit's validating proxy (src/verify/proxy/proxy.ts) in front of a real server: the built
 * `plant-store-proxy` command, as users run it and as `npm run proxy` runs it (scripts/launch.ts). It
 * forwards every request and answer byte for byte and reports where an answer departs from the
 * document, without changing it.
 */
export function proxy(
  upstream: string,
  { listen = loopback, spec = specPath, logFile, record }: ProxyOptions = {},
) {
  return {
    name: 'validating proxy',
    command: process.execPath,
    args: [
      join(repoRoot, 'src', 'verify', 'bin', 'plant-store-proxy.js'),
      ...['--upstream', upstream, '--spec', spec, '--host', listen.host, '--port', String(listen.port)],
      ...(record ? ['--record', record] : []),
    ],
    env: {},
    logFile,
    listening: proxyListening,
  } satisfies StartOptions
}

// -m false: one process, so its pid is the one to stop and measure, with no cluster bookkeeping.
const address = ({ host, port }: Listen) => [
  '--host',
  host,
  '--port',
  String(port),
  '--multiprocess',
  'false',
]

function prism(name: string, logFile: string | undefined, args: string[]) {
  return {
    name,
    command: process.execPath,
    args: [prismCli, ...args],
    env: {},
    logFile,
    listening: prismListening,
  } satisfies StartOptions
}
