// For measurement only: the built server (src/server/dist) without the layers its argument names
// (`serve-without.ts auth,store`, see server-without.ts), started and stopped as src/server/server.ts
// does it, so that the ledger (ledger.ts) can tell what each layer costs. Never for use.
import type * as Server from '../src/server/index.js'
import type * as GracefulClose from '../src/server/lib/graceful-close.js'
import type * as LogFormat from '../src/server/lib/log-format.js'
import { type Layer, layersWithout, optionsWithout } from './server-without.js'

// The build, as the ledger's full server runs it, typed by its sources: loaded by URL, so that the type
// check neither needs a build nor reads a stale one.
// Run from its bundle in bench/dist/ (starts.ts) or from this file through tsx.
const dist = new URL(
  import.meta.url.includes('/bench/dist/') ? '../../src/server/dist/' : '../src/server/dist/',
  import.meta.url,
)
const { buildApp, loadConfig }: typeof Server = await import(new URL('index.js', dist).href)
const { logDestination }: typeof LogFormat = await import(new URL('lib/log-format.js', dist).href)
const { closeGracefully }: typeof GracefulClose = await import(new URL('lib/graceful-close.js', dist).href)

let config: Server.Config
let layers: ReadonlySet<Layer>
try {
  layers = layersWithout(process.argv[2])
  config = loadConfig()
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}

const logStream = await logDestination(config.nodeEnv)
process.on('exit', () => logStream.flushSync())
const app = await buildApp(optionsWithout({ config, logStream }, layers))
console.error(`for measurement only, this server runs without ${[...layers].join(', ')}: never use it so`)

closeGracefully(app, logStream)

const address = await app.listen({ host: config.host, port: config.port })
// Fastify's logger says it otherwise, and the ledger waits for the line.
if (layers.has('logging')) console.log(`Server listening at ${address}`)
