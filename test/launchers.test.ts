// `npm run mock`, `npm run proxy` and `npm run sandbox` as a person runs them: SIGTERM or SIGINT to the
// npm process stops everything it started, and the port is free afterwards; a launcher whose parent
// goes away stops too, and says why on its last line. And every command of the kit, the packages'
// included, tells an option it does not know in one line, with its usage, and exits 2.
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mockListening, proxyListening, serverListening } from '../scripts/lib/commands.js'
import { followLinks } from '../scripts/lib/paging.js'
import { PARENT_GONE, runToExit, startProcess } from '../scripts/lib/processes.js'

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })

/** Whether any process of the group is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether the process runs: not ended, and not a zombie left for its new parent to reap. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return true
  }
}

describe('the launchers', () => {
  it.each([
    ['mock', { MOCK_PORT: '0' }, mockListening, 'SIGTERM'],
    ['proxy', { PROXY_PORT: '0' }, proxyListening, 'SIGINT'],
    ['sandbox', { PORT: '0' }, serverListening, 'SIGTERM'],
  ] as const)(
    'npm run %s stops everything it started on a signal to npm',
    async (script, env, listening, signal) => {
      const npm = await startProcess({
        name: `npm run ${script}`,
        command: 'npm',
        args: ['run', '--silent', script],
        env,
        listening,
        timeoutMs: 60_000,
      })
      try {
        expect(await refused(npm.url)).toBe(false)
        npm.signal(signal)
        await npm.exited
        // Whatever npm started has had its signal passed on and has ended, port and all.
        const deadline = Date.now() + 20_000
        while (groupAlive(npm.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
        expect(groupAlive(npm.pid), `a process of npm run ${script} is still running`).toBe(false)
        expect(await refused(npm.url)).toBe(true)
      } finally {
        await npm.kill9()
      }
    },
    90_000,
  )

  it('npm run proxy: npm killed with SIGKILL leaves nothing listening', async () => {
    const npm = await startProcess({
      name: 'npm run proxy',
      command: 'npm',
      args: ['run', '--silent', 'proxy'],
      env: { PROXY_PORT: '0' },
      listening: proxyListening,
      timeoutMs: 60_000,
    })
    try {
      expect(await refused(npm.url)).toBe(false)
      // npm alone, as `timeout` or a CI step's time-out would: nothing passes a signal on.
      npm.signal('SIGKILL')
      await npm.exited
      for (let i = 0; i < 100 && !(await refused(npm.url)); i++) await new Promise((r) => setTimeout(r, 100))
      expect(await refused(npm.url), 'the proxy outlived npm').toBe(true)
    } finally {
      await npm.kill9()
    }
  }, 90_000)

  it('npm run mock: a client that follows Link reaches a last page', async () => {
    const npm = await startProcess({
      name: 'npm run mock',
      command: 'npm',
      args: ['run', '--silent', 'mock'],
      env: { MOCK_PORT: '0' },
      listening: mockListening,
      timeoutMs: 60_000,
    })
    try {
      // followLinks throws past 10 pages: a Link that went round in circles fails here.
      const pages = []
      for await (const page of followLinks(npm.url, '/plants?limit=1', { authorization: 'Bearer any' }, 10))
        pages.push(page)
      expect(pages.map((page) => [page.address, page.status])).toEqual([
        ['/plants?limit=1', 200],
        ['/plants?limit=1&cursor=MQ', 200],
      ])
    } finally {
      await npm.stop()
    }
  }, 90_000)

  it('a launcher started from a shell that then exits stops, and says so on its last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plant-store-launcher-'))
    const log = join(dir, 'mock.log')
    // The shell starts the launcher in the background, its output in a log, waits until it listens,
    // prints its address and exits.
    const script =
      'MOCK_PORT=0 "$0" --import tsx scripts/launch.ts mock >"$1" 2>&1 & echo "launcher $!"; ' +
      'until grep -q "Mock is listening" "$1"; do sleep 0.1; done; grep "Mock is listening" "$1"'
    const shell = await startProcess({
      name: 'a shell that starts the mock and exits',
      command: 'sh',
      args: ['-c', script, process.execPath, log],
      listening: mockListening,
      timeoutMs: 60_000,
    })
    try {
      await shell.exited
      const launcher = Number(/launcher (\d+)/.exec(shell.output())?.[1])
      // Prism, behind the front, in the launcher's group too: ended, and reaped by whoever adopted it.
      const deadline = Date.now() + 20_000
      while ((running(launcher) || groupAlive(shell.pid)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100))
      const lines = (await readFile(log, 'utf8')).trimEnd().split('\n')
      expect(running(launcher), lines.join('\n')).toBe(false)
      expect(lines.at(-1)).toBe(PARENT_GONE)
      expect(groupAlive(shell.pid), 'a process the launcher started is still running').toBe(false)
      expect(await refused(shell.url)).toBe(true)
    } finally {
      await shell.kill9()
      await rm(dir, { recursive: true, force: true })
    }
  }, 90_000)
})

// What each npm script runs (`exec node --import tsx FILE …`; the sandbox builds first), and each
// package's command as npm links it, with the start of the usage it prints.
const tsx = (...args: string[]) => ['--import', 'tsx', ...args]
const commands: [command: string, args: string[], usage: RegExp][] = [
  ['npm test', tsx('scripts/test.ts'), /^Usage: npm test$/m],
  ['npm run compat', tsx('contracts/compat/run-compat.ts'), /^Usage: npm run compat -- /m],
  ['npm run dredd', tsx('contracts/dredd/run-dredd.ts'), /^Usage: npm run dredd$/m],
  ['npm run explore', tsx('scripts/explore.ts'), /^Usage: npm run explore -- /m],
  ['npm run webhook:send', tsx('scripts/send-webhook.ts'), /^Usage: npm run webhook:send -- /m],
  ['npm run generate', tsx('scripts/codegen/generate-types.ts'), /^Usage: npm run generate /m],
  ['npm run mock', tsx('scripts/launch.ts', 'mock'), /^Usage: plant-store-mock /m],
  ['npm run mock:dynamic', tsx('scripts/launch.ts', 'mock:dynamic'), /^Usage: plant-store-mock /m],
  ['npm run proxy', tsx('scripts/launch.ts', 'proxy'), /^Usage: plant-store-proxy /m],
  ['npm run sandbox', tsx('scripts/launch.ts', 'sandbox'), /^Usage: plant-store-server /m],
  ['plant-store-server', ['src/server/bin/plant-store-server.js'], /^Usage: plant-store-server /m],
  ['plant-store-mock', ['src/mock/bin/plant-store-mock.js'], /^Usage: plant-store-mock /m],
  ['plant-store-verify', ['src/verify/bin/plant-store-verify.js'], /^Usage: plant-store-verify /m],
  ['plant-store-proxy', ['src/verify/bin/plant-store-proxy.js'], /^Usage: plant-store-proxy /m],
  ['plant-store-broker', ['src/broker/bin/plant-store-broker.js'], /^Usage: plant-store-broker /m],
]

describe('an option a command does not know', () => {
  it.concurrent.each(commands)(
    '%s says it in one line, with its usage, and exits 2',
    async (command, args, usage) => {
      const { exit, output } = await runToExit({
        name: command,
        command: process.execPath,
        args: [...args, '--bogus'],
        timeoutMs: 60_000,
      })
      expect(exit, output).toBe(2)
      const [first] = output.trimStart().split('\n')
      expect(first).toMatch(/^(plant-store-verify: )?Unknown option '--bogus'$/)
      expect(output).toMatch(usage)
      // Nothing of a stack trace.
      expect(output).not.toMatch(/^\s+at /m)
    },
    60_000,
  )
})
