// The scratch projects the configuration tests run the command in: each a directory with a
// configuration file, the independent store the command runs against, a proxy in front of it that
// keeps every request's headers, and the command itself; started for a test file and stopped after it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll } from 'vitest'
import { repoRoot, runToExit, type Started, startProcess } from '../../../scripts/lib/processes.js'

export const tokens = ['token-alice', 'token-bob'] as const
/** How a configuration in a scratch directory imports the package (there, from its sources). */
export const from = JSON.stringify(join(repoRoot, 'src/verify/index.ts'))
export const small = ['--requests', '40', '--sequences', '4', '--seed', '7']
/** tsx from the kit's own node_modules: the command runs in scratch directories without one. */
export const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href

/** A check every answer fails: the store never sends this header. */
export const failing = `defineCheck({
  name: 'gateway_header',
  description: 'every answer carries the X-Gateway header our gateway adds',
  run: ({ response }) => (response.headers['x-gateway'] ? [] : ['the X-Gateway header is missing']),
})`

/** Registers the file's set-up and clean-up; returns the store, the scratch projects and the command. */
export function configTests() {
  const started: Started[] = []
  const servers: Server[] = []
  let work = ''
  let storeUrl = ''
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'plant-store-verify-config-'))
    const store = await startProcess({
      name: 'independent store',
      command: process.execPath,
      args: [join(repoRoot, 'test/fixtures/independent-store/server.mjs')],
      env: { PORT: '0', TOKENS: 'alice=token-alice,bob=token-bob' },
      listening: /listening on (http:\/\/\S+)/,
    })
    started.push(store)
    storeUrl = store.url
  })
  afterAll(async () => {
    await Promise.allSettled(started.map((s) => s.stop()))
    await Promise.allSettled(servers.map((s) => new Promise((resolve) => s.close(resolve))))
    if (work) await rm(work, { recursive: true, force: true })
  })
  return {
    storeUrl: () => storeUrl,
    work: () => work,
    /** A process the test started, stopped with the rest. */
    started: (process: Started) => started.push(process),
    /** A directory of its own with a configuration file in it. */
    async project(name: string, file: string, text: string): Promise<string> {
      const dir = join(work, name)
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, file), text)
      return dir
    },
    /** The command run in `cwd`, against `url`. */
    async run(cwd: string, args: string[], url = storeUrl) {
      let stderr = ''
      const result = await runToExit({
        name: 'plant-store-verify',
        command: process.execPath,
        args: [
          '--import',
          tsx,
          join(repoRoot, 'src/verify/cli.ts'),
          '--base-url',
          url,
          '--token',
          tokens[0],
          '--token',
          tokens[1],
          ...args,
        ],
        cwd,
        env: { VERIFY_BASE_URL: undefined, VERIFY_TOKENS: undefined, GITHUB_ACTIONS: undefined },
        timeoutMs: 240_000,
        onOutput: (chunk, stream) => {
          if (stream === 'stderr') stderr += chunk
        },
      })
      return { ...result, stderr }
    },
    /** A proxy in front of the store that keeps the headers of every request it forwards. */
    async recording(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
      const seen: IncomingHttpHeaders[] = []
      const upstream = new URL(storeUrl)
      const server = createServer((req, res) => {
        seen.push(req.headers)
        const forward = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          },
        )
        forward.on('error', () => res.destroy())
        req.pipe(forward)
      })
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
    },
  }
}
