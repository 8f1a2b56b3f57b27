// The real server over a real listening port: start-up, auth, bodies, durability across kill -9, shutdown.
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claims, KeySet, sign, signingKey } from '../../../scripts/lib/key-set.js'
import { listAll } from '../../../scripts/lib/paging.js'
import { repoRoot, runToExit } from '../../../scripts/lib/processes.js'
import { refusedStart, type ServerProcess, startServer } from '../../../test/helpers/server-process.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-store-'))
const started: ServerProcess[] = []
afterAll(async () => {
  await Promise.all(started.map((server) => server.kill9()))
  rmSync(dir, { recursive: true, force: true })
})

const env = {
  DATABASE_URL: `sqlite:${join(dir, 'data', 'plants.db')}`,
  AUTH_TOKENS: 'alice:token-a,bob:token-b',
}
const start = async (extra: Record<string, string> = {}) => {
  const server = await startServer({ ...env, ...extra })
  started.push(server)
  return server
}
const send = (server: ServerProcess, path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string>),
    },
  })

// Every test starts the server as a process, some of them twice, each start allowed 15 s on a busy machine.
describe('the server process', { timeout: 60_000 }, () => {
  it('serves every operation over HTTP and keeps acknowledged plants across kill -9', async () => {
    const first = await start()
    expect((await send(first, '/plants')).status).toBe(401)
    expect((await send(first, '/plants', { token: 'wrong' })).status).toBe(401)
    const id = '9223372036854775807'
    const created = await send(first, '/plants', {
      method: 'POST',
      token: 'token-a',
      body: `{"id":${id},"name":"Oak","tag":"tree"}`,
    })
    expect(created.status).toBe(200)
    expect(await created.json()).toEqual({ name: 'Oak', tag: 'tree' })
    expect((await send(first, `/plants/${id}`, { token: 'token-b' })).status).toBe(404)
    const malformed = await send(first, '/plants', { method: 'POST', token: 'token-a', body: '{"id":' })
    expect(malformed.status).toBe(400)
    const text = await send(first, '/plants', {
      method: 'POST',
      token: 'token-a',
      body: 'Oak',
      headers: { 'content-type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    const large = await send(first, '/plants', {
      method: 'POST',
      token: 'token-a',
      body: JSON.stringify({ id: 1, name: 'x'.repeat(70_000) }),
    })
    expect(large.status).toBe(413)
    expect(await large.json()).toEqual({ error: 413, message: 'the body is larger than 65536 bytes' })

    await first.kill9()
    expect(await first.exited).toBe('SIGKILL')

    const second = await start()
    const got = await send(second, `/plants/${id}`, { token: 'token-a' })
    expect(got.status).toBe(200)
    expect(await got.text()).toBe(`{"name":"Oak","id":${id},"tag":"tree"}`)
    second.signal('SIGTERM')
    expect(await second.exited).toBe(0)
    // Log lines are written in batches: the last ones are written before the process exits.
    expect(second.output()).toContain(`"url":"/plants/${id}","statusCode":200`)
    expect(second.output()).toContain('shutting down')
  })

  it('answers what the HTTP parser refuses in the Error shape: headers over 16 KiB, and garbage', async () => {
    const server = await start()
    const long = await send(server, `/plants?tag=${'x'.repeat(20_000)}`, { token: 'token-a' })
    expect(long.status).toBe(431)
    expect(await long.json()).toEqual({
      error: 431,
      message: 'the request line and headers are larger than 16384 bytes',
    })
    const { hostname, port } = new URL(server.url)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')))
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 400,
      message: 'the request is not valid HTTP',
    })
  })

  it('under load, SIGTERM answers the requests in flight, refuses new ones with 503, and exits', async () => {
    const server = await start({ AUTH_TOKENS: 'carol:token-c' })
    const answered = new Set<number>()
    const refused: { status: number; retryAfter: string | null; body: unknown }[] = []
    let unreachable = 0
    let nextId = 1
    let signalled = false
    const signalAfter = 100
    // 8 clients, each one create at a time until the server is gone: at most 400 each.
    const client = async () => {
      for (let i = 0; i < 400; i++) {
        const id = nextId++
        let response: Response
        try {
          response = await send(server, '/plants', {
            method: 'POST',
            token: 'token-c',
            body: `{"id":${id},"name":"Ivy"}`,
          })
        } catch {
          // Refused or reset once the server stopped listening: never answered, so never stored.
          unreachable++
          if (signalled) return
          continue
        }
        if (response.status === 200) answered.add(id)
        else
          refused.push({
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            body: await response.json(),
          })
        if (!signalled && answered.size >= signalAfter) {
          signalled = true
          server.signal('SIGTERM')
        }
      }
    }
    const clients = Promise.all(Array.from({ length: 8 }, client))
    // Exit 0, not the 1 of close-with-grace giving up on a shutdown past its 10 s.
    const exit = await server.exited
    await clients
    expect(signalled).toBe(true)
    expect(exit).toBe(0)
    expect(server.output()).toContain('shutting down')
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: 503, message: 'the server is shutting down: try again' },
      })
    }
    // Every create answered 200 is stored, and nothing else.
    const again = await start({ AUTH_TOKENS: 'carol:token-c' })
    const stored = await listAll<{ id: number }>(
      again.url,
      '/plants?limit=100',
      { authorization: 'Bearer token-c' },
      100,
    )
    expect(stored.map((plant) => plant.id).sort((a, b) => a - b)).toEqual([...answered].sort((a, b) => a - b))
    console.log(
      `SIGTERM under load: ${answered.size} creates answered 200 and stored, ${refused.length} refused with 503, ` +
        `${unreachable} not reached`,
    )
  })

  it('says in one line which port is in use, and exits 1', async () => {
    const first = await start()
    const port = new URL(first.url).port
    const { exit, output } = await refusedStart({ ...env, PORT: port })
    expect(exit).toBe(1)
    expect(output).toContain(`port ${port} on 127.0.0.1 is in use: set PORT to another port`)
    expect(output).not.toMatch(/\n\s+at /)
  })

  it('refuses to start on a Node release older than 22.12, in one line', async () => {
    // The SQLite driver would crash such a Node with no message: the check must come before it loads.
    const olderNode = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})'
    const { exit, output } = await runToExit({
      name: 'server on an old Node',
      command: process.execPath,
      args: ['--import', olderNode, '--import', 'tsx', join(repoRoot, 'src', 'server', 'server.ts')],
      env,
      timeoutMs: 15_000,
    })
    expect(exit).toBe(1)
    expect(output.trim()).toBe(
      'The plant store needs Node.js 22.12 or newer (22, 24 or 26); this is Node 20.20.2.',
    )
  })

  it('says so in its log when it uses the development token', async () => {
    const server = await start({ AUTH_TOKENS: '' })
    expect(server.output()).toContain("token 'dev-token'")
    expect((await send(server, '/plants', { token: 'dev-token' })).status).toBe(200)
  })

  it('accepts JWTs from a key set it fetches over HTTP, and names the issuer in its log', async () => {
    const keySet = new KeySet()
    const key = await signingKey('process')
    await keySet.publish(key)
    await keySet.start()
    try {
      const server = await start({ ...keySet.env(), NODE_ENV: 'production' })
      expect(server.output()).toMatch(/accepting JSON Web Tokens/)
      expect(server.output()).toContain(keySet.url)
      const token = await sign(key, claims({ sub: 'alice' }))
      expect((await send(server, '/plants', { token })).status).toBe(200)
      expect(keySet.fetches).toBe(1)
      const expired = await send(server, '/plants', { token: await sign(key, claims({ exp: 1 })) })
      expect(expired.status).toBe(401)
      expect(expired.headers.get('www-authenticate')).toContain('error_description="the token has expired"')
      expect(server.output()).not.toContain(token.split('.')[2])
    } finally {
      await keySet.close()
    }
  })

  it('never writes JWT_SECRET to its log', async () => {
    const secret = 'a shared secret that must stay out of every log line'
    const server = await start({ JWT_SECRET: secret, JWT_ISSUER: 'https://id.example', JWT_AUDIENCE: 'p' })
    expect(server.output()).toMatch(/accepting JSON Web Tokens.*shared secret/)
    expect(server.output()).not.toContain(secret)
  })

  it.each([
    [{ NODE_ENV: 'production', AUTH_TOKENS: '' }, 'AUTH_TOKENS'],
    [{ PORT: 'http' }, 'PORT'],
    [{ NODE_ENV: 'production', SANDBOX: 'true' }, 'SANDBOX'],
  ])('refuses to start with %j', async (extra, variable) => {
    const { exit, output } = await refusedStart({ ...env, ...extra })
    expect(exit).toBe(1)
    expect(output).toContain(variable)
  })
})
