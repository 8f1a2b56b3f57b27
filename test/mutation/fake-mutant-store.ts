// A stand-in for an instrumented store, for the runner's own test: the kit's server from its sources,
// with two fake mutants that read and record globalThis.__stryker__ as instrumented code does.
// Mutant 1 answers a create 201 instead of the document's 200; mutant 2 changes nothing an answer shows;
// mutant 3 leaves Retry-After out of a 429, which only a run that spends a quota meets.
import { serveRunner, storeEnv, strykerGlobal } from '../../mutation/store-protocol.js'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'

await serveRunner(async () => {
  const app = await buildApp({ config: loadConfig(storeEnv()), logger: false })
  const stryker = strykerGlobal()
  app.addHook('onSend', async (request, reply, payload) => {
    // What the instrumenter's coverage call does for the mutants of one line.
    stryker.mutantCoverage ??= { static: {}, perTest: {} }
    const { perTest } = stryker.mutantCoverage
    const testId = stryker.currentTestId
    if (testId) perTest[testId] ??= {}
    const hits = (testId && perTest[testId]) || stryker.mutantCoverage.static
    for (const id of ['1', '2', '3']) hits[id] = (hits[id] ?? 0) + 1
    if (stryker.activeMutant === '1' && request.method === 'POST' && reply.statusCode === 200) reply.code(201)
    if (stryker.activeMutant === '3' && reply.statusCode === 429) reply.removeHeader('retry-after')
    return payload
  })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url, coreUrl: 'fake-store:no-core', close: () => app.close() }
})
