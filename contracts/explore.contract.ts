// The exploring half of the contract suite: fast-check generates requests from the document (valid
// ones and ones with exactly one defect), sends each to every target, and judges every answer by
// the document alone. Where a target departs from it, the departure must be a class listed in
// contracts/deviations.ts; an unlisted one fails with the shrunk request, the answers, the seed and
// the command that replays it. A listed class that never occurs fails the run too.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BODY_LIMIT } from '@plant-store/core'
import { loadDocument } from '@plant-store/verify'
import {
  describeAnswer,
  describeHousekeeping,
  describeProbe,
  expectedStatus,
  type Housekeeping,
  judgeProbe,
  Principal,
  type Probe,
  probeArbitrary,
  stateOf,
} from '@plant-store/verify/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { repoRoot } from '../scripts/lib/processes.js'
import { givenPlants } from '../scripts/lib/spec.js'
import { type ExplorationDeviation, explorationDeviations } from './deviations.js'
import { describeNewPlantEvents } from './lib/event-tests.js'
import {
  chosenTargets,
  contractSpecPath,
  type Running,
  startTargets,
  type TargetName,
} from './lib/targets.js'

const TARGETS = chosenTargets(['server', 'sandbox', 'mock', 'handlers', 'examples'])
const runs = Number(process.env.CONTRACT_REQUESTS || 2000)
// The bound of the search, whatever the document: each request has its own time-out (http.ts), and
// the whole search, shrinking included, stops here and says how far it got. Generous: a slow machine
// that gets fewer requests done is reported, not failed.
const TIME_LIMIT_MS = Number(process.env.CONTRACT_TIME_LIMIT_MS || 15 * 60_000)
// How many probes to draw, without sending them, when looking for one of a deviation class.
const CLASS_SEARCH_DRAWS = 5000
const replaying = process.env.CONTRACT_SEED !== undefined
// A seed of our own, not fast-check's hidden one, so that the report can name it.
const seed = replaying
  ? Number(process.env.CONTRACT_SEED)
  : (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0
const path = process.env.CONTRACT_PATH || undefined

const loaded = await loadDocument(contractSpecPath, 'kit')
const { document, operations } = loaded
const state = stateOf(givenPlants(document))
const probes = probeArbitrary(operations, BODY_LIMIT).map((probe) =>
  Object.assign(probe, { [fc.toStringMethod]: () => describeProbe(probe) }),
)
let running: Running | undefined
const principals = new Map<TargetName, Principal>()

/** Outcomes by operation, request class, target and outcome, for the report. */
const tally = new Map<string, number>()
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1)
const met = new Map<ExplorationDeviation, number>()
let sent = 0
let explored = 0
/** Why the search ended before its requests were all sent, when it did. */
let stoppedEarly: string | undefined
/** Listed classes that no request drawn from this document belongs to. */
const idle: ExplorationDeviation[] = []

beforeAll(async () => {
  running = await startTargets(TARGETS, loaded)
  for (const name of TARGETS) {
    const target = running.targets[name]
    if (!target) throw new Error(`${name} did not start`)
    const principal = new Principal(target, state)
    await kept(principal, principal.reset())
    principals.set(name, principal)
  }
}, 120_000)

afterAll(async () => {
  await running?.stop()
  writeReport()
}, 30_000)

/** Throws when a request that sets up or undoes a principal's plants got another status than the document's. */
async function kept(principal: Principal, done: Promise<Housekeeping | undefined>): Promise<void> {
  const wrong = await done
  if (wrong) throw new Error(describeHousekeeping(principal.target.name, wrong))
}

/** Sends one probe to every target and judges each answer; throws what is wrong, all of it. */
async function check(probe: Probe): Promise<void> {
  const results = await Promise.all(
    TARGETS.map(async (name) => {
      const principal = principals.get(name)
      if (!principal) throw new Error(`${name} has no principal`)
      const stateful = principal.target.stateUrl !== undefined
      const { answer, readBack } = await principal.send(probe).catch((error: Error) => {
        // A target that no longer answers: say which, and what its process said last.
        const ended = (running?.processes ?? [])
          .filter((p) => p.exit() !== undefined)
          .map((p) => `${p.name} ended (${p.exit()}):\n${p.output().split('\n').slice(-20).join('\n')}`)
        throw new Error(
          `the ${name} did not answer: ${error.message}${ended.length ? `\n${ended.join('\n')}` : ''}`,
        )
      })
      sent++
      const verdict = judgeProbe(probe, state, answer, { stateful, readBack })
      return { name, principal, verdict }
    }),
  )
  const failures: string[] = []
  for (const { name, principal, verdict } of results) {
    const { answer } = verdict
    const klass = probe.defect ?? 'valid'
    let outcome = 'as documented'
    if (verdict.findings.length > 0) {
      const deviation = explorationDeviations.find(
        (d) => d.target === name && d.when(probe, verdict.expected) && d.answers.includes(answer.status),
      )
      if (deviation) {
        met.set(deviation, (met.get(deviation) ?? 0) + 1)
        outcome = `listed: ${deviation.name}`
      } else {
        outcome = 'NOT AS DOCUMENTED'
        failures.push(
          [
            `on the ${name}: ${describeAnswer(answer)}`,
            ...verdict.findings.map((f) => `  - ${f.message}`),
          ].join('\n'),
        )
      }
    }
    count(`${probe.entry.operationId}\t${klass}\t${name}\t${outcome}`)
    await kept(principal, principal.undo(probe, answer.status, verdict.findings.length === 0))
  }
  if (failures.length > 0) {
    const server = results.find((r) => r.name === 'server')?.verdict.answer
    throw new Error(
      [
        `${probe.entry.operationId} · ${probe.defect ?? 'valid request'}${probe.features.length ? ` (${probe.features.join(', ')})` : ''}`,
        `  request: ${describeProbe(probe)}`,
        ...(server ? [`  server:  ${describeAnswer(server)}`] : []),
        ...failures,
      ].join('\n'),
    )
  }
}

describe('generated requests, judged by the document, on every target', () => {
  test(
    `${runs} generated requests`,
    async () => {
      const details = await fc.check(fc.asyncProperty(probes, check), {
        numRuns: runs,
        seed,
        ...(path === undefined ? {} : { path }),
        // Shrinking sends requests too: the limit covers it.
        interruptAfterTimeLimit: TIME_LIMIT_MS,
      })
      explored = details.numRuns
      if (details.failed) {
        const text = fc.defaultReportMessage(details) ?? 'the search failed'
        const cause = details.errorInstance
        const full = `${text}${cause instanceof Error && !text.includes(cause.message) ? `\n\n${cause.message}` : ''}`
        const replay =
          details.counterexamplePath === null
            ? ''
            : `\nReplay exactly this case: npm run explore -- --only generated --seed=${details.seed} --path=${details.counterexamplePath}\n`
        throw new Error(
          `${full}${details.interrupted ? '\n(shrinking stopped at the time limit)' : ''}${replay}`,
        )
      }
      if (details.interrupted) {
        stoppedEarly = `stopped at the time limit (CONTRACT_TIME_LIMIT_MS=${TIME_LIMIT_MS}) after ${details.numRuns} of ${runs} requests, all as documented (seed ${seed})`
        console.warn(`generated requests: ${stoppedEarly}`)
        // A search that judged nothing proves nothing.
        expect(details.numRuns, 'generated requests judged before the time limit').toBeGreaterThan(0)
      }
    },
    TIME_LIMIT_MS + 5 * 60_000,
  )

  test('every deviation class listed in contracts/deviations.ts still occurs', async () => {
    if (replaying || path !== undefined) return
    const unmet = explorationDeviations.filter((d) => !met.has(d) && TARGETS.includes(d.target))
    if (unmet.length === 0) return
    // A class the search did not meet is looked for on purpose: a few probes of that class, found
    // among a bounded number drawn (no filter: a class the document cannot produce has no probe).
    const drawn = fc.sample(probes, { numRuns: CLASS_SEARCH_DRAWS, seed })
    const missing: string[] = []
    for (const deviation of unmet) {
      const principal = principals.get(deviation.target)
      if (!principal) throw new Error(`${deviation.target} has no principal`)
      const candidates = drawn.filter((p) => deviation.when(p, expectedStatus(p, state))).slice(0, 10)
      if (candidates.length === 0) {
        idle.push(deviation)
        console.warn(
          `not looked for: ${deviation.target}: ${deviation.name}: none of ${CLASS_SEARCH_DRAWS} requests drawn from this document is of that class`,
        )
        continue
      }
      for (const probe of candidates) {
        const { answer } = await principal.send(probe)
        const verdict = judgeProbe(probe, state, answer, {
          stateful: principal.target.stateUrl !== undefined,
        })
        await kept(principal, principal.undo(probe, answer.status, verdict.findings.length === 0))
        if (verdict.findings.length > 0 && deviation.answers.includes(answer.status)) {
          met.set(deviation, 1)
          break
        }
      }
      if (!met.has(deviation)) missing.push(`${deviation.target}: ${deviation.name}`)
    }
    expect(
      missing,
      `listed, but no longer happens (remove it from contracts/deviations.ts):\n${missing.join('\n')}`,
    ).toEqual([])
  }, 120_000)
})

// Last: every create of the search, and of the classes looked for, has been answered by now.
describeNewPlantEvents(TARGETS, () => running)

function writeReport(): void {
  const rows = [...tally]
    .map(([key, n]) => [...key.split('\t'), String(n)])
    .sort((a, b) => a.join().localeCompare(b.join()))
  const lines = [
    '# Generated requests',
    '',
    `${explored} of ${runs} generated requests (seed ${seed}), each sent to ${TARGETS.join(', ')}: ${sent} answers judged.`,
    ...(stoppedEarly ? ['', `The search ${stoppedEarly}.`] : []),
    '',
    '| operation | request class | target | outcome | requests |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    '## Deviation classes met',
    '',
    ...explorationDeviations.map(
      (d) =>
        `- ${d.target}: ${d.name}: ${idle.includes(d) ? 'no such request in this document' : (met.get(d) ?? 0)}`,
    ),
    '',
  ]
  mkdirSync(join(repoRoot, 'reports'), { recursive: true })
  writeFileSync(join(repoRoot, 'reports', 'exploration.md'), lines.join('\n'))
}
