// The mock and the validating proxy as a team outside the kit gets them: `plant-store-mock` from the
// installed @plant-store/mock, answering as `npm run mock` does in the kit's repository, with Prism's
// parts at the versions the kit holds them to; and `plant-store-proxy` from the installed
// @plant-store/verify in front of the installed `plant-store-server --sandbox`, passing answers on and
// flagging the one that departs from the document.

import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  generousLimits,
  mock,
  mockListening,
  proxyListening,
  serverListening,
} from '../../scripts/lib/commands.js'
import { freePort, type Started, startProcess } from '../../scripts/lib/processes.js'
import { npmInstall, ownEnv, run, scratchApp, writeFiles } from './scratch.js'

const tarballs = inject('tarballs')

/**
 * A scratch app with these packages installed from their tarballs, in the stage's folder (kept for the
 * other Node lines of a CI run).
 */
async function app(name: string, packages: string[]): Promise<string> {
  const dir = join(inject('packagesDir'), 'apps', name)
  await scratchApp(dir, async (dir) => {
    await writeFiles(dir, { 'package.json': JSON.stringify({ name, private: true, type: 'module' }) })
    const installed = await npmInstall(
      dir,
      packages.map((pkg) => tarballs[`@plant-store/${pkg}`] as string),
    )
    expect(installed.exit, installed.output).toBe(0)
  })
  return dir
}

/** An installed command, started through npx as a team starts it, with none of this run's settings. */
const npx = (cwd: string, name: string, args: string[], listening: RegExp, env = {}) =>
  startProcess({
    name,
    command: 'npx',
    args,
    cwd,
    cleanEnv: true,
    env: { ...ownEnv, NO_COLOR: '1', ...env },
    listening,
    timeoutMs: 120_000,
  })

interface Exchange {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request as written, by node:http: an Origin header and a preflight go out exactly so. */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, base), { method, headers }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

// What differs from one answer to the next whatever the mock: the time, the request id, the connection.
const perAnswer = new Set(['date', 'x-request-id', 'connection', 'keep-alive'])
const comparable = ({ status, headers, body }: Exchange) => ({
  status,
  headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !perAnswer.has(name))),
  body,
})

const bearer = { authorization: 'Bearer any-token' }
const json = { ...bearer, 'content-type': 'application/json' }
const requests: [string, string, string, Record<string, string>, string?][] = [
  ['a page of plants', 'GET', '/plants?limit=2', bearer],
  ['a create', 'POST', '/plants', json, '{"id":9007199254740993,"name":"Sage","tag":"herb"}'],
  ['a body that is not JSON', 'POST', '/plants', json, '{"id":1,'],
  ['a body without its name', 'POST', '/plants', json, '{"id":1}'],
  ['no token', 'GET', '/plants', {}],
  ['a refusal asked for with Prefer', 'GET', '/plants/1', { ...bearer, prefer: 'code=404' }],
  [
    'a preflight from another origin',
    'OPTIONS',
    '/plants',
    {
      origin: 'http://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  ],
]

describe('plant-store-mock, installed from the tarballs', () => {
  let dir = ''
  let installed: Started | undefined
  let inRepo: Started | undefined
  beforeAll(async () => {
    dir = await app('mock-app', ['core', 'mock'])
    ;[installed, inRepo] = await Promise.all([
      npx(dir, 'installed mock', ['plant-store-mock', '--port', '0'], mockListening),
      startProcess({ ...mock(), timeoutMs: 120_000 }),
    ])
  }, 480_000)

  afterAll(async () => {
    await Promise.all([installed?.stop(), inRepo?.stop()])
  })

  it("holds Prism and its parts at the kit's versions", async () => {
    const query = await run(dir, 'npm', ['query', '--loglevel=error', '*'])
    expect(query.exit, query.output).toBe(0)
    const nodes = JSON.parse(query.output) as { name: string; version: string }[]
    const versions = (name: string) => [
      ...new Set(nodes.filter((n) => n.name === name).map((n) => n.version)),
    ]
    expect(versions('@stoplight/prism-cli')).toEqual(['5.14.2'])
    expect(versions('@stoplight/prism-core')).toEqual(['5.8.0'])
    expect(versions('@stoplight/prism-http')).toEqual(['5.12.0'])
    expect(versions('@stoplight/prism-http-server')).toEqual(['5.12.2'])
  })

  it('prints its usage with --help', async () => {
    const { exit, output } = await run(dir, 'npx', ['plant-store-mock', '--help'])
    expect(exit, output).toBe(0)
    expect(output).toContain('Usage: plant-store-mock [--dynamic] [--host HOST] [--port PORT] [--spec FILE]')
  })

  it.each(requests)('answers %s as `npm run mock` does', async (_name, method, path, headers, body) => {
    if (!installed || !inRepo) throw new Error('the mocks did not start')
    const [fromPackage, fromRepo] = await Promise.all([
      send(installed.url, method, path, headers, body),
      send(inRepo.url, method, path, headers, body),
    ])
    expect(comparable(fromPackage)).toEqual(comparable(fromRepo))
  })

  it('refuses and allows as the server does, CORS included', async () => {
    if (!installed) throw new Error('the mock did not start')
    const refused = await send(installed.url, 'POST', '/plants', json, '{"id":1}')
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body)).toEqual({
      error: 400,
      message: "body must have required property 'name'",
    })
    const preflight = await send(installed.url, 'OPTIONS', '/plants', {
      origin: 'http://app.example',
      'access-control-request-method': 'POST',
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://app.example')
    expect(preflight.headers['access-control-allow-methods']).toContain('POST')
  })

  it("starts from code with startMock, as the package's README shows, and ends with close()", async () => {
    await writeFiles(dir, {
      'start.js': `import { startMock } from '@plant-store/mock'

const mock = await startMock({ port: 0 })
const answer = await fetch(\`\${mock.url}/plants\`)
await mock.close()
console.log(JSON.stringify({ url: mock.url, status: answer.status, body: await answer.json() }))
`,
    })
    // It must end by itself: close() leaves nothing running, Prism included.
    const { exit, output } = await run(dir, process.execPath, ['start.js'], 120_000)
    expect(exit, output).toBe(0)
    const last = JSON.parse(output.trim().split('\n').at(-1) ?? '')
    expect(last.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(last.status).toBe(401)
    expect(last.body).toMatchObject({ error: 401 })
  }, 180_000)

  it('serves data generated from the schemas with --dynamic, on the host and port it is given', async () => {
    const port = await freePort()
    const dynamic = await npx(
      dir,
      'installed mock (dynamic)',
      ['plant-store-mock', '--dynamic', '--host', '127.0.0.1', '--port', String(port)],
      mockListening,
    )
    try {
      expect(dynamic.url).toBe(`http://127.0.0.1:${port}`)
      const page = await send(dynamic.url, 'GET', '/plants', bearer)
      expect(page.status, page.body).toBe(200)
      const plants = JSON.parse(page.body) as { name: unknown }[]
      expect(Array.isArray(plants)).toBe(true)
      for (const plant of plants) expect(typeof plant.name).toBe('string')
    } finally {
      await dynamic.stop()
    }
  }, 180_000)
})

describe('plant-store-proxy, installed from the tarballs, before the installed sandbox', () => {
  let dir = ''
  let sandbox: Started | undefined
  let proxy: Started | undefined
  beforeAll(async () => {
    dir = await app('proxy-app', ['core', 'server', 'verify'])
    sandbox = await npx(
      dir,
      'installed sandbox',
      ['plant-store-server', '--sandbox', '--port', '0'],
      serverListening,
      // What a loaded machine running this would trip is not what this test is about.
      generousLimits,
    )
    proxy = await npx(
      dir,
      'installed proxy',
      ['plant-store-proxy', '--upstream', sandbox.url, '--port', '0'],
      proxyListening,
    )
  }, 480_000)

  afterAll(async () => {
    await proxy?.stop()
    await sandbox?.stop()
  })

  it('prints its usage with --help', async () => {
    const { exit, output } = await run(dir, 'npx', ['plant-store-proxy', '--help'])
    expect(exit, output).toBe(0)
    expect(output).toContain('Usage: plant-store-proxy [--upstream URL]')
  })

  it("passes the server's answers on as they are, and flags none that conforms", async () => {
    if (!proxy || !sandbox) throw new Error('the proxy did not start')
    const create = '{"id":9007199254740993,"name":"Sage"}'
    const through = await send(proxy.url, 'POST', '/plants', json, create)
    expect(through.status, through.body).toBe(200)
    expect(through.headers['x-contract-violations']).toBeUndefined()
    const [viaProxy, direct] = await Promise.all([
      send(proxy.url, 'GET', '/plants/9007199254740993', bearer),
      send(sandbox.url, 'GET', '/plants/9007199254740993', bearer),
    ])
    expect(viaProxy.status, viaProxy.body).toBe(200)
    expect(viaProxy.body).toBe(direct.body)
    // The id digit for digit: the body was never read as JavaScript numbers on its way.
    expect(viaProxy.body).toContain('"id":9007199254740993')
    expect(viaProxy.headers['x-contract-violations']).toBeUndefined()
  })

  it('flags an answer the document does not describe, in a header and a log line', async () => {
    if (!proxy) throw new Error('the proxy did not start')
    // The server's /docs page: a success on a path the document lacks.
    const docs = await send(proxy.url, 'GET', '/docs')
    expect(docs.headers['x-contract-violations']).toBe('1; status_code_conformance')
    const logged = () => proxy?.output().includes('"msg":"departure from the document"') ?? false
    // The line is written as the answer goes back; it is read from the proxy's pipe.
    for (let i = 0; i < 100 && !logged(); i++) await new Promise((r) => setTimeout(r, 50))
    expect(proxy.output()).toMatch(/"msg":"departure from the document".*"path":"\/docs"/)
  })
})
