// The benchmark's options (bench/README.md explains them) and the settings they make: rounds, durations,
// store sizes, and what the quick run leaves out.
import { parseArgs } from 'node:util'
import { LAYERS, type Layer, layersWithout } from './server-without.js'

export function benchSettings() {
  const { values: args } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      keep: { type: 'boolean', default: false },
      /** Comma-separated scenario name prefixes, e.g. `listPlants,durability`: the others are skipped. */
      only: { type: 'string' },
      /** Runs the load-tested servers with node --cpu-prof; profiles go to reports/profiles-<time>/. */
      'cpu-prof': { type: 'boolean', default: false },
      /** Another build's server.js (e.g. a scratch copy with a change), loaded alongside on its own store. */
      candidate: { type: 'string', multiple: true },
      /**
       * A fixed offered load (req/s) instead of saturation: CPU µs/req then compares builds more steadily
       * than req/s does on a machine that other work disturbs. Latencies mean little then: autocannon sends
       * each second's budget in a burst.
       */
      rate: { type: 'string' },
      /** The ledger's rows: layers (`+` joins several into one row, `all` is every one), comma-separated, or `none`. */
      layers: { type: 'string' },
    },
  })
  const only = args.only?.split(',').map((s) => s.trim())

  const quick = args.quick === true
  // The large store serves getPlant and listPlants alone: a run without them does without it.
  const readsWanted =
    only === undefined ||
    only.some((prefix) =>
      ['getplant', 'listplants', 'ledger'].some((name) => name.startsWith(prefix.toLowerCase())),
    )
  const settings = {
    quick,
    // Many short rounds rather than a few long ones: medians over rounds shrug off bursts of other work.
    rounds: Number(args.rounds ?? (quick ? 1 : 5)),
    /** Seconds of measured load per target per round. */
    // Half a second proves a load works: the quick run measures nothing.
    duration: Number(args.duration ?? (quick ? 0.5 : 3)),
    /**
     * Seconds of unmeasured load before a target's first round, so the JIT has settled: under load the
     * server was still compiling functions by the hundred 4 to 6 s in (bench/README.md), bare Fastify
     * for about 4 s.
     */
    warmup: Number(args.warmup ?? (quick ? 0 : 5)),
    connections: Number(args.connections ?? 32),
    rate: args.rate === undefined ? undefined : Number(args.rate),
    smallStore: 1_000,
    largeStore: quick || !readsWanted ? undefined : 1_000_000,
    /** The larger PostgreSQL store; the quick run keeps it small, so that it stays quick. */
    largePostgresStore: quick ? 10_000 : 1_000_000,
    prism: !quick,
    durabilityCycles: quick ? 1 : 3,
    killAfter: quick ? 0.5 : 2,
    /** Starts of the server and of the baseline each, alternating, to compare the two (starts.ts). */
    starts: quick ? 1 : 5,
    /** Extra restarts of the server on the largest store, only to time the start. */
    extraStarts: quick || !readsWanted ? 0 : 3,
    /**
     * The cost ledger's rows: servers each without some layers, loaded as further targets of the
     * createPlant, getPlant and listPlants scenarios, in their rounds (throughput.ts), so that the
     * ledger's server and baseline are the scenarios' own. The quick run proves the ledger works with one
     * row, every layer taken away at once, which takes each layer's own way out; the full run has a row
     * for each layer too.
     */
    ledgerRows: ledgerLayers(args.layers ?? (quick ? 'all' : undefined)),
  }
  for (const key of ['rounds', 'duration', 'connections'] as const) {
    if (!(settings[key] > 0 && settings[key] <= 600)) throw new Error(`--${key} must be in 1..600`)
  }
  if (settings.rate !== undefined && !(settings.rate > 0)) throw new Error('--rate must be a positive number')
  return { args, settings, only }
}

export type BenchSettings = ReturnType<typeof benchSettings>['settings']

export const USAGE =
  'npm run bench -- [--help] [--quick] [--only PREFIX,…] [--rounds N] [--duration S] [--warmup S] [--connections N] ' +
  '[--rate REQ_PER_S] [--candidate SERVER_JS]… [--layers LAYER[+LAYER],…|all|none] [--cpu-prof] [--keep]'

/** What `--help` prints: the usage, then each option in a line. */
export const HELP = `Usage: ${USAGE}

Loads the real server (built, as npm start runs it) and a bare-Fastify baseline in alternation, and
prints each scenario's CPU per request, req/s and latency against the baseline's (bench/README.md).

  --quick                 about a minute: proves the script works; its figures are not measurements
  --only PREFIX,…         only the scenarios whose names start so: createPlant, getPlant, listPlants,
                          webhooks, ledger, handlers, verify, durability, postgresql
  --rounds N              rounds of load per target (default 5)
  --duration S            seconds of measured load per target and round (default 3)
  --warmup S              seconds of unmeasured load before a target's first round (default 5)
  --connections N         concurrent connections of the load (default 32)
  --rate REQ_PER_S        a fixed offered load instead of saturation
  --candidate SERVER_JS   another build's server.js, loaded alongside (repeatable)
  --layers ROWS           the ledger's rows: LAYER[+LAYER],… or all or none (default: each layer, then all)
  --cpu-prof              profiles of the loaded servers, to reports/profiles-<time>/
  --keep                  keeps the stores and logs of the run
  -h, --help              this text`

/** The settings of this process's command line; a mistyped option is told in one line with the usage, exit 2. */
export function commandLineSettings(): ReturnType<typeof benchSettings> {
  let parsed: ReturnType<typeof benchSettings>
  try {
    parsed = benchSettings()
  } catch (error) {
    // Node's parseArgs adds a second sentence on positional arguments, which this command takes none of.
    const [message] = (error as Error).message.split(/\.(\s|$)/)
    console.error(`bench: ${message}. Usage: ${USAGE}`)
    process.exit(2)
  }
  if (parsed.args.help) {
    console.log(HELP)
    process.exit(0)
  }
  return parsed
}

/**
 * The ledger's rows, each the layers one server goes without, in the table's order: by default each
 * layer alone, then every layer at once (what the server's own plumbing costs). `--layers` names other
 * rows, comma-separated: a layer, layers joined by `+` (taken away together), `all`, or `none` (no row:
 * the server and the candidates alone).
 */
function ledgerLayers(value: string | undefined): readonly (readonly Layer[])[] {
  if (value === undefined) return [...LAYERS.map((layer) => [layer]), LAYERS]
  if (value === 'none') return []
  return value
    .split(',')
    .map((row) => row.trim())
    .filter((row) => row !== '')
    .map((row) => {
      if (row === 'all') return LAYERS
      const named = layersWithout(row.replaceAll('+', ','))
      return LAYERS.filter((layer) => named.has(layer))
    })
}
