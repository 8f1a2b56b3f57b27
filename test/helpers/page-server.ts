// Serves a test page to a browser: the page's script bundled by esbuild, the HTML shell that loads it,
// MSW's service worker script, and any other files a test gives, on 127.0.0.1 and a free port.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { build } from 'esbuild'
import { repoRoot } from '../../scripts/lib/processes.js'

type Files = Record<string, [type: string, body: string | Uint8Array]>

export async function servePage(script: string, extra: Files = {}) {
  const bundle = await build({
    entryPoints: [join(repoRoot, script)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  })
  const files: Files = {
    '/': ['text/html', await readFile(join(repoRoot, 'test/browser/page.html'))],
    '/page.js': ['text/javascript', bundle.outputFiles[0]?.contents ?? ''],
    // The worker script MSW's `npx msw init` would copy into an app's public folder.
    '/mockServiceWorker.js': [
      'text/javascript',
      await readFile(join(repoRoot, 'node_modules/msw/lib/mockServiceWorker.js')),
    ],
    ...extra,
  }
  const server = createServer((req, res) => {
    const file = files[req.url ?? '']
    if (!file) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': file[0] }).end(file[1])
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
