// `npm run mock`, `npm run mock:dynamic`, `npm run proxy` and `npm run sandbox`: start the mock, the
// proxy or the sandbox with the command lines the tests use, on the address the environment names,
// and pass SIGINT, SIGTERM and SIGHUP on to it. The npm scripts `exec` this file, so that a signal to
// the npm process reaches it rather than stopping at the shell npm runs scripts in.
//
//   mock, mock:dynamic    MOCK_HOST, MOCK_PORT (default 127.0.0.1:4010); MOCK_SPEC, the document it
//                         serves (default spec/openapi.yaml). Prism listens on a port of its own behind
//                         a front that judges requests as the real server does (scripts/lib/mock-front.ts)
//   proxy                 PROXY_HOST, PROXY_PORT (default 127.0.0.1:4011), PROXY_UPSTREAM (default
//                         http://127.0.0.1:3000), the real server behind it; PROXY_SPEC, the document
//                         it judges by (default spec/openapi.yaml). It runs in this process
//                         (src/verify/proxy/proxy.ts), not as a child.
//   sandbox               HOST, PORT (default 127.0.0.1:3000); the built server (npm run build)
import type { AddressInfo } from 'node:net'
import { relative } from 'node:path'
import type { LoadedSpec } from '@plant-store/core'
import { startProxy } from '@plant-store/verify/proxy'
import { type Listen, prismListening, prismMock, sandbox } from './lib/commands.js'
import { startMockFront } from './lib/mock-front.js'
import { exitWithParent, spawnGuarded } from './lib/processes.js'
import { proxyArgs } from './lib/proxy-args.js'
import { loadSpec, specPath } from './lib/spec.js'

function listen(prefix: string, port: number): Listen {
  const raw = process.env[`${prefix}PORT`]
  const value = raw === undefined || raw === '' ? port : Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${prefix}PORT must be a port number (0-65535), not ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return { host: process.env[`${prefix}HOST`] || '127.0.0.1', port: value }
}

const what = process.argv[2]

if (what === 'proxy') {
  // Nothing to pass a signal on to: the proxy is this process. It still ends with npm, however npm ends.
  exitWithParent()
  const upstream = process.env.PROXY_UPSTREAM || 'http://127.0.0.1:3000'
  const spec = process.env.PROXY_SPEC || specPath
  const proxy = await startProxy({
    upstream,
    spec,
    ...listen('PROXY_', 4011),
    ...proxyArgs(process.argv.slice(3)),
  }).catch((error: Error) => {
    console.error(`the proxy cannot start: ${error.message}`)
    process.exit(1)
  })
  console.log(
    `Proxy is listening on ${proxy.url}, in front of ${upstream}, judging answers by ${relative(process.cwd(), spec) || spec}`,
  )
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      proxy.close().then(() => process.exit(0))
      // close() ends open connections itself; this only guards against a close that never returns.
      setTimeout(() => process.exit(1), 5_000).unref()
    })
  }
} else {
  const isMock = what === 'mock' || what === 'mock:dynamic'
  const mockSpec = process.env.MOCK_SPEC || specPath
  // Read before Prism starts: a document the front cannot read is said at once, not after Prism listens.
  const loaded = isMock
    ? await loadSpec(mockSpec).catch((error: Error) => {
        console.error(`the mock cannot read ${mockSpec}: ${error.message}`)
        process.exit(1)
      })
    : undefined
  launch(mockSpec, loaded)
}

function launch(mockSpec: string, loaded: LoadedSpec | undefined): void {
  const mockListen = loaded ? listen('MOCK_', 4010) : undefined
  const command = mockListen
    ? prismMock({ listen: { host: '127.0.0.1', port: 0 }, spec: mockSpec }, what === 'mock:dynamic')
    : what === 'sandbox'
      ? sandbox({ listen: listen('', 3000), built: true, env: { LOG_LEVEL: process.env.LOG_LEVEL } })
      : undefined
  if (!command) {
    console.error('usage: launch.ts mock | mock:dynamic | proxy | sandbox')
    process.exit(2)
  }

  // Guarded: if this launcher is killed outright, the child does not outlive it.
  const child = spawnGuarded(command.command, command.args, {
    env: { ...process.env, ...command.env },
    stdio: ['inherit', mockListen ? 'pipe' : 'inherit', 'inherit'],
  })
  if (mockListen && loaded && child.stdout) {
    // Prism's own lines pass through; once it listens, the front opens on the address asked for.
    let front: Promise<unknown> | undefined
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString()
      const upstream = front ? undefined : prismListening.exec(text)?.[1]
      process.stdout.write(upstream ? text.replace(prismListening, 'Prism is listening privately') : text)
      if (!upstream) return
      front = startMockFront(upstream, loaded, mockListen).then(
        (server) => {
          const { port } = server.address() as AddressInfo
          console.log(
            `Mock is listening on http://${mockListen.host}:${port} (Prism, behind a front that refuses what the server refuses)`,
          )
        },
        (error: Error) => {
          console.error(`the mock cannot listen on ${mockListen.host}:${mockListen.port}: ${error.message}`)
          child.kill('SIGTERM')
        },
      )
    })
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      child.kill(signal)
      // The server finishes requests in flight within 10 s; past that, nothing is left holding the port.
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
    })
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}
