// `npm run planted`: every planted bug on three seeds, a line per bug saying on which seeds the
// verifier caught it (filed a failure under the bug's promise); exit code 1 if any was missed on any
// seed. Names given after `--` (bugs or promises) run only those.
import { PLANTED_BUGS, type PlantedBug } from './registry.js'
import { foundText, runPlanted, SEEDS } from './run.js'

const wanted = process.argv.slice(2)
const bugs = PLANTED_BUGS.filter(
  (b) => !wanted.length || wanted.includes(b.bug) || wanted.includes(b.promise),
)
if (!bugs.length) {
  console.error(`no planted bug is named ${wanted.join(', ')}`)
  process.exit(2)
}

/** One bug on every seed: `caught` or `missed` per seed, and what the runs that missed it found. */
async function onEverySeed(bug: PlantedBug): Promise<{ line: string; missed: boolean }> {
  const cells: string[] = []
  const found: string[] = []
  for (const seed of SEEDS) {
    const run = await runPlanted(bug, seed)
    const cell = { filed: 'caught', judged: 'caught by its check, not filed under it', missed: 'MISSED' }
    cells.push(`${seed} ${cell[run.verdict]}`)
    if (run.verdict === 'missed') found.push(`    seed ${seed} found: ${foundText(run.results)}`)
  }
  const name = `${bug.store} ${bug.bug}${bug.variant ? ` (${bug.variant})` : ''} → ${bug.promise}`
  return { line: [`${name}: ${cells.join(', ')}`, ...found].join('\n'), missed: found.length > 0 }
}

// Two bugs at a time: a store and the verifier each keep a core busy.
const started = Date.now()
let missed = 0
let next = 0
await Promise.all(
  [0, 1].map(async () => {
    while (next < bugs.length) {
      const bug = bugs[next++] as PlantedBug
      const result = await onEverySeed(bug)
      console.log(result.line)
      if (result.missed) missed++
    }
  }),
)
const seconds = Math.round((Date.now() - started) / 1000)
console.log(
  missed
    ? `${missed} of ${bugs.length} planted bugs missed on some seed (${SEEDS.join(', ')}), in ${seconds} s`
    : `All ${bugs.length} planted bugs caught on every seed (${SEEDS.join(', ')}), in ${seconds} s`,
)
process.exitCode = missed ? 1 : 0
