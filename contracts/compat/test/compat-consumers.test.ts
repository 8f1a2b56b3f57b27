// The gate against recorded consumers: two consumers' contracts, recorded on the real document, judged
// against real edits of it. A request a consumer sends that the draft refuses, a property it reads that
// is gone, renamed or optional, a status it handles that no longer comes, each breaks that consumer and
// is named by consumer, operation and property; an edit no consumer touches is safe for them all, even
// where the general gate calls it breaking; `npm run compat -- --consumers DIR` exits 1 when one breaks,
// and with --only-consumers only then, the general rule's verdict a note.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractRecorder, type Exchange, type SentRequest } from '@plant-store/core/contract'
import { JSON_SCHEMA, load } from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../../scripts/lib/processes.js'
import {
  type Document,
  dereference,
  loadSpec,
  serializeContract,
  specPath,
} from '../../../scripts/lib/spec.js'
import { diffDocuments } from '../../../src/core/compat/diff.js'
import { at, push, remove, set } from '../../../src/core/compat/pointer.js'
import { judgeConsumers } from '../consumers.js'
import { runCompat } from './compat-command.js'

const current = await loadSpec(specPath)
const released = await loadSpec(join(repoRoot, 'spec/released/1.0.0.yaml'))
const entry = (operationId: string) => {
  const found = current.operations.find((e) => e.operationId === operationId)
  if (!found) throw new Error(`no ${operationId}`)
  return found
}
const sent = (part: Partial<SentRequest>): SentRequest => ({
  params: {},
  query: {},
  headers: { get: () => null },
  ...part,
})

/** A consumer's contract, recorded on the current document from what its tests did. */
function contract(
  consumer: string,
  exchanges: Omit<Exchange, 'headers'>[],
  reads: [string, string, number, string[]][],
) {
  const recorder = new ContractRecorder({ consumer })
  recorder.register(current.dereferenced, current.operations)
  for (const exchange of exchanges) recorder.exchange({ headers: { has: () => false }, ...exchange })
  for (const [method, path, status, property] of reads) recorder.read(method, path, status, property)
  return serializeContract(recorder.current as never)
}

// A shop: lists with limit 2 to 10, shows a plant's name, creates plants with names up to 13
// characters and handles the 409 of an id taken and the 404 of a plant not there.
const shop = contract(
  'shop',
  [
    { entry: entry('listPlants'), sent: sent({ query: { limit: 2 } }), status: 200, tracked: true },
    { entry: entry('listPlants'), sent: sent({ query: { limit: 10 } }), status: 200, tracked: true },
    { entry: entry('getPlant'), sent: sent({ params: { id: 1 } }), status: 200, tracked: true },
    { entry: entry('getPlant'), sent: sent({ params: { id: 404 } }), status: 404, tracked: true },
    {
      entry: entry('createPlant'),
      sent: sent({ body: { id: 7, name: 'Lemon balm' } }),
      status: 200,
      tracked: true,
    },
    {
      entry: entry('createPlant'),
      sent: sent({ body: { id: 7, name: 'Lemon verbena' } }),
      status: 409,
      tracked: true,
    },
  ],
  [
    ['GET', '/plants', 200, ['[]', 'name']],
    ['GET', '/plants/{id}', 200, ['name']],
    ['GET', '/plants/{id}', 404, ['message']],
    ['POST', '/plants', 409, ['message']],
  ],
)
// A kiosk: reads one plant's name and tag, and never creates one.
const kiosk = contract(
  'kiosk',
  [{ entry: entry('getPlant'), sent: sent({ params: { id: 3 } }), status: 200, tracked: true }],
  [
    ['GET', '/plants/{id}', 200, ['name']],
    ['GET', '/plants/{id}', 200, ['tag']],
  ],
)

const dir = mkdtempSync(join(tmpdir(), 'compat-consumers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const consumers = join(dir, 'consumers')
mkdirSync(consumers)
writeFileSync(join(consumers, 'shop.json'), shop)
writeFileSync(join(consumers, 'kiosk.json'), kiosk)

const draft = () => load(readFileSync(specPath, 'utf8'), { schema: JSON_SCHEMA }) as Record<string, unknown>
const judge = (doc: Record<string, unknown>) => {
  const head = dereference(structuredClone(doc)) as unknown as Document
  const changes = diffDocuments(released.dereferenced, head)
  return {
    report: judgeConsumers({ folder: consumers, head, changes, base: released.dereferenced }),
    changes,
  }
}
/** Each consumer's findings, as `consumer: operation where rule`. */
const findings = (doc: Record<string, unknown>) =>
  judge(doc).report.verdicts.flatMap((v) =>
    v.findings.map((f) => `${v.consumer}: ${f.operation} ${f.where} ${f.rule}`),
  )

const PLANT = '/components/schemas/Plant'
const CREATE = at('/paths', '/plants', 'post')
const LIST = at('/paths', '/plants', 'get')
const GET = at('/paths', '/plants/{id}', 'get')

describe('what a draft does to each recorded consumer', () => {
  it('serves both as the document stands', () => {
    const { report } = judge(draft())
    expect(report.problems).toEqual([])
    expect(report.verdicts.map((v) => [v.consumer, v.breaks, v.findings])).toEqual([
      ['kiosk', false, []],
      ['shop', false, []],
    ])
  })

  it('a bound narrowed below what a consumer sent breaks it, and one narrowed above it does not', () => {
    const doc = draft()
    set(doc, `${PLANT}/properties/name/maxLength`, 13)
    expect(findings(doc)).toEqual([])
    set(doc, `${PLANT}/properties/name/maxLength`, 12)
    expect(findings(doc)).toEqual([
      'shop: createPlant (POST /plants) request body: name request-bound-narrowed',
    ])
    const [finding] = judge(doc).report.verdicts.flatMap((v) => v.findings)
    expect(finding?.detail).toBe("it sends values up to 13 characters long; the draft's maxLength is 12")
    const limit = draft()
    set(limit, `${LIST}/parameters/0/schema/maximum`, 5)
    expect(findings(limit)).toEqual([
      'shop: listPlants (GET /plants) query parameter limit request-bound-narrowed',
    ])
  })

  it('a property a consumer reads, renamed or made optional, breaks it; one nobody reads does not', () => {
    const renamed = draft()
    set(renamed, `${PLANT}/properties/label`, { type: 'string', maxLength: 64 })
    remove(renamed, `${PLANT}/properties/tag`)
    expect(findings(renamed)).toEqual([
      'kiosk: getPlant (GET /plants/{id}) response 200: tag response-property-removed',
    ])
    const optional = draft()
    set(optional, `${PLANT}/required`, [])
    expect(findings(optional).sort()).toEqual([
      'kiosk: getPlant (GET /plants/{id}) response 200: name response-property-optional',
      'shop: getPlant (GET /plants/{id}) response 200: name response-property-optional',
      'shop: listPlants (GET /plants) response 200: [].name response-property-optional',
    ])
  })

  it('a request field a consumer does not always send, made required, breaks it; a new optional one does not', () => {
    const doc = draft()
    push(doc, `${PLANT}/required`, 'tag')
    expect(findings(doc)).toContain(
      'shop: createPlant (POST /plants) request body: tag request-property-required-added',
    )
    const added = draft()
    set(added, `${PLANT}/properties/colour`, { type: 'string' })
    expect(findings(added)).toEqual([])
  })

  it('a status a consumer handles, no longer documented, breaks it, and only it', () => {
    const doc = draft()
    remove(doc, `${CREATE}/responses/409`)
    const { report, changes } = judge(doc)
    expect(
      report.verdicts.find((v) => v.consumer === 'shop')?.findings.map((f) => [f.where, f.rule]),
    ).toEqual([['response 409', 'response-status-removed']])
    expect(report.verdicts.find((v) => v.consumer === 'kiosk')?.breaks).toBe(false)
    const removal = changes.find((c) => c.rule === 'response-status-removed')
    expect(removal && report.touched.get(`${removal.rule} ${removal.pointer}`)).toEqual(['shop'])
  })

  it('an operation no consumer calls, removed, is safe for them all though the general gate calls it breaking', () => {
    const doc = draft()
    remove(doc, `${at('/paths', '/plants/{id}')}/delete`)
    const { report, changes } = judge(doc)
    const removal = changes.find((c) => c.rule === 'operation-removed')
    expect(removal).toBeDefined()
    expect(report.verdicts.every((v) => !v.breaks)).toBe(true)
    expect(removal && report.touched.get(`${removal.rule} ${removal.pointer}`)).toEqual([])
  })

  it('a type changed, or a parameter made required, breaks the consumer that sends it, or does not send it', () => {
    const typed = draft()
    set(typed, `${GET}/parameters`, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
    ])
    expect(findings(typed)).toContain(
      'shop: getPlant (GET /plants/{id}) path parameter id request-type-narrowed',
    )
    const required = draft()
    set(required, `${LIST}/parameters/2/required`, true)
    expect(findings(required)).toEqual([
      'shop: listPlants (GET /plants) query parameter tag request-parameter-required-added',
    ])
  })

  it('judges nothing of the requests of an operation whose every request the document refused', () => {
    const refused = join(dir, 'refused')
    mkdirSync(refused)
    const only400 = contract('form', [{ entry: entry('createPlant'), status: 400, tracked: true }], [])
    writeFileSync(join(refused, 'form.json'), only400)
    const doc = draft()
    push(doc, `${PLANT}/required`, 'tag')
    const head = dereference(structuredClone(doc)) as unknown as Document
    expect(judgeConsumers({ folder: refused, head }).verdicts[0]?.findings).toEqual([])
  })
})

describe('the folder of contracts', () => {
  it("joins one consumer's several files, and fails on a file that is not a contract", () => {
    const folder = join(dir, 'mixed')
    mkdirSync(folder)
    writeFileSync(join(folder, 'kiosk-node.json'), kiosk)
    writeFileSync(join(folder, 'kiosk-browser.json'), kiosk)
    writeFileSync(join(folder, 'notes.json'), '{"consumer": "x"}')
    const report = judgeConsumers({ folder, name: 'mixed', head: current.dereferenced })
    expect(report.verdicts.map((v) => [v.consumer, v.files])).toEqual([
      ['kiosk', ['kiosk-browser.json', 'kiosk-node.json']],
    ])
    expect(report.problems).toEqual([
      'mixed/notes.json is not a consumer contract: its "format" is undefined, not "plant-store-consumer-contract/1"',
    ])
    expect(
      judgeConsumers({ folder: join(dir, 'none'), name: 'none', head: current.dereferenced }).problems,
    ).toEqual(['none is not a folder of consumer contracts'])
  })
})

describe('npm run compat -- --consumers DIR', () => {
  const run = (doc: Record<string, unknown>, name: string, args: string[] = []) =>
    runCompat(dir, name, doc, ['--consumers', consumers, ...args])

  it('exits 1 naming the consumer, the operation and the property a draft breaks', async () => {
    const doc = draft()
    set(doc, `${PLANT}/properties/name/maxLength`, 8)
    const { exit, output, reports } = await run(doc, 'narrowed')
    expect(exit, output).toBe(1)
    expect(output).toMatch(/^ {2}shop \(recorded against Plant Store [\d.]+\): BREAKS$/m)
    expect(output).toMatch(
      /^ {4}breaking {2}createPlant \(POST \/plants\) request body: name {2}request-bound-narrowed — it sends values up to 13 characters long; the draft's maxLength is 8$/m,
    )
    expect(output).toMatch(
      /^ {2}kiosk \(recorded against Plant Store [\d.]+\): served: no change touches what it sends or reads$/m,
    )
    expect(output).toMatch(
      /^FAIL: the draft breaks 1 recorded consumer of .+: shop \(see the findings above\)$/m,
    )
    // The same narrowing of a replacement's name touches no consumer: neither replaces a plant.
    expect(output).toMatch(
      /maxLength \(none\) → 8; NOT ALLOWED: [^\n]+; safe for every recorded consumer \(kiosk, shop\)$/m,
    )
    expect(readFileSync(join(reports, 'compat.md'), 'utf8')).toContain('## Recorded consumers')
    expect(readFileSync(join(reports, 'compat.junit.xml'), 'utf8')).toMatch(
      /<testcase classname="compatibility: recorded consumers" name="the draft serves shop [^"]*">\s*<failure/,
    )
  })

  it('exits 0 when a draft adds an optional property, serving every consumer', async () => {
    const doc = draft()
    set(doc, `${PLANT}/properties/colour`, { type: 'string' })
    const { exit, output } = await run(doc, 'added')
    expect(exit, output).toBe(0)
    expect(output).toMatch(/^ok: the draft serves each of the 2 recorded consumer\(s\) as before$/m)
  })

  it('with --only-consumers, exits 0 on a change the general rule refuses but no consumer feels, saying both', async () => {
    const doc = draft()
    // The shop sends names up to 13 characters; a name of over 100 is refused now.
    set(doc, `${PLANT}/properties/name/maxLength`, 100)
    const general = await run(doc, 'name-100')
    expect(general.exit, general.output).toBe(1)
    expect(general.output).toMatch(
      /maxLength \(none\) → 100; NOT ALLOWED: [^\n]+; safe for every recorded consumer \(kiosk, shop\)$/m,
    )
    expect(general.output).toMatch(/^FAIL: 2 breaking changes are not allowed/m)

    const only = await run(doc, 'name-100-only', ['--only-consumers'])
    expect(only.exit, only.output).toBe(0)
    expect(only.output).toMatch(/^note \(general rule\): 2 breaking changes are not allowed/m)
    expect(only.output).not.toMatch(/^FAIL/m)
    expect(only.output).toMatch(
      /^ok: the draft serves each of the 2 recorded consumer\(s\) as before, and --only-consumers takes them for all the clients there are$/m,
    )
    expect(readFileSync(join(only.reports, 'compat.md'), 'utf8')).toMatch(/^\*\*Result: pass\.\*\*/m)
    expect(readFileSync(join(only.reports, 'compat.junit.xml'), 'utf8')).toMatch(
      /<testsuites name="compatibility" tests="\d+" failures="0"/,
    )
  })

  it('with --only-consumers, exits 1 when a recorded consumer breaks, and 2 with no consumer to judge by', async () => {
    const doc = draft()
    set(doc, `${PLANT}/properties/name/maxLength`, 8)
    const broken = await run(doc, 'name-8-only', ['--only-consumers'])
    expect(broken.exit, broken.output).toBe(1)
    expect(broken.output).toMatch(/^FAIL: the draft breaks 1 recorded consumer of .+: shop/m)

    const empty = join(dir, 'no-consumers')
    mkdirSync(empty)
    const none = await runCompat(dir, 'none-only', doc, ['--consumers', empty, '--only-consumers'])
    expect([none.exit, none.output.trim()]).toEqual([
      2,
      `--only-consumers judges by the recorded consumers alone, and ${empty} holds no consumer contract (*.json)`,
    ])
  })
})
