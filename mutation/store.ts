// The store under mutation: the kit's server built from the sources of the directory it is started in
// (Stryker's sandbox, instrumented), listening on 127.0.0.1, driven over IPC by the verifier runner.
// Run with `node --import tsx` in that directory: tsx maps `@plant-store/core` to the sandbox's
// instrumented core through its tsconfig.json, while the runner's verifier keeps the original one.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { serveRunner, storeEnv } from './store-protocol.js'

await serveRunner(async () => {
  const root = process.cwd()
  const app = await import(pathToFileURL(join(root, 'src/server/app.ts')).href)
  const config = await import(pathToFileURL(join(root, 'src/server/config.ts')).href)
  const built = await app.buildApp({ config: config.loadConfig(storeEnv()), logger: false })
  const url: string = await built.listen({ host: '127.0.0.1', port: 0 })
  // Where the store's core was loaded from: the runner checks it is not the verifier's.
  return { url, coreUrl: import.meta.resolve('@plant-store/core'), close: () => built.close() }
})
