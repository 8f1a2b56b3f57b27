// Starts the plant store: reads the configuration, listens, and shuts down gracefully on SIGTERM/SIGINT.
// First: it must run before any import below loads the SQLite driver.
import './lib/supported-node.js'
import { buildApp } from './app.js'
import { DEV_TOKEN, loadConfig } from './config.js'
import { closeGracefully } from './lib/graceful-close.js'
import { logDestination } from './lib/log-format.js'
import { StoreStartError } from './repository/migrations.js'

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig()
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}

// JSON lines written once per event-loop turn, or readable lines on a terminal in development
// (lib/log-format.ts); whatever is left goes out at exit, however it comes.
const logStream = await logDestination(config.nodeEnv)
process.on('exit', () => logStream.flushSync())

let app: Awaited<ReturnType<typeof buildApp>>
try {
  app = await buildApp({ config, logStream })
} catch (error) {
  // A store that cannot be opened (out of reach, a schema newer than this release) is one line to act on.
  if (!(error instanceof StoreStartError)) throw error
  logStream.flushSync()
  console.error(error.message)
  process.exit(1)
}
if (config.jwt) {
  const { issuer, audience, jwksUrl } = config.jwt
  // The secret itself is never logged, only that there is one.
  const keys = jwksUrl ? `the key set at ${jwksUrl}` : 'a shared secret (JWT_SECRET)'
  app.log.info({ issuer, audience }, `accepting JSON Web Tokens signed with ${keys}`)
}
if (config.devPrincipal) {
  app.log.warn(`AUTH_TOKENS is not set: one development principal, token '${DEV_TOKEN}'`)
}

closeGracefully(app, logStream)

try {
  await app.listen({ host: config.host, port: config.port })
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
  // One line a person can act on, not a stack trace.
  const why = code === 'EADDRINUSE' ? 'is in use' : 'may not be used by this user'
  console.error(
    `port ${config.port} on ${config.host} ${why}: set PORT to another port (PORT=0 lets the system pick one)`,
  )
  await app.close()
  process.exit(1)
}
