// The workflow of the broker's README, end to end through the plant-store-broker command against a
// listening broker, with two consumers: the kit's Vite app (its recorded contract) and a label printer
// library that uses other fields. A draft that stops sending `tag` is allowed while no running consumer
// reads it, and refused, naming the app, once the app is deployed.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCompat } from '../../../contracts/compat/test/compat-command.js'
import { build as buildStore } from '../../../test/helpers/build.js'
import {
  APP,
  appContract,
  build,
  documentJson,
  PRINTER,
  printerContract,
  report,
  root,
  sqliteUrl,
  withoutTag,
} from './helpers.js'

const run = promisify(execFile)
const bin = join(root, 'src/broker/bin/plant-store-broker.js')
const dir = mkdtempSync(join(tmpdir(), 'broker-workflow-'))
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text)
  return join(dir, name)
}

let app: FastifyInstance
let url: string
/** The store its verifier runs against: the kit's server, two principals. */
let storeUrl: string
beforeAll(async () => {
  app = await build(sqliteUrl())
  url = await app.listen({ host: '127.0.0.1', port: 0 })
  storeUrl = await (await buildStore()).listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The command's exit code and output. */
async function broker(...args: string[]): Promise<{ code: number; out: string }> {
  return command(bin, ...args, '--broker', url)
}

async function command(path: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [path, ...args], {
      env: { ...process.env, BROKER_TOKEN: 'write-secret', BROKER_URL: url },
      timeout: 30_000,
    })
    return { code: 0, out: stdout }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` }
  }
}

it('publishes, verifies, asks can-i-deploy, records deployments and judges drafts against what runs', async () => {
  const app1 = file('app.json', appContract)
  const printer = file('printer.json', printerContract)
  const spec = join(root, 'spec/openapi.yaml')
  const draft = file('draft.json', documentJson(withoutTag))
  const verified = file('report.json', report(true))

  expect((await broker('create-environment', 'production', '--production')).code).toBe(0)
  // 1. Each frontend's CI publishes its contract: the app from a feature branch, not yet deployed.
  expect(await broker('publish', printer, '--version', 'p1', '--branch', 'main')).toEqual({
    code: 0,
    out: `${PRINTER} p1: contract ${(await app.inject({ url: `/applications/${PRINTER}/versions/p1`, headers: { authorization: 'Bearer write-secret' } })).json().contract.slice(0, 12)} published\n`,
  })
  expect((await broker('publish', app1, '--version', 'a1', '--branch', 'feature')).code).toBe(0)

  // 2. The store's CI publishes its document; until its verification, its answer is unknown and says why.
  expect((await broker('publish-document', spec, '--version', 's1', '--branch', 'main')).code).toBe(0)
  const unknown = await broker(
    'can-i-deploy',
    '--application',
    'plant-store',
    '--version',
    's1',
    '--to',
    'production',
    '--retry-while-unknown',
    '1',
    '--retry-interval',
    '0',
  )
  expect(unknown.code).toBe(2)
  expect(unknown.out).toContain('plant-store s1 has no verification for its document')
  // The verifier publishes its own report (--publish), here its examples layer alone, to stay quick.
  const verify = await command(
    join(root, 'src/verify/bin/plant-store-verify.js'),
    ...[
      '--base-url',
      storeUrl,
      '--token',
      'token-a',
      '--token',
      'token-b',
      '--only',
      'examples',
      '--publish',
      's1',
    ],
  )
  expect(verify.code, verify.out).toBe(0)
  const s1 = (
    await app.inject({
      url: '/applications/plant-store/versions/s1',
      headers: { authorization: 'Bearer write-secret' },
    })
  ).json()
  expect(s1.verifications).toEqual([expect.objectContaining({ passed: true, baseUrl: storeUrl })])

  // 3. Each deploy step asks, then records.
  const store = await broker(
    'can-i-deploy',
    '--application',
    'plant-store',
    '--version',
    's1',
    '--to',
    'production',
    '--json',
  )
  expect(store.code).toBe(0)
  expect(JSON.parse(store.out).answer).toBe('yes')
  expect(
    (
      await broker(
        'record-deployment',
        '--application',
        'plant-store',
        '--version',
        's1',
        '--environment',
        'production',
      )
    ).code,
  ).toBe(0)
  expect(
    (await broker('can-i-deploy', '--application', PRINTER, '--version', 'p1', '--to', 'production')).code,
  ).toBe(0)
  expect(
    (
      await broker(
        'record-deployment',
        '--application',
        PRINTER,
        '--version',
        'p1',
        '--environment',
        'production',
      )
    ).code,
  ).toBe(0)

  // 4. A pull request that stops sending `tag`: no running consumer reads it, so it may merge.
  const allowed = await broker('check-document', draft)
  expect(allowed.code).toBe(0)
  expect(allowed.out).toContain('no running consumer breaks')

  // The app goes to production; now the same draft breaks it, and the printer still not.
  const appAnswer = await broker(
    'can-i-deploy',
    '--application',
    APP,
    '--version',
    'a1',
    '--to',
    'production',
  )
  expect(appAnswer).toMatchObject({ code: 0 })
  expect(appAnswer.out).toContain(`${APP} a1 | plant-store s1 | compatible | verified`)
  expect(
    (
      await broker(
        'record-deployment',
        '--application',
        APP,
        '--version',
        'a1',
        '--environment',
        'production',
      )
    ).code,
  ).toBe(0)
  const refused = await broker('check-document', draft)
  expect(refused.code).toBe(1)
  expect(refused.out).toContain(
    `the draft breaks ${APP} a1 (production): listPlants (GET /plants) response 200: [].tag`,
  )
  expect(refused.out).not.toContain(`the draft breaks ${PRINTER}`)
  // The gate asks the same of the broker: `npm run compat -- --broker URL`.
  process.env.BROKER_TOKEN = 'read-secret'
  const gate = await runCompat(dir, 'no-tag', JSON.parse(documentJson(withoutTag)), ['--broker', url])
  delete process.env.BROKER_TOKEN
  expect(gate.exit, gate.output).toBe(1)
  expect(gate.output).toContain(`The consumers that run, by the broker at ${url}: FAIL`)
  expect(gate.output).toContain(`the draft breaks ${APP} a1 (production)`)
  const json = JSON.parse((await broker('check-document', draft, '--json')).out)
  expect(
    json.consumers.map((c: { consumer: string; compatible: boolean }) => [c.consumer, c.compatible]),
  ).toEqual([
    [APP, false],
    [PRINTER, true],
  ])

  // A store version with that draft may not go to production: it breaks the app deployed there.
  expect((await broker('publish-document', draft, '--version', 's2', '--branch', 'feature')).code).toBe(0)
  expect((await broker('record-verification', verified, '--version', 's2')).code).toBe(0)
  const no = await broker(
    'can-i-deploy',
    '--application',
    'plant-store',
    '--version',
    's2',
    '--to',
    'production',
  )
  expect(no.code).toBe(1)
  expect(no.out).toContain(`${APP} a1 | plant-store s2 | INCOMPATIBLE | verified`)

  // Usage errors and refusals.
  expect((await broker('can-i-deploy', '--application', APP)).code).toBe(2)
  const unseen = await broker(
    'can-i-deploy',
    '--application',
    'kiosk',
    '--version',
    'k1',
    '--to',
    'production',
  )
  expect(unseen).toMatchObject({ code: 2 })
  expect(unseen.out).toContain('there is no application named kiosk: it has published nothing')
  expect((await broker('publish', spec, '--version', 'x', '--branch', 'main')).code).toBe(2)
  // About 25 starts of the command and one of the gate: a few seconds quiet, much more on a loaded machine.
}, 120_000)
