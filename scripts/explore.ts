// `npm run explore -- [--runs N] [--seed S --path P]`: the generated half of the contract suite
// alone, for a longer search than `npm test` makes, or to replay one failing case exactly.
import { parseArgs } from 'node:util'
import { runToExit } from './lib/processes.js'

const { values } = parseArgs({
  options: { runs: { type: 'string' }, seed: { type: 'string' }, path: { type: 'string' } },
})
if (values.runs !== undefined && !(Number(values.runs) > 0)) {
  console.error('--runs takes a positive number of generated requests')
  process.exit(2)
}
const { exit } = await runToExit({
  name: 'explore',
  command: 'vitest',
  args: ['run', '--config', 'contracts/vitest.config.ts', 'contracts/explore.contract.ts'],
  env: {
    ...(values.runs ? { CONTRACT_RUNS: values.runs } : {}),
    ...(values.seed ? { CONTRACT_SEED: values.seed } : {}),
    ...(values.path ? { CONTRACT_PATH: values.path } : {}),
  },
  timeoutMs: 4 * 60 * 60_000,
  onOutput: (chunk, stream) => process[stream].write(chunk),
})
process.exitCode = typeof exit === 'number' ? exit : 1
