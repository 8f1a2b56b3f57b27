// `npm run mock`, `npm run mock:dynamic` and `npm run proxy`: start Prism with the same command
// line the contract suite tests, on the host and port the environment names.
//
//   MOCK_HOST, MOCK_PORT         the mock's address (default 127.0.0.1:4010)
//   PROXY_HOST, PROXY_PORT       the proxy's address (default 127.0.0.1:4011)
//   PROXY_UPSTREAM               the real server behind the proxy (default http://127.0.0.1:3000)
import { spawn } from 'node:child_process'
import { mockArgs, proxyArgs } from './lib/prism-args.js'
import { prismCli } from './lib/processes.js'

function port(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${name} must be a port number (0-65535), not ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return value
}

const [command, ...rest] = process.argv.slice(2)
let args: string[]
if (command === 'mock') {
  const listen = { host: process.env.MOCK_HOST || '127.0.0.1', port: port('MOCK_PORT', 4010) }
  args = mockArgs(listen, rest.includes('--dynamic'))
} else if (command === 'proxy') {
  const listen = { host: process.env.PROXY_HOST || '127.0.0.1', port: port('PROXY_PORT', 4011) }
  args = proxyArgs(listen, process.env.PROXY_UPSTREAM || 'http://127.0.0.1:3000')
} else {
  console.error('usage: tsx contracts/prism.ts mock [--dynamic] | proxy')
  process.exit(2)
}

const child = spawn(process.execPath, [prismCli, ...args], { stdio: 'inherit' })
// Ctrl-C reaches Prism directly (same terminal); a SIGTERM sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
