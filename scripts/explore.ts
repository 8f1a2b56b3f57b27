// `npm run explore`: the searching layers of the contract suite alone, for a longer search than
// `npm test` makes, or to replay exactly one case that failed. See docs/contract-suite.md.
//
//   --requests N                generated requests (default 2000), each sent to every target
//   --sequences N               stateful sequences (default 200), shared by the server and the sandbox
//   --only generated|stateful   one layer
//   --seed S --path P [--replay R] [--target T]   replay a failure, as its message prints it
import { readOptions } from './lib/options.js'
import { runToExit } from './lib/processes.js'

const usage = `Usage: npm run explore -- [--requests N] [--sequences N] [--only generated|stateful]
       npm run explore -- --only LAYER --seed S --path P [--replay R] [--target T]

The searching layers of the contract suite alone, for a longer search than npm test makes, or to
replay exactly one case that failed (docs/contract-suite.md).

  --requests N      generated requests (default 2000), each sent to every target
  --sequences N     stateful sequences (default 200), shared by the server and the sandbox
  --only LAYER      one layer: generated or stateful
  --seed S, --path P, --replay R, --target T
                    replay a failure, as its message prints it
  -h, --help        this text`

const values = readOptions(
  {
    requests: { type: 'string' },
    sequences: { type: 'string' },
    only: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    replay: { type: 'string' },
    target: { type: 'string' },
  },
  usage,
)
const fail = (message: string) => {
  console.error(`npm run explore: ${message}`)
  process.exit(2)
}
for (const name of ['requests', 'sequences'] as const) {
  const given = values[name]
  if (given !== undefined && !(Number.isSafeInteger(Number(given)) && Number(given) > 0)) {
    fail(`--${name} takes a positive whole number, not ${given}`)
  }
}
const files = { generated: 'contracts/explore.contract.ts', stateful: 'contracts/stateful.contract.ts' }
if (values.only !== undefined && !(values.only in files)) fail('--only takes generated or stateful')
if (values.seed !== undefined && values.only === undefined)
  fail('a seed belongs to one layer: add --only generated or --only stateful')

const chosen = values.only === undefined ? Object.values(files) : [files[values.only as keyof typeof files]]
const { exit } = await runToExit({
  name: 'explore',
  command: 'vitest',
  args: ['run', '--config', 'contracts/vitest.config.ts', ...chosen],
  env: {
    CONTRACT_REQUESTS: values.requests,
    CONTRACT_SEQUENCES: values.sequences,
    CONTRACT_SEED: values.seed,
    CONTRACT_PATH: values.path,
    CONTRACT_REPLAY: values.replay,
    CONTRACT_TARGETS: values.target,
  },
  timeoutMs: 4 * 60 * 60_000,
  onOutput: (chunk, stream) => process[stream].write(chunk),
})
process.exitCode = typeof exit === 'number' ? exit : 1
