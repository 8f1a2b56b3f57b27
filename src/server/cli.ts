#!/usr/bin/env node
// `plant-store-server`: the real server from an installed package. It is configured by environment
// variables as `npm start` is; the flags are shorthands for the ones a person sets most.
import { parseArgs } from 'node:util'

const usage = `Usage: plant-store-server [--sandbox [--seed FILE.har] [--max-principals N]] [--host HOST] [--port PORT]

Starts the Plant Store API server.

  --sandbox      any bearer token is accepted and owns example plants; the store is in memory
                 unless DATABASE_URL names one (not with NODE_ENV=production); a caller's
                 Sandbox-Webhook-Url header names where its token's newPlant events go
  --seed FILE    with --sandbox: each principal of this HAR recording starts with the plants it
                 had when the recording ended (SANDBOX_SEED); a caller sends the recording's
                 Authorization value (e.g. Bearer principal-1). Exchanges that departed from the
                 document are not imported, and are listed at start
  --max-principals N
                 with --sandbox: keep at most N tokens' stores (SANDBOX_MAX_PRINCIPALS; default
                 10000); past it the token used least recently is dropped, and its next
                 request starts afresh
  --host HOST    the address to listen on (HOST; default 127.0.0.1)
  --port PORT    the port to listen on (PORT; default 3000, 0 for any free port)
  -h, --help     this text

Everything else is set by environment variables: DATABASE_URL (sqlite:PATH, sqlite::memory: or
postgres://...), AUTH_TOKENS, JWT_SECRET or JWT_JWKS_URL, CORS_ORIGIN, LOG_LEVEL, NODE_ENV and more;
see the package's README.`

let values: {
  help?: boolean
  sandbox?: boolean
  seed?: string
  'max-principals'?: string
  host?: string
  port?: string
}
try {
  ;({ values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      sandbox: { type: 'boolean' },
      seed: { type: 'string' },
      'max-principals': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
    },
  }))
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`)
  process.exit(2)
}
if (values.help) {
  console.log(usage)
  process.exit(0)
}
if (values.sandbox) {
  process.env.SANDBOX = 'true'
  process.env.DATABASE_URL ??= 'sqlite::memory:'
}
if (values.seed !== undefined) process.env.SANDBOX_SEED = values.seed
if (values['max-principals'] !== undefined) process.env.SANDBOX_MAX_PRINCIPALS = values['max-principals']
if (values.host !== undefined) process.env.HOST = values.host
if (values.port !== undefined) process.env.PORT = values.port
// Loaded only now, so that --help needs neither the configuration nor the SQLite driver.
await import('./server.js')
