// `plant-store-verify` as a team runs it in CI: its exit status (0 agreed, 1 departed, 2 a usage error
// or no server), its options and environment, its reports, a replay command that reproduces the
// failure it is printed with, and a run against a server whose principals already own plants, which
// leaves those plants as they were and nothing of its own behind. (Its reports' contents, coverage and
// CI output: verify-cli-reports.test.ts.)
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { loadPromises, verify } from '@plant-store/verify'
import { describe, expect, it } from 'vitest'
import { repoRoot, runToExit, startProcess } from '../../../scripts/lib/processes.js'
import { promiseCoverage } from '../promises/coverage.js'
import { cli, commandTests } from './command.js'

const { store, run, work } = commandTests()

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const small = ['--requests', '150', '--sequences', '15', '--seed', '7']

describe('plant-store-verify', () => {
  it('prints the interface a store keeps, or with --profile kit the whole document', async () => {
    const plain = await run(['--print-document'])
    expect(plain.exit).toBe(0)
    const view = JSON.parse(plain.output) as { paths: Record<string, unknown>; info: Record<string, unknown> }
    expect(Object.keys(view.paths).sort()).toEqual(['/plants', '/plants/{id}'])
    expect(view.info['x-kit-profile']).toBeUndefined()
    const whole = await run(['--print-document', '--profile', 'kit'])
    expect(Object.keys((JSON.parse(whole.output) as { paths: object }).paths)).toContain('/healthz')
    // Two runs of the command through tsx: on a busy two-core machine each takes several seconds.
  }, 120_000)

  it('lists every option and check in --help, and exits 0', async () => {
    const { exit, output } = await run(['--help'])
    expect(exit).toBe(0)
    const source = await readFile(join(repoRoot, 'src/verify/cli.ts'), 'utf8')
    const options = [...source.matchAll(/^ {6}'?([a-z-]+)'?: \{ type:/gm)].map((m) => m[1])
    expect(options.length).toBeGreaterThan(15)
    for (const option of options) expect(output).toContain(`--${option}`)
    for (const check of ['status_code_conformance', 'create_read_back', 'principal_isolation'])
      expect(output).toContain(check)
  })

  it('exits 2 with one line for a usage error and for a server that cannot be reached', async () => {
    const base = ['--base-url', 'http://127.0.0.1:9', '--token', 'a', '--token', 'b']
    const port = await closedPort()
    // Each run a Node process of its own, all at once (each mostly waits on its start): a busy machine
    // may take a while.
    const [oneToken, unknown, noSecret, noReceiver, badPort, nothing] = await Promise.all([
      run(['--base-url', 'http://127.0.0.1:9', '--token', 'a']),
      run([...base, '--only', 'everything']),
      run([...base, '--webhook-listen', '0']),
      run([...base, '--webhook-secret', 'whsec_AAAA']),
      run([...base, '--webhook-listen', '70000', '--webhook-secret', 'whsec_AAAA']),
      run(['--base-url', `http://127.0.0.1:${port}`, '--token', 'a', '--token', 'b']),
    ])
    expect(oneToken.exit).toBe(2)
    expect(oneToken.output.trim().split('\n')).toHaveLength(1)
    expect(oneToken.output).toMatch(/two tokens/)
    expect(unknown.exit).toBe(2)
    expect(unknown.output).toMatch(/unknown layer everything/)
    expect([noSecret.exit, noSecret.output]).toEqual([2, expect.stringMatching(/needs the secret/)])
    expect([noReceiver.exit, noReceiver.output]).toEqual([
      2,
      expect.stringMatching(/go with --webhook-listen/),
    ])
    expect([badPort.exit, badPort.output]).toEqual([
      2,
      expect.stringMatching(/--webhook-listen must be a port number \(0-65535\), not "70000"/),
    ])
    expect(nothing.exit).toBe(2)
    expect(nothing.output.trim().split('\n')).toHaveLength(1)
    expect(nothing.output).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)
  }, 90_000)

  it('exits 0 against a correct server, taking VERIFY_BASE_URL and VERIFY_TOKENS, and writes its reports', async () => {
    const server = await store()
    const junit = join(work(), 'verify.junit.xml')
    const report = join(work(), 'verify.md')
    const { exit, output } = await run([...small, '--junit', junit, '--report', report], {
      VERIFY_BASE_URL: server.url,
      VERIFY_TOKENS: 'token-alice,token-bob',
    })
    expect(exit, output).toBe(0)
    expect(output).toMatch(/Every answer agreed with the document: \d+ requests/)
    // What the pass leaves out, counted from the document's promises: its webhook's, and the kit profile's.
    const promises = await loadPromises()
    const webhook = promises.filter((p) => /^(webhooks|newPlant)\./.test(p.id)).length
    const ids = new Set(promises.map((p) => p.id))
    const kit = await loadPromises(undefined, 'kit')
    const profileOnly = promiseCoverage(
      kit.filter((p) => !ids.has(p.id)),
      [],
    ).filter((p) => !p.untestable).length
    expect(webhook).toBeGreaterThan(10)
    expect(output).toContain(
      `Not judged: the newPlant webhook (${webhook} promises): --webhook-listen; the kit profile (${profileOnly} promises): --profile kit.`,
    )
    expect(await readFile(junit, 'utf8')).toMatch(
      /<testsuites name="plant-store-verify" tests="\d+" failures="0"/,
    )
    expect(await readFile(report, 'utf8')).toContain('| listPlants | link_conformance |')
    expect(await readFile(report, 'utf8')).toContain('Not judged: the newPlant webhook (')
  })

  it('exits 1 against a server with a bug, and each printed replay command reproduces its failure', async () => {
    const server = await store('tag-filter-ignored')
    const { exit, output } = await run([...small], {
      VERIFY_BASE_URL: server.url,
      VERIFY_TOKENS: 'token-alice,token-bob',
    })
    expect(exit, output).toBe(1)
    expect(output).toMatch(/✗ store_conformance — listPlants/)
    // A failing run's verdict is enough said.
    expect(output).not.toContain('Not judged:')
    const replays = [...output.matchAll(/^ {2}replay: {3}plant-store-verify (.+)$/gm)].map(
      (m) => m[1] as string,
    )
    expect(replays.length).toBeGreaterThan(0)
    // The first replay of each layer: run as the shell would, with the tokens from the environment.
    const byLayer = new Map(replays.map((r) => [/--only (\w+)/.exec(r)?.[1], r]))
    for (const replay of byLayer.values()) {
      const again = await runToExit({
        name: 'replay',
        command: 'sh',
        args: ['-c', `"${process.execPath}" ${cli.map((a) => `"${a}"`).join(' ')} ${replay}`],
        env: { VERIFY_TOKENS: 'token-alice,token-bob' },
        timeoutMs: 240_000,
      })
      expect(again.exit, `${replay}\n${again.output}`).toBe(1)
      expect(again.output).toContain('listPlants')
    }
    // A run and one replay per layer that failed (examples, generated, stateful), each a Node process.
  }, 120_000)

  it('takes a negative seed after a space, and prints a replay with one that runs as printed', async () => {
    const server = await store('tag-filter-ignored')
    const env = { VERIFY_BASE_URL: server.url, VERIFY_TOKENS: 'token-alice,token-bob' }
    const first = await run(['--only', 'generated', '--requests', '20', '--seed', '-570059388'], env)
    expect(first.exit, first.output).toBe(1)
    const replay = /^ {2}replay: {3}plant-store-verify (.+)$/m.exec(first.output)?.[1] ?? ''
    expect(replay).toContain('--seed=-570059388')
    const again = await shell(replay)
    expect(again.exit, `${replay}\n${again.output}`).toBe(1)
    expect(again.output).not.toMatch(/ambiguous/)
    expect(again.output).toContain('(seed -570059388)')
  }, 120_000)

  it('with --wait, waits for a server that starts after it', async () => {
    const port = await closedPort()
    const verified = run(['--base-url', `http://127.0.0.1:${port}`, '--only', 'examples', '--wait', '60'], {
      VERIFY_TOKENS: 'token-alice,token-bob',
    })
    // Started once the command has surely found nothing listening.
    await sleep(1500)
    const server = await startProcess({
      name: 'independent store, started late',
      command: process.execPath,
      args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
      env: { PORT: String(port), TOKENS: 'alice=token-alice,bob=token-bob' },
      listening: /listening on (http:\/\/\S+)/,
    })
    try {
      const { exit, output } = await verified
      expect(exit, output).toBe(0)
      expect(output).toMatch(/Every answer agreed with the document/)
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('replays one security case by the name the report gives it', async () => {
    const server = await store('other-principal-readable')
    const env = { VERIFY_BASE_URL: server.url, VERIFY_TOKENS: 'token-alice,token-bob' }
    const whole = await run(['--only', 'security'], env)
    expect(whole.exit, whole.output).toBe(1)
    const failure =
      /^✗ principal_isolation — getPlant \(security: (.+)\)[^\n]*\n(?:.*\n)*? {2}replay: {3}plant-store-verify (.+)$/m.exec(
        whole.output,
      )
    const [, title = '', replay = ''] = failure ?? []
    expect(title).toBe("the other principal's plant (GET as the second principal)")
    expect(replay).toContain(
      String.raw`--only security --case 'getPlant · the other principal'\''s plant (GET as the second principal)'`,
    )
    const again = await shell(replay)
    expect(again.exit, `${replay}\n${again.output}`).toBe(1)
    // That case alone: every failure it shows is the case's, and it sends a fraction of the layer's requests.
    const titles = [...again.output.matchAll(/^✗ \S+ — \S+ \(security: (.+)\)/gm)].map((m) => m[1])
    expect(titles.length).toBeGreaterThan(0)
    expect(new Set(titles)).toEqual(new Set([title]))
    const requests = (output: string) => Number(/: (\d+) requests in/.exec(output)?.[1])
    expect(requests(again.output)).toBeLessThan(requests(whole.output) / 4)
  }, 120_000)
})

/** A printed replay run as the shell would, with the tokens from the environment. */
function shell(replay: string) {
  return runToExit({
    name: 'replay',
    command: 'sh',
    args: ['-c', `"${process.execPath}" ${cli.map((a) => `"${a}"`).join(' ')} ${replay}`],
    env: { VERIFY_TOKENS: 'token-alice,token-bob' },
    timeoutMs: 240_000,
  })
}

describe('a server whose principals already own plants', () => {
  const plant = (id: string, name: string) => ({
    method: 'POST',
    headers: { authorization: 'Bearer token-alice', 'content-type': 'application/json' },
    body: `{"id":${id},"name":"${name}"}`,
  })
  const list = async (url: string, token: string) =>
    (await fetch(`${url}/plants?limit=100`, { headers: { authorization: `Bearer ${token}` } })).text()

  it('keeps them as they were, read-only or not, and leaves nothing of its own', async () => {
    const server = await store()
    for (const [id, name] of [
      ['1', 'Basil'],
      ['2', 'Fern'],
      ['9007199254740993', 'Big'],
    ])
      expect((await fetch(`${server.url}/plants`, plant(id as string, name as string))).status).toBe(200)
    const before = [await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]

    const readOnly = await verify({
      baseUrl: server.url,
      tokens: ['token-alice', 'token-bob'],
      readOnly: true,
      requests: 200,
      seed: 3,
    })
    expect(readOnly.failures.map((f) => readOnly.failureText(f))).toEqual([])
    expect([await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]).toEqual(before)

    const full = await verify({
      baseUrl: server.url,
      tokens: ['token-alice', 'token-bob'],
      requests: 300,
      sequences: 30,
      seed: 4,
    })
    expect(full.failures.map((f) => full.failureText(f))).toEqual([])
    expect(full.notes.join('\n')).toMatch(/owned 3 and 0 plants before the run/)
    expect([await list(server.url, 'token-alice'), await list(server.url, 'token-bob')]).toEqual(before)
  }, 240_000)
})
