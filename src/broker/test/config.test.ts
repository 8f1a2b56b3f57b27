// The broker's configuration from its environment: the defaults, and a clear refusal of a bad value.
import { expect, it } from 'vitest'
import { loadConfig } from '../config.js'

it('defaults to a SQLite file, the development token, closed reads and clean-up on', () => {
  expect(loadConfig({})).toMatchObject({
    databaseUrl: './data/broker.db',
    writeToken: 'dev-token',
    devToken: true,
    openReads: false,
    cleanUp: true,
    keepDays: 90,
    mainBranches: ['main', 'master'],
    port: 9292,
  })
})

it.each([
  [{ NODE_ENV: 'production' }, 'BROKER_WRITE_TOKEN must be set when NODE_ENV=production'],
  [{ BROKER_OPEN_READS: 'yes' }, 'BROKER_OPEN_READS must be true or false, not "yes"'],
  [{ BROKER_KEEP_DAYS: '-3' }, 'BROKER_KEEP_DAYS must be a whole number, not "-3"'],
  [{ BROKER_NOTIFY_URL: 'ftp://x' }, 'BROKER_NOTIFY_URL must be an http or https URL, not "ftp://x"'],
])('refuses %j: %s', (env, message) => {
  expect(() => loadConfig(env)).toThrow(message)
})
