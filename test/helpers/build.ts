// Builds the app for tests: in-memory store, two principals, the document loaded once per file.
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { type LoadedSpec, loadSpec } from '../../src/spec.js'

export const ALICE = { authorization: 'Bearer token-a' }
export const BOB = { authorization: 'Bearer token-b' }

let spec: Promise<LoadedSpec> | undefined

export async function build(
  env: Record<string, string> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<FastifyInstance> {
  spec ??= loadSpec()
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    AUTH_TOKENS: 'alice:token-a,bob:token-b',
    ...env,
  })
  return buildApp({ config, logger, spec: await spec })
}
