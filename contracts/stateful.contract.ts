// The stateful, model-based layer of the contract suite: random sequences of create, list (every page,
// through Link), get, replace and delete, for two principals, run with fast-check's model-based testing
// on the real server (on SQLite and on PostgreSQL) and the sandbox, and checked against a model of the
// store (src/verify/sequences/store-model.ts). The operations come from the document's links
// (src/verify/sequences/api.ts), the commands over them from src/verify/sequences/commands.ts.
//
// Properties, on every step: read-your-writes (a plant reads back exactly as the model holds it, ids
// digit for digit); 404 after a delete, and the plant gone from the list; 409 on a taken id, nothing
// changed; pages in ascending id order with no gap and no repeat, Link exactly when more plants follow,
// each page starting after the last plant of the page before when plants are created or deleted between
// page reads; a filtered list holds exactly the plants with that tag; one principal's writes never show
// to the other; every answer conforms to the document.
//
// CONTRACT_SEQUENCES=N   sequences in all (default 200), shared between the targets
// CONTRACT_SEED=S   the seed (default: a new one, printed and written to reports/stateful.md)
// CONTRACT_PATH=P and CONTRACT_REPLAY=R   replay one counterexample exactly, as a failure prints it
// CONTRACT_TARGETS=server|postgres|sandbox  one target only
// CONTRACT_TIME_LIMIT_MS=T                the most time for one target's sequences and shrinking
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { INSTALL_HINT, postgresBinDir } from '../scripts/lib/postgres.js'
import { repoRoot } from '../scripts/lib/processes.js'
import { loadDocument } from '../src/verify/document.js'
import { type Api, deriveApi, describeApi } from '../src/verify/sequences/api.js'
import { RequestCounts } from '../src/verify/sequences/request-counts.js'
import { type RunResult, runTarget } from '../src/verify/sequences/run.js'
import { writeReport } from '../src/verify/sequences/run-report.js'
import { describeNewPlantEvents } from './lib/event-tests.js'
import {
  chosenTargets,
  contractSpecPath,
  type Running,
  startTargets,
  type TargetName,
} from './lib/targets.js'

// The real server on PostgreSQL too, where its binaries are installed (always on CI).
const postgres = postgresBinDir() !== undefined || process.env.CI === 'true'
if (!postgres) console.warn(`stateful: the real server on PostgreSQL is not tested: ${INSTALL_HINT}`)
const ALL_TARGETS: TargetName[] = [
  'server',
  ...(postgres ? ['postgres' as const] : []),
  'sandbox',
  'handlers',
]
const TARGETS = chosenTargets(ALL_TARGETS)

function integerFromEnv(name: string): number | undefined {
  const text = process.env[name]?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${text}`)
  return value
}

const RUNS = Math.max(1, integerFromEnv('CONTRACT_SEQUENCES') ?? 200)
const RUNS_PER_TARGET = Math.ceil(RUNS / Math.max(1, TARGETS.length))
// fast-check seeds are 32-bit integers.
const SEED = integerFromEnv('CONTRACT_SEED') ?? (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0
const PATH = process.env.CONTRACT_PATH?.trim() || undefined
const REPLAY = process.env.CONTRACT_REPLAY?.trim() || undefined
const MAX_COMMANDS = 25
// The bound of each target's search, whatever the document: every request has its own time-out
// (src/verify/http.ts), and the sequences stop here, saying how many ran. Generous, because a slow
// machine that runs fewer sequences is reported, not failed; only a run that ends none fails.
const TIME_LIMIT_MS = integerFromEnv('CONTRACT_TIME_LIMIT_MS') ?? 15 * 60_000

const loaded = await loadDocument(contractSpecPath)
const { document, operations } = loaded
let api: Api | undefined
let deriveError: unknown
try {
  api = deriveApi(operations)
} catch (error) {
  deriveError = error
}

let running: Running | undefined
const counts = new RequestCounts()
const results: RunResult[] = []
const startedAt = Date.now()

beforeAll(async () => {
  running = await startTargets(TARGETS, loaded)
}, 120_000)

afterAll(async () => {
  await running?.stop()
  writeReport(`${repoRoot}reports/stateful.md`, results, counts, {
    derived: api ? describeApi(api) : [`could not derive the commands: ${String(deriveError)}`],
    settings: [
      `Seed ${SEED}${PATH ? `, replaying path ${PATH}` : ''}; targets ${TARGETS.join(', ')}`,
      `${RUNS_PER_TARGET} sequences per target (CONTRACT_SEQUENCES=${RUNS}), at most ${MAX_COMMANDS} commands each, 2 principals each`,
      `Time limit ${TIME_LIMIT_MS} ms per target; the whole file took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
    ],
  })
}, 30_000)

describe('stateful: the document', () => {
  test('its links give a create operation, the operations it links to and a list to walk', () => {
    if (!api) throw deriveError
    expect(api.linked.length, 'links of the create operation').toBeGreaterThan(0)
    expect(api.list, 'a GET on the create path').toBeDefined()
  })
})

for (const name of TARGETS) {
  // The targets are separate processes: their sequences run side by side, one test each.
  describe.concurrent(`${name}: model-based sequences`, () => {
    test(
      `${PATH ? `the replayed counterexample (seed ${SEED})` : `${RUNS_PER_TARGET} sequences`}: every answer agrees with the model and the document`,
      async () => {
        if (!api) throw deriveError
        const target = running?.targets[name]
        if (!target) throw new Error(`${name} did not start`)
        const result = await runTarget({
          target,
          api,
          document,
          runs: RUNS_PER_TARGET,
          seed: SEED,
          maxCommands: MAX_COMMANDS,
          timeLimitMs: TIME_LIMIT_MS,
          counts,
          ...(PATH === undefined ? {} : { path: PATH }),
          ...(REPLAY === undefined ? {} : { replayPath: REPLAY }),
        })
        results.push(result)
        console.log(
          `stateful ${name}: seed ${result.seed}, ${result.sequences} sequences, ${result.commands} commands, ${result.requests} requests in ${(result.ms / 1000).toFixed(1)} s`,
        )
        if (result.note) console.warn(`stateful ${name}: ${result.note}`)
        if (result.leftovers.length)
          console.warn(
            `stateful ${name}: ${result.leftovers.length} principal(s) could not be emptied: see reports/stateful.md`,
          )
        if (result.report) throw new Error(result.report)
      },
      TIME_LIMIT_MS + 60_000,
    )
  })
}

// Last, after every target's sequences: each create of theirs has been answered by now.
describeNewPlantEvents(TARGETS, () => running)
