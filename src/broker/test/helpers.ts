// The broker's tests' helpers: a broker on a fresh SQLite file or PostgreSQL database, the tokens, the
// two consumers' contracts (the kit's recorded Vite app and a label printer written for these tests),
// the kit's document and drafts of it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { JSON_SCHEMA, load } from 'js-yaml'
import { afterAll } from 'vitest'
import { buildBroker } from '../app.js'
import { type BrokerConfig, loadConfig } from '../config.js'
import { openDb } from '../store/db.js'

export const root = join(import.meta.dirname, '..', '..', '..')
export const WRITE = { authorization: 'Bearer write-secret' }
export const READ = { authorization: 'Bearer read-secret' }

export const appContract = readFileSync(
  join(root, 'contracts/consumers/plant-store-consumer-app.json'),
  'utf8',
)
export const printerContract = readFileSync(
  join(import.meta.dirname, 'fixtures/plant-store-label-printer.json'),
  'utf8',
)
export const APP = 'plant-store-consumer-app'
export const PRINTER = 'plant-store-label-printer'

// biome-ignore lint/suspicious/noExplicitAny: a test edits the document where it likes
type Doc = Record<string, any>
/** The kit's document as JSON, and a draft of it edited by `edit`. */
export function documentJson(edit: (doc: Doc) => void = () => {}): string {
  const doc = load(readFileSync(join(root, 'spec/openapi.yaml'), 'utf8'), { schema: JSON_SCHEMA }) as Doc
  edit(doc)
  return JSON.stringify(doc)
}
/** A draft no longer sending `tag`: it breaks the app, which reads it, and not the printer. */
export const withoutTag = (doc: Doc) => {
  delete doc.components.schemas.Plant.properties.tag
}

export const report = (passed: boolean) =>
  JSON.stringify({
    tool: 'plant-store-verify',
    baseUrl: 'http://127.0.0.1:3000',
    passed,
    verdict: passed ? 'every answer kept its promise' : '3 answers departed from the document',
    seed: 42,
    coverage: { met: true },
    promises: [],
  })

export type Store = 'sqlite' | 'postgres'

export function testConfig(databaseUrl: string, overrides: Partial<BrokerConfig> = {}): BrokerConfig {
  return {
    ...loadConfig({
      DATABASE_URL: databaseUrl,
      BROKER_WRITE_TOKEN: 'write-secret',
      BROKER_READ_TOKEN: 'read-secret',
      BROKER_CLEAN_UP: 'false',
    }),
    ...overrides,
  }
}

/** The folders sqliteUrl made in this test file, removed after its last test (hooks run last-first). */
const folders: string[] = []
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
/** A new SQLite file's path, in a folder of its own. */
export const sqliteUrl = () => {
  const folder = mkdtempSync(join(tmpdir(), 'broker-test-'))
  folders.push(folder)
  return join(folder, 'broker.db')
}

/** A broker on a new, empty store. */
export async function build(
  databaseUrl: string,
  overrides: Partial<BrokerConfig> = {},
  now?: () => Date,
): Promise<FastifyInstance> {
  const config = testConfig(databaseUrl, overrides)
  return buildBroker({ config, logger: false, db: await openDb(databaseUrl), ...(now ? { now } : {}) })
}

/** The injections a test makes, with the write token. */
export function client(app: FastifyInstance) {
  const send = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: string, headers = WRITE) =>
    app.inject({
      method,
      url,
      headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    })
  return {
    send,
    contract: (name: string, version: string, body: string, branch = 'main') =>
      send('PUT', `/applications/${name}/versions/${version}/contract?branch=${branch}`, body),
    document: (version: string, body: string, branch = 'main') =>
      send('PUT', `/applications/plant-store/versions/${version}/document?branch=${branch}`, body),
    verify: (version: string, passed = true) =>
      send('POST', `/applications/plant-store/versions/${version}/verifications`, report(passed)),
    environment: (name: string, production: boolean) =>
      send('PUT', `/environments/${name}`, JSON.stringify({ production })),
    deploy: (application: string, version: string, environment: string) =>
      send('POST', '/deployments', JSON.stringify({ application, version, environment })),
    release: (application: string, version: string, environment: string) =>
      send('POST', '/releases', JSON.stringify({ application, version, environment })),
    canIDeploy: (application: string, version: string, to: string) =>
      send('GET', `/can-i-deploy?application=${application}&version=${version}&to=${to}`, undefined, READ),
  }
}
