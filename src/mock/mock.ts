// The mock as one call: Prism serving the document (its examples, or data generated from its schemas)
// on a private port, and the front (mock-front.ts) on the address asked for, which judges each request
// as the real server does before Prism answers it. Prism runs as a child process, as its own command
// line starts it, so that it answers exactly as `prism mock` does.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Document, loadDocument, document as shipped } from '@plant-store/core'
import { JSON_SCHEMA, load } from 'js-yaml'
import { startMockFront } from './mock-front.js'

export interface MockOptions {
  /** The OpenAPI document to serve, a YAML or JSON file; by default the one @plant-store/core ships. */
  spec?: string
  /** Data generated from the schemas instead of the examples (Prism's `--dynamic`). */
  dynamic?: boolean
  /** The address to listen on: 127.0.0.1 unless named. */
  host?: string
  /** 4010 unless named; 0 picks a free port. */
  port?: number
}

export interface RunningMock {
  /** e.g. `http://127.0.0.1:4010`. */
  url: string
  /** Resolves with Prism's exit code once it has ended, by close() or on its own. */
  exited: Promise<number>
  /** Stops the front and Prism; resolves once Prism has ended. */
  close(): Promise<void>
}

const require = createRequire(import.meta.url)
const prismCli = require.resolve('@stoplight/prism-cli/dist/index.js')
const prismListening = /Prism is listening on (http:\/\/[^\s",]+)/

/**
 * Loaded into Prism before its CLI: Prism ends when its standard input, a pipe only this process holds,
 * closes, so it never outlives this process, however this one ends (SIGKILL included). Ending so, or
 * on a signal sent to the whole process group (a terminal's Ctrl-C), it removes the scratch folder
 * itself, which this process may not live to do.
 */
function tether(scratch: string | undefined): string {
  const code = `import { rmSync } from 'node:fs'
const scratch = ${JSON.stringify(scratch ?? null)}
const end = () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  process.exit(0)
}
process.stdin.on('end', end).resume()
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, end)`
  return `data:text/javascript,${encodeURIComponent(code)}`
}

/** A YAML or JSON file read as swagger-parser reads it (js-yaml, its JSON schema first). */
async function readDocument(file: string): Promise<Document> {
  const text = await readFile(file, 'utf8')
  try {
    return load(text, { schema: JSON_SCHEMA }) as Document
  } catch {
    return load(text) as Document
  }
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { spec, dynamic = false, host = '127.0.0.1', port = 4010 } = options
  // Read before Prism starts: a document the front cannot read is said at once, not after Prism listens.
  const loaded = await (spec === undefined ? Promise.resolve(shipped) : readDocument(spec))
    .then(loadDocument)
    .catch((error: Error) => {
      throw new Error(`the mock cannot read ${spec}: ${error.message}`)
    })
  // Prism reads a file: the shipped document is written to one of its own while Prism runs.
  const scratch = spec === undefined ? await mkdtemp(join(tmpdir(), 'plant-store-mock-')) : undefined
  const file = scratch === undefined ? (spec as string) : join(scratch, 'openapi.json')
  if (scratch !== undefined) await writeFile(file, JSON.stringify(loaded.document))

  // -m false: one process, so its pid is the one to stop.
  const args = ['mock', file, '--host', '127.0.0.1', '--port', '0', '--multiprocess', 'false']
  const prism = spawn(
    process.execPath,
    ['--import', tether(scratch), prismCli, ...args, ...(dynamic ? ['--dynamic'] : [])],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<number>((resolve) =>
    prism.once('exit', (code, signal) => {
      // At once: the process may exit right after.
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
      resolve(code ?? (signal ? 1 : 0))
    }),
  )
  const stopPrism = async () => {
    prism.kill('SIGTERM')
    const timer = setTimeout(() => prism.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  // Prism's own lines pass through; its address is not one to use, so it is not printed as one.
  const upstream = new Promise<string>((resolve, reject) => {
    let found = false
    prism.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString()
      const address = found ? undefined : prismListening.exec(text)?.[1]
      process.stdout.write(address ? text.replace(prismListening, 'Prism is listening privately') : text)
      if (address === undefined) return
      found = true
      resolve(address)
    })
    void exited.then((code) => reject(new Error(`the mock cannot start: Prism ended (exit ${code})`)))
  })
  try {
    const front = await startMockFront(await upstream, loaded, { host, port }).catch((error: Error) => {
      throw new Error(`the mock cannot listen on ${host}:${port}: ${error.message}`)
    })
    const { port: listening } = front.address() as AddressInfo
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${listening}`,
      exited,
      close: async () => {
        front.close()
        front.closeAllConnections()
        await stopPrism()
      },
    }
  } catch (error) {
    await stopPrism()
    throw error
  }
}
