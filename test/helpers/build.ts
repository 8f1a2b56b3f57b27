// Builds the app for tests: in-memory store (a new PostgreSQL database when TEST_STORE=postgres), two
// principals, the document loaded once per file. The helper closes what it builds itself, so a failed
// assertion cannot leave an app open.
import { Writable } from 'node:stream'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { afterAll, inject, onTestFinished } from 'vitest'
import { generousLimits } from '../../scripts/lib/commands.js'
import { createDatabase } from '../../scripts/lib/postgres.js'
import { type LoadedSpec, loadSpec } from '../../scripts/lib/spec.js'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'

export const ALICE = { authorization: 'Bearer token-a' }
export const BOB = { authorization: 'Bearer token-b' }

let spec: Promise<LoadedSpec> | undefined
// Apps built outside a test (in beforeAll) live until the file's tests are done.
const fileScoped = new Set<FastifyInstance>()
afterAll(async () => {
  await Promise.all([...fileScoped].map((app) => app.close()))
})

export async function build(
  env: Record<string, string> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<FastifyInstance> {
  spec ??= loadSpec()
  const config = loadConfig({
    DATABASE_URL:
      process.env.TEST_STORE === 'postgres'
        ? await createDatabase(inject('postgresAdminUrl'))
        : 'sqlite::memory:',
    AUTH_TOKENS: 'alice:token-a,bob:token-b',
    // Tests send many requests as one principal and many bad tokens, and the overload guard would
    // measure the test machine's load: src/server/test/rate-limit.test.ts and
    // src/server/test/reliability.test.ts set their own.
    ...generousLimits,
    ...env,
  })
  const app = await buildApp({ config, logger, spec: await spec })
  try {
    // Inside a test or a beforeEach: closed when that test ends, pass or fail.
    onTestFinished(() => app.close())
  } catch {
    fileScoped.add(app)
  }
  return app
}

/** A log stream for a test app, at trace level, and what it has received so far. */
export function captureLogs(): { stream: Writable; logs: () => string } {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk
      done()
    },
  })
  return { stream, logs: () => text }
}
