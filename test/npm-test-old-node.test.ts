// `npm test` on a Node release the kit does not support says the one sentence `npm start` says, and
// exits 1 before any stage runs, instead of a cascade of failed stages.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { repoRoot, runToExit } from '../scripts/lib/processes.js'

it('npm test on Node 20 says which Node it needs, in one line, and exits 1', async () => {
  const olderNode = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})'
  const { exit, output } = await runToExit({
    name: 'npm test on an old Node',
    command: process.execPath,
    args: ['--import', olderNode, '--import', 'tsx', join(repoRoot, 'scripts', 'test.ts')],
    env: { ...process.env, NO_COLOR: '1' },
    timeoutMs: 15_000,
  })
  expect(exit).toBe(1)
  expect(output.trim()).toBe(
    'The plant store needs Node.js 22.12 or newer (22, 24 or 26); this is Node 20.20.2.',
  )
})
