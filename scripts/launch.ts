// `npm run mock`, `npm run mock:dynamic`, `npm run proxy` and `npm run sandbox`: start the mock, the
// proxy or the sandbox with the command lines the tests use, on the address the environment names. The
// npm scripts `exec` this file, so that a signal to the npm process reaches it rather than stopping at
// the shell npm runs scripts in; and it ends when npm does, however npm ends, saying so on its last line.
//
//   mock, mock:dynamic    the `plant-store-mock` command of @plant-store/mock (src/mock/cli.ts), run
//                         here: MOCK_HOST, MOCK_PORT (default 127.0.0.1:4010); MOCK_SPEC, the
//                         document it serves (default spec/openapi.yaml). Arguments after `--` go on
//                         to it (`npm run mock -- --help`)
//   proxy                 the `plant-store-proxy` command of @plant-store/verify
//                         (src/verify/proxy/proxy-cli.ts), run here: PROXY_HOST, PROXY_PORT (default
//                         127.0.0.1:4011), PROXY_UPSTREAM (default http://127.0.0.1:3000), the real server
//                         behind it; PROXY_SPEC, the document it judges by (default spec/openapi.yaml).
//                         Arguments after `--` go on
//   sandbox               `plant-store-server --sandbox` of @plant-store/server, built (npm run build):
//                         HOST, PORT (default 127.0.0.1:3000), passed SIGINT, SIGTERM and SIGHUP.
//                         Arguments after `--` go on to it (`npm run sandbox -- --seed FILE.har`)
import { join } from 'node:path'
import { sandbox } from './lib/commands.js'
import { exitWithParent, repoRoot, spawnGuarded } from './lib/processes.js'
import { specPath } from './lib/spec.js'

const what = process.argv[2]
const rest = process.argv.slice(3)
const env = (name: string, otherwise: string) => process.env[name] || otherwise

exitWithParent()
// Each command's code is loaded only when it is the one started: the mock starts without the verifier.
if (what === 'mock' || what === 'mock:dynamic') {
  const { main: mock } = await import('../src/mock/cli.js')
  await mock([
    ...(what === 'mock:dynamic' ? ['--dynamic'] : []),
    ...['--host', env('MOCK_HOST', '127.0.0.1'), '--port', env('MOCK_PORT', '4010')],
    ...['--spec', env('MOCK_SPEC', specPath)],
    ...rest,
  ])
} else if (what === 'proxy') {
  const { main: proxy } = await import('../src/verify/proxy/proxy-cli.js')
  await proxy([
    ...['--upstream', env('PROXY_UPSTREAM', 'http://127.0.0.1:3000'), '--spec', env('PROXY_SPEC', specPath)],
    ...['--host', env('PROXY_HOST', '127.0.0.1'), '--port', env('PROXY_PORT', '4011')],
    ...rest,
  ])
} else if (what === 'sandbox') {
  // The server reads and checks HOST and PORT itself.
  const command = sandbox({
    built: true,
    env: { HOST: env('HOST', '127.0.0.1'), PORT: env('PORT', '3000'), LOG_LEVEL: process.env.LOG_LEVEL },
  })
  // The package's command rather than the server alone, so that it reads (and refuses) the arguments.
  const cli = join(repoRoot, 'src', 'server', 'bin', 'plant-store-server.js')
  // Guarded: if this launcher is killed outright, the server does not outlive it.
  const child = spawnGuarded(command.command, [cli, '--sandbox', ...rest], {
    env: { ...process.env, ...command.env },
    stdio: 'inherit',
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      child.kill(signal)
      // The server finishes requests in flight within 10 s; past that, nothing is left holding the port.
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
    })
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
} else {
  console.error('usage: launch.ts mock | mock:dynamic | proxy | sandbox')
  process.exit(2)
}
