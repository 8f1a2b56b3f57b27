// The turn-end answers judged off loopback: the server, with them and without them, in a network
// namespace of its own, loaded by a client in another, the two joined by a veth pair on 10.200.0.0/30
// (a network that exists only inside this machine). Reads at 32 connections, and one request at a time
// on one connection, the two servers in alternating rounds; `--loopback` runs the same on 127.0.0.1.
// As root: `node --import tsx bench/off-loopback.ts [--loopback] [--rounds N] [--duration S]`.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import * as commands from '../scripts/lib/commands.js'
import { killAllNow, type Started, startProcess } from '../scripts/lib/processes.js'
import { resultsTable } from './report.js'
import { collectPages, getPlant, listPages } from './requests.js'
import { runScenario, type Scenario } from './scenarios.js'
import { buildBenchScripts, serveWithoutScript } from './starts.js'
import { fillStore } from './store.js'

const SERVER_NS = 'psb-server'
const CLIENT_NS = 'psb-client'
const SERVER_ADDRESS = '10.200.0.1'
const CLIENT_ADDRESS = '10.200.0.2'
const READER = { principal: 'alice', token: 'token-a' }
const STORE_SIZE = 1_000

const { values: args } = parseArgs({
  options: {
    inside: { type: 'boolean', default: false },
    loopback: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '2' },
  },
})
const rounds = Number(args.rounds)
const duration = Number(args.duration)
if (!(rounds >= 1 && rounds <= 50 && duration > 0 && duration <= 30)) {
  console.error('off-loopback: --rounds must be in 1..50 and --duration in (0, 30] seconds')
  process.exit(2)
}

const ip = (...argv: string[]) => {
  const run = spawnSync('ip', argv, { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`ip ${argv.join(' ')}: ${run.stderr.trim() || run.error?.message}`)
}

/** The two namespaces and the veth pair between them; nothing else is touched. */
function setUp(): void {
  const existing = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout
  for (const ns of [SERVER_NS, CLIENT_NS])
    if (new RegExp(`^${ns}\\b`, 'm').test(existing))
      throw new Error(
        `network namespace ${ns} exists already: remove it (ip netns del ${ns}) if it is a leftover`,
      )
  ip('netns', 'add', SERVER_NS)
  ip('netns', 'add', CLIENT_NS)
  ip('link', 'add', 'psb-s', 'netns', SERVER_NS, 'type', 'veth', 'peer', 'name', 'psb-c', 'netns', CLIENT_NS)
  ip('-n', SERVER_NS, 'addr', 'add', `${SERVER_ADDRESS}/30`, 'dev', 'psb-s')
  ip('-n', CLIENT_NS, 'addr', 'add', `${CLIENT_ADDRESS}/30`, 'dev', 'psb-c')
  for (const [ns, dev] of [
    [SERVER_NS, 'psb-s'],
    [CLIENT_NS, 'psb-c'],
    [SERVER_NS, 'lo'],
    [CLIENT_NS, 'lo'],
  ] as const)
    ip('-n', ns, 'link', 'set', dev, 'up')
}

/** Deleting the namespaces deletes the veth pair with them. */
function tearDown(): void {
  for (const ns of [CLIENT_NS, SERVER_NS]) spawnSync('ip', ['netns', 'del', ns])
}

if (!args.inside && !args.loopback) {
  if (process.getuid?.() !== 0) {
    console.error('off-loopback: run it as root (it makes two network namespaces), or with --loopback')
    process.exit(2)
  }
  await buildBenchScripts()
  try {
    setUp()
  } catch (error) {
    tearDown()
    console.error(`off-loopback: ${(error as Error).message}`)
    process.exit(1)
  }
  process.once('exit', tearDown)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))
  // The measuring half runs inside the client's namespace; it starts the servers inside the server's.
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      CLIENT_NS,
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--inside',
      '--rounds',
      String(rounds),
      '--duration',
      String(duration),
    ],
    { stdio: 'inherit' },
  )
  // Three scenarios, two servers, a second of warm-up each, and a minute to start and stop.
  const bound = setTimeout(() => child.kill('SIGKILL'), (3 * 2 * (rounds * duration + 1) + 60) * 1000)
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)))
  clearTimeout(bound)
  process.exit(code)
} else {
  if (args.loopback) await buildBenchScripts()
  await measure(args.loopback ? '127.0.0.1' : SERVER_ADDRESS, args.loopback ? undefined : SERVER_NS)
}

async function measure(host: string, ns: string | undefined): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'plant-off-loopback-'))
  const started: Started[] = []
  try {
    const start = async (name: string, script: string[]) => {
      const db = join(dir, `${name}.db`)
      await fillStore(db, READER.principal, STORE_SIZE)
      const command = commands.server({
        name,
        built: true,
        listen: { host, port: 0 },
        env: {
          NODE_ENV: 'production',
          ...commands.generousLimits,
          DATABASE_URL: `sqlite:${db}`,
          AUTH_TOKENS: `${READER.principal}:${READER.token}`,
        },
        logFile: join(dir, `${name}.log`),
      })
      const node = [command.command, ...commands.serverNodeFlags, ...script]
      const server = await startProcess({
        ...command,
        // `ip netns exec` execs node in place: the pid measured is the server's.
        ...(ns
          ? { command: 'ip', args: ['netns', 'exec', ns, ...node] }
          : { command: node[0] ?? '', args: node.slice(1) }),
      })
      started.push(server)
      return server
    }
    const withIt = await start('with the turn-end answers', [commands.serverScript])
    const withoutIt = await start('without them', [serveWithoutScript, 'turn-end'])
    const pages = await collectPages(withIt.url, READER.token)
    const pair = (requests: () => ReturnType<typeof getPlant>) => [
      { name: 'with the turn-end answers', process: withIt, requests },
      { name: 'without them', process: withoutIt, requests },
    ]
    const scenarios: [Scenario, number][] = [
      [{ name: 'getPlant, 32 connections', targets: pair(() => getPlant(READER.token, STORE_SIZE)) }, 32],
      [
        { name: 'listPlants limit 50, 32 connections', targets: pair(() => listPages(READER.token, pages)) },
        32,
      ],
      [
        { name: 'getPlant, one request at a time', targets: pair(() => getPlant(READER.token, STORE_SIZE)) },
        1,
      ],
    ]
    const rows = []
    for (const [scenario, connections] of scenarios)
      rows.push(
        ...(await runScenario(scenario, { rounds, duration, warmup: 1, connections, rate: undefined })),
      )
    console.log(
      `\nThe turn-end answers, ${ns ? `client in namespace ${CLIENT_NS} (${CLIENT_ADDRESS}), server in ${ns} (${host}), over a veth pair` : 'on loopback'}; ` +
        `${rounds} rounds of ${duration} s, alternating; "vs baseline" is without them against with them, round by round\n`,
    )
    console.log(resultsTable(rows).replaceAll('baseline', 'with them'))
  } finally {
    for (const server of started) await server.stop()
    killAllNow()
    await rm(dir, { recursive: true, force: true })
  }
}
