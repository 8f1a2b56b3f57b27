// The contract suite: proves that the document, the real server, the sandbox, the Prism mock and
// the validating proxy agree, example by example and for generated negative cases.

import { nextAddress } from '@plant-store/core'
import { documentedStatuses, loadDocument, type OperationEntry } from '@plant-store/verify'
import {
  type Answer,
  type ConventionProblem,
  describeAnswer,
  exampleCases,
  generatedCases,
  judgeAnswer,
  type Plant,
  send,
} from '@plant-store/verify/testing'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as commands from '../scripts/lib/commands.js'
import { INSTALL_HINT, postgresBinDir } from '../scripts/lib/postgres.js'
import { repoRoot, runToExit } from '../scripts/lib/processes.js'
import { givenPlants, specPath } from '../scripts/lib/spec.js'
import { deviations } from './deviations.js'
import { describeNewPlantEvents } from './lib/event-tests.js'
import { CONTRACT_HEADERS_TIMEOUT_MS, CONTRACT_RATE_LIMIT, TRANSPORT_DERIVATIONS } from './lib/kit-rules.js'
import { CaseRunner, expectationOf } from './lib/run-case.js'
import {
  authorization,
  chosenTargets,
  contractSpecPath,
  isStateless,
  listAll,
  REAL_SERVER_TARGETS,
  setUpPlants,
  startTargets,
  type TargetName,
} from './lib/targets.js'

// The real server on PostgreSQL needs its binaries; CI has them (.ci/run installs them).
const postgres = postgresBinDir() !== undefined || process.env.CI === 'true'
if (!postgres) console.warn(`the real server on PostgreSQL is not tested: ${INSTALL_HINT}`)
const ALL_TARGETS: TargetName[] = [
  'server',
  ...(postgres ? ['postgres' as const] : []),
  'sandbox',
  'proxy',
  'mock',
  'handlers',
  'examples',
]
const TARGETS = chosenTargets(ALL_TARGETS)

const loaded = await loadDocument(contractSpecPath, 'kit')
const { document, operations } = loaded
const conventionProblems: ConventionProblem[] = []
const examples = exampleCases(operations, conventionProblems, { rateLimit: CONTRACT_RATE_LIMIT })
const generated = generatedCases(operations)

/** Deviation classes that cover no case of the document under test. */
const idleClasses = deviations.filter((d) => ![...examples, ...generated].some((c) => d.when(c)))

const runner = new CaseRunner(
  operations,
  [...TARGETS, ...TARGETS.filter(isStateless).map((name) => `${name} (Prefer)`)],
  document.components?.schemas?.Error,
)
const { coverage } = runner
const target = (name: TargetName) => runner.target(name)
/** What is wrong with an answer of an operation, judged by the document alone. */
const problemsOf = (entry: OperationEntry, answer: Answer, requiredHeaders?: string[]) =>
  judgeAnswer(entry, answer, requiredHeaders ? { requiredHeaders } : {}).findings.map((f) => f.message)
/** The lowest documented 2xx: what Prism answers a valid request with when no Prefer says otherwise. */
const lowestSuccess = (entry: OperationEntry) =>
  Math.min(...documentedStatuses(entry).filter((s) => s >= 200 && s < 300))

beforeAll(async () => {
  runner.running = await startTargets(TARGETS, loaded, {
    rateLimitMax: CONTRACT_RATE_LIMIT,
    headersTimeoutMs: CONTRACT_HEADERS_TIMEOUT_MS,
  })
}, 120_000)

afterAll(async () => {
  await runner.running?.stop()
  // A Prefer column is its target asked otherwise: the same address.
  const urlOf = (name: string) =>
    runner.running?.targets[name.replace(/ \(Prefer\)$/, '') as TargetName]?.url ?? 'not started'
  coverage.write(`${repoRoot}reports`, urlOf, [
    `Targets: ${TARGETS.join(', ')}. Deviation classes listed in contracts/deviations.ts: ${deviations.length}.`,
  ])
}, 30_000)

// ---- The tests ---------------------------------------------------------------------------------

describe('the document', () => {
  test('pairs every request example with a response example, as its conventions say', () => {
    const lines = conventionProblems.map((p) => `${p.operationId}: ${p.message}`)
    expect(lines, lines.join('\n')).toEqual([])
  })

  test('every deviation class in contracts/deviations.ts covers some case of the suite', () => {
    const idle = idleClasses.map((d) => `${d.target}: ${d.name}`)
    if (contractSpecPath !== specPath) {
      // Another document (a draft, or a release the gate replays) may lack what a class is about.
      if (idle.length) console.warn(`classes this document gives no case for:\n${idle.join('\n')}`)
      return
    }
    expect(idle, `classes that cover no case:\n${idle.join('\n')}`).toEqual([])
  })
})

/**
 * Whether a target can be shown a derived case at all. A store that is down: only where the target
 * has such an instance (PostgreSQL's). A stalled request: only where the headers timeout is the
 * short one startTargets gives (the real server and the sandbox); Prism's and the handlers' hosts
 * wait a minute, and the in-process handlers have no connection of their own to time out. Headers
 * over the limit: not through the validating proxy, whose own HTTP server parses the request first,
 * a hop of the suite's making, not the server's.
 */
function canShow(targetName: TargetName, c: (typeof examples)[number]): boolean {
  switch (c.derivation?.kind) {
    case 'store-down':
      return targetName === 'postgres'
    case 'stalled':
      return ['server', 'postgres', 'sandbox'].includes(targetName)
    case 'oversized-headers':
      return targetName !== 'proxy'
    // The targets take failed authentications without a limit a case could spend (their limits are
    // generous): the verifier's security layer judges this 429 against a store set up for it.
    case 'over-failed-auth-limit':
      return false
    default:
      return true
  }
}

/** A stalled request is answered only once the target's headers timeout is up: a wait, not work. */
const waits = (c: (typeof examples)[number]) => c.derivation?.kind === 'stalled'

for (const targetName of TARGETS) {
  describe(`${targetName}: document examples`, () => {
    const shown = examples.filter((c) => canShow(targetName, c))
    for (const c of shown.filter((c) => !waits(c))) test(c.id, () => runner.run(targetName, c))
    // Last and together, each on a principal and a connection of its own, so that the waits overlap.
    for (const c of shown.filter(waits)) test.concurrent(c.id, () => runner.run(targetName, c))
  })
  describe(`${targetName}: generated cases`, () => {
    for (const c of generated) test(c.id, () => runner.run(targetName, c))
  })
}

for (const statelessName of TARGETS.filter(isStateless)) {
  describe(`${statelessName}: Prefer returns exactly the example`, () => {
    for (const c of examples) {
      // Prism picks the example within the status it chose: without `code` that is the lowest 2xx for
      // a valid request, and it honours `example` on an invalid request only together with `code`.
      const prefers = [c.body ? `code=${c.status}, example=${c.example}` : `code=${c.status}`]
      if (c.body && c.status === lowestSuccess(c.entry) && c.request.auth.kind === 'principal') {
        prefers.push(`example=${c.example}`)
      }
      for (const prefer of prefers) {
        test(`${c.id} (Prefer: ${prefer})`, async () => {
          const t = target(statelessName)
          // What no operation reads (another method, a long segment, huge or unfinished headers) is
          // asked for on the operation's own base request: the example is then the operation's to give.
          // So is a body Prism refuses itself before it reads Prefer (no media type, none, one over
          // the limit that is not JSON, JSON of whitespace only), which it would answer with its own
          // 415, 400 or 500.
          const request =
            c.derivation &&
            (TRANSPORT_DERIVATIONS.has(c.derivation.kind) || c.derivation.kind === 'raw-body') &&
            c.baseRequest
              ? c.baseRequest
              : c.request
          const answer = await send(t.url, request, authorization(t, request.auth, t.newToken()), {
            prefer,
          })
          const expected = expectationOf(c)
          const { checked, problems } = runner.conformance(c, answer, expected, { exactBody: true })
          if (problems.length)
            throw new Error(
              runner.message(
                c,
                `${statelessName} (Prefer: ${prefer})`,
                request,
                [],
                expected,
                answer,
                problems,
              ),
            )
          runner.exercised(
            `${statelessName} (Prefer)`,
            c,
            request,
            answer,
            checked,
            `${c.id} (Prefer: ${prefer})`,
          )
        })
      }
    }
  })
}

// Behaviour the document describes in prose, on every stateful target.
for (const targetName of TARGETS.filter((t) => !isStateless(t))) {
  describe(`${targetName}: prose of the document`, () => {
    const listPlants = operations.find((o) => o.operationId === 'listPlants')
    const getPlant = operations.find((o) => o.operationId === 'getPlant')

    test('listPlants: following the Link header as it is reaches the next and last page', async () => {
      if (!listPlants) throw new Error('the document has no listPlants')
      const t = target(targetName)
      const token = t.newToken()
      const plants: Plant[] = [
        { id: 1, name: 'Basil', tag: 'herb' },
        { id: 2, name: 'Fern' },
      ]
      await setUpPlants(t, token, plants)
      const auth = `Bearer ${token}`
      const first = await send(
        t.url,
        { method: 'GET', path: '/plants?limit=1', auth: { kind: 'principal' } },
        auth,
      )
      const firstProblems = problemsOf(listPlants, first, ['link'])
      expect(first.json, `page 1: ${describeAnswer(first)}\n${firstProblems.join('\n')}`).toEqual([plants[0]])
      expect(firstProblems, describeAnswer(first)).toEqual([])
      const linked = nextAddress(first.headers.link)
      if (!linked) throw new Error(`page 1 has no Link to follow: ${describeAnswer(first)}`)
      // As a client does: against the address of the request that got the page (RFC 3986 §5).
      const next = new URL(linked, first.url ?? new URL('/plants?limit=1', t.url)).href
      const second = await send(t.url, { method: 'GET', path: next, auth: { kind: 'principal' } }, auth)
      expect(second.json, `page 2 (${linked} → ${next}): ${describeAnswer(second)}`).toEqual([plants[1]])
      expect(
        second.headers.link,
        `the last page must not link further: ${describeAnswer(second)}`,
      ).toBeUndefined()
      expect(problemsOf(listPlants, second), describeAnswer(second)).toEqual([])
    })

    test('principals: one principal never sees another one’s plants, and both may use the same id', async () => {
      if (!getPlant) throw new Error('the document has no getPlant')
      const t = target(targetName)
      const [alice, bob] = [t.newToken(), t.newToken()]
      await setUpPlants(t, alice, [{ id: 7, name: 'Aloe' }])
      await setUpPlants(t, bob, [])
      const read = await send(
        t.url,
        { method: 'GET', path: '/plants/7', auth: { kind: 'principal' } },
        `Bearer ${bob}`,
      )
      expect(read.status, `bob read alice's plant 7: ${describeAnswer(read)}`).toBe(404)
      expect(problemsOf(getPlant, read), describeAnswer(read)).toEqual([])
      const bobs = await listAll(t.url, bob)
      expect(bobs, 'bob lists no plants').toEqual([])
      // Bob may own a plant 7 of his own (ids are per principal): setUpPlants asserts the 200.
      await setUpPlants(t, bob, [{ id: 7, name: 'Cactus' }])
      expect(await listAll(t.url, alice), "alice's plant 7 is untouched").toEqual([{ id: 7, name: 'Aloe' }])
    })

    test('principals: a cursor is good only for the principal whose page gave it (400 to another)', async () => {
      if (!listPlants) throw new Error('the document has no listPlants')
      const t = target(targetName)
      const [alice, bob] = [t.newToken(), t.newToken()]
      await setUpPlants(t, alice, [
        { id: 1, name: 'Basil' },
        { id: 2, name: 'Fern' },
      ])
      await setUpPlants(t, bob, [{ id: 5, name: 'Cactus' }])
      const first = await send(
        t.url,
        { method: 'GET', path: '/plants?limit=1', auth: { kind: 'principal' } },
        `Bearer ${alice}`,
      )
      const linked = nextAddress(first.headers.link)
      if (!linked) throw new Error(`alice's page 1 has no Link to follow: ${describeAnswer(first)}`)
      const next = new URL(linked, first.url ?? new URL('/plants?limit=1', t.url))
      // The Link target as it is, and its cursor alone in bob's own list request.
      for (const path of [next.href, `/plants?cursor=${next.searchParams.get('cursor')}`]) {
        const crossed = await send(
          t.url,
          { method: 'GET', path, auth: { kind: 'principal' } },
          `Bearer ${bob}`,
        )
        expect(crossed.status, `bob sent alice's ${path}: ${describeAnswer(crossed)}`).toBe(400)
        expect(problemsOf(listPlants, crossed), describeAnswer(crossed)).toEqual([])
      }
    })
  })
}

// Not in the document, but what docs/mock-and-sandbox.md (CORS) promises frontend teams: a browser app
// on another origin can call every operation on the mock, the sandbox and the server, and read Link. Not
// the in-process handlers: they answer inside the page (or its service worker), where no preflight happens.
for (const targetName of TARGETS.filter((t) => t !== 'handlers' && t !== 'examples')) {
  describe(`${targetName}: CORS for browser apps on another origin`, () => {
    const origin = 'http://localhost:5173'
    const allows = (list: string | undefined, item: string) =>
      list !== undefined &&
      (list.trim() === '*' ||
        list
          .toLowerCase()
          .split(/\s*,\s*/)
          .includes(item.toLowerCase()))

    for (const entry of operations) {
      const method = entry.method.toUpperCase()
      const headers = ['authorization', ...(entry.operation.requestBody ? ['content-type'] : [])]
      test(`${entry.operationId}: the preflight for ${method} ${entry.path} allows it`, async () => {
        const path = entry.path.replace(/\{[^}]+\}/g, '1')
        const response = await fetch(new URL(path, target(targetName).url), {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': method,
            'access-control-request-headers': headers.join(','),
          },
          signal: AbortSignal.timeout(10_000),
        })
        const got = Object.fromEntries(response.headers)
        const shown = `${response.status} ${JSON.stringify(got)}`
        expect(response.status >= 200 && response.status < 300, `preflight status: ${shown}`).toBe(true)
        expect(allows(got['access-control-allow-origin'], origin), `allow-origin: ${shown}`).toBe(true)
        expect(
          allows(got['access-control-allow-methods'], method),
          `allow-methods lacks ${method}: ${shown}`,
        ).toBe(true)
        for (const h of headers)
          expect(allows(got['access-control-allow-headers'], h), `allow-headers lacks ${h}: ${shown}`).toBe(
            true,
          )
      })
    }

    test('listPlants: a cross-origin answer lets the page read Link and WWW-Authenticate', async () => {
      const t = target(targetName)
      const token = t.newToken()
      await setUpPlants(t, token, [])
      const answer = await send(
        t.url,
        { method: 'GET', path: '/plants', auth: { kind: 'principal' } },
        `Bearer ${token}`,
        { origin },
      )
      const exposed = answer.headers['access-control-expose-headers']
      expect(allows(answer.headers['access-control-allow-origin'], origin), describeAnswer(answer)).toBe(true)
      expect(allows(exposed, 'link'), `expose-headers lacks Link: ${exposed}`).toBe(true)
      expect(allows(exposed, 'www-authenticate'), `expose-headers lacks WWW-Authenticate: ${exposed}`).toBe(
        true,
      )
    })
  })
}

if (TARGETS.includes('sandbox')) {
  describe('sandbox', () => {
    test('a new token starts with the plants the examples assume (x-given-plants)', async () => {
      const plants = await listAll(target('sandbox').url, `sandbox-seed-check-${Date.now()}`)
      const seeds = givenPlants(document).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))
      expect(seeds.length).toBeGreaterThan(0)
      expect(plants).toEqual(seeds)
    })

    test('refuses to start with NODE_ENV=production', async () => {
      const result = await runToExit({
        ...commands.sandbox({ env: { NODE_ENV: 'production' } }),
        timeoutMs: 30_000,
      })
      expect(result.output, 'it listened').not.toMatch(commands.serverListening)
      expect(result.exit, `it exited with 0:\n${result.output}`).not.toBe(0)
    }, 40_000)
  })
}

describe('the run as a whole', () => {
  test('every documented response of every operation was exercised against the real server', () => {
    if (!TARGETS.includes('server')) throw new Error('the real server was left out (CONTRACT_TARGETS)')
    // Only an instance whose database has stopped can answer these; without PostgreSQL there is none.
    const needsStoreDown = ['getReadiness 503']
    const missing = coverage
      .missing(REAL_SERVER_TARGETS.filter((t) => TARGETS.includes(t)))
      .filter((m) => TARGETS.includes('postgres') || !needsStoreDown.includes(m))
    if (!TARGETS.includes('postgres'))
      console.warn(`not exercised without PostgreSQL: ${needsStoreDown.join(', ')} (${INSTALL_HINT})`)
    expect(missing, `never exercised against the real server:\n${missing.join('\n')}`).toEqual([])
  })

  test('every deviation class listed in contracts/deviations.ts still happens', () => {
    const notMet = deviations
      .filter((d) => TARGETS.includes(d.target) && !runner.deviationsMet.has(d) && !idleClasses.includes(d))
      .map((d) => `${d.target}: ${d.name}`)
    expect(notMet, `listed but never met (was its test filtered out?):\n${notMet.join('\n')}`).toEqual([])
  })
})

// Last: every create of the file has been answered by now.
describeNewPlantEvents(TARGETS, () => runner.running)
