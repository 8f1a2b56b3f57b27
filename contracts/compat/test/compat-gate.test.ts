// The compatibility gate on the real document: three real edits on a copy of spec/openapi.yaml, the
// policy (a new major plus a changelog entry), the released copies, and `npm run compat`'s exit code.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JSON_SCHEMA, load } from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../../scripts/lib/processes.js'
import { type Document, dereference, loadSpec, specPath } from '../../../scripts/lib/spec.js'
import { type Change, diffDocuments } from '../../../src/core/compat/diff.js'
import { at, get, push, remove, set } from '../../../src/core/compat/pointer.js'
import { rules } from '../../../src/core/compat/rules.js'
import { applyPolicy, checkHistory, latestRelease, lists, parseChangelog, parseVersion } from '../policy.js'
import { consoleLines, junit, markdown } from '../report.js'
import { runCompat } from './compat-command.js'

const releasedDir = join(repoRoot, 'spec', 'released')
const changelogPath = join(repoRoot, 'spec', 'CHANGELOG.md')
const released = latestRelease(releasedDir)
if (!released) throw new Error('spec/released/ holds no released document')
const base = await loadSpec(released.path)

/** An in-memory copy of spec/openapi.yaml, read as the server reads it. */
const draft = () => load(readFileSync(specPath, 'utf8'), { schema: JSON_SCHEMA }) as Record<string, unknown>
const diffAgainstRelease = (doc: Record<string, unknown>) =>
  diffDocuments(base.dereferenced, dereference(structuredClone(doc)) as unknown as Document)
const key = (c: Change) => `${c.rule} ${c.pointer}`
// What the document already adds to the release (additions not yet released) is not the edit's doing.
const standing = new Set(diffAgainstRelease(draft()).map(key))
/** The changes an edit of the draft makes against the last release, beyond those the draft already has. */
const diffDraft = (doc: Record<string, unknown>) =>
  diffAgainstRelease(doc).filter((c) => !standing.has(key(c)))
const breaking = (changes: Change[]) => changes.filter((c) => rules[c.rule].class === 'breaking')
const brief = (changes: Change[]) => changes.map((c) => [c.rule, c.pointer])

const CREATE = at('/paths', '/plants', 'post')
const REPLACE = at('/paths', '/plants/{id}', 'put')
const JSON_BODY = 'requestBody/content/application~1json/schema'

describe('three real edits of spec/openapi.yaml', () => {
  it('the document as it stands breaks nothing against the last release but what the changelog accepts', async () => {
    const current = await loadSpec(specPath)
    const changes = diffDocuments(base.dereferenced, current.dereferenced)
    // The true bounds on the strings a client sends, and nothing else.
    expect(new Set(breaking(changes).map((c) => c.rule))).toEqual(new Set(['request-bound-narrowed']))
    const verdict = applyPolicy({
      base: base.document,
      head: current.document,
      changes,
      changelog: readFileSync(changelogPath, 'utf8'),
    })
    expect(verdict.problems).toEqual([])
    expect(
      verdict.changes.filter((c) => c.class === 'breaking').every((c) => /accepted/.test(c.allowedBy ?? '')),
    ).toBe(true)
    // And every acceptance holds for one of them.
    expect(verdict.staleAcceptances).toEqual([])
    // The same changes without the changelog's acceptance fail the gate.
    expect(
      applyPolicy({ base: base.document, head: current.document, changes, changelog: '' }).problems,
    ).toHaveLength(1)
  })

  it('making `tag` required in Plant is breaking: createPlant and replacePlant refuse bodies without it', () => {
    const doc = draft()
    push(doc, '/components/schemas/Plant/required', 'tag')
    const changes = diffDraft(doc)
    expect(brief(breaking(changes))).toEqual([
      ['request-property-required-added', `${CREATE}/${JSON_BODY}/properties/tag`],
      ['request-property-required-added', `${REPLACE}/${JSON_BODY}/properties/tag`],
    ])
    // The same edit seen from the responses is safe: a client reading a plant always gets a tag now.
    expect(changes.filter((c) => c.rule === 'response-property-required').length).toBeGreaterThan(0)
    const verdict = applyPolicy({ base: base.document, head: doc, changes, changelog: undefined })
    expect(verdict.problems.join('\n')).toMatch(
      /2 breaking changes are not allowed: raise info.version's major/,
    )
  })

  it('adding an optional query parameter to listPlants is not breaking', () => {
    const doc = draft()
    push(doc, `${at('/paths', '/plants', 'get')}/parameters`, {
      name: 'name',
      in: 'query',
      required: false,
      description: 'Only plants whose name starts with this',
      schema: { type: 'string' },
    })
    const changes = diffDraft(doc)
    expect(brief(changes)).toEqual([
      ['request-parameter-added', `${at('/paths', '/plants', 'get')}/parameters/3`],
    ])
    expect(applyPolicy({ base: base.document, head: doc, changes, changelog: undefined }).problems).toEqual(
      [],
    )
  })

  it('removing createPlant’s 409 is breaking, unless released as a new major listed in the changelog', () => {
    const doc = draft()
    remove(doc, `${CREATE}/responses/409`)
    const changes = diffDraft(doc)
    expect(brief(changes)).toEqual([['response-status-removed', `${CREATE}/responses/409`]])
    expect(
      applyPolicy({ base: base.document, head: doc, changes, changelog: undefined }).problems,
    ).toHaveLength(1)

    set(doc, '/info/version', '2.0.0')
    const changelog = `## 2.0.0\n\n- \`response-status-removed\` \`${CREATE}/responses/409\`: a duplicate id now replaces the plant\n`
    const verdict = applyPolicy({ base: base.document, head: doc, changes, changelog })
    expect(verdict.problems).toEqual([])
    const removal = verdict.changes.find((c) => c.rule === 'response-status-removed')
    expect(removal?.allowedBy).toMatch(/response-status-removed/)
  })
})

// ---- The policy ------------------------------------------------------------------------------------

const removed409: Change = { rule: 'response-status-removed', pointer: `${CREATE}/responses/409`, detail: '' }
const newParam: Change = { rule: 'request-parameter-added', pointer: `${CREATE}/parameters/0`, detail: '' }
const exampleChanged: Change = { rule: 'example-changed', pointer: `${CREATE}/responses/200`, detail: '' }
const v = (version: string) => ({ info: { version } })
const policy = (head: string, changes: Change[], changelog?: string) =>
  applyPolicy({ base: v('1.0.0'), head: v(head), changes, changelog })
const entry409 = `- \`${removed409.pointer}\` no more conflicts`

describe('the policy', () => {
  it('lets non-breaking changes and changes for review through without a new version', () => {
    expect(policy('1.0.0', [newParam, exampleChanged]).problems).toEqual([])
  })

  it('refuses a breaking change under the same version', () => {
    expect(policy('1.0.0', [removed409], `## 1.0.0\n${entry409}\n`).problems[0]).toMatch(
      /raise info.version's major \(1\.0\.0 → 2\.0\.0\)/,
    )
  })

  it('refuses a breaking change under a raised minor, even listed', () => {
    expect(policy('1.1.0', [removed409], `## 1.1.0\n${entry409}\n`).problems).toHaveLength(1)
  })

  it('refuses a breaking change under a raised major that the changelog does not list', () => {
    expect(
      policy('2.0.0', [removed409], '## 2.0.0\n- `/paths/~1plants/get` other things\n').problems[0],
    ).toMatch(/list it under "## 2.0.0"/)
    expect(policy('2.0.0', [removed409]).problems[0]).toMatch(/is missing/)
  })

  it('refuses a breaking change listed under another version', () => {
    expect(
      policy('2.0.0', [removed409], `## 3.0.0\n${entry409}\n## 2.0.0\nNothing.\n`).problems,
    ).toHaveLength(1)
  })

  it('allows a breaking change under a raised major that the changelog lists, by pointer, rule id or both', () => {
    for (const item of [
      entry409,
      '- `response-status-removed`',
      `- \`response-status-removed\` \`${removed409.pointer}\``,
      `* \`${CREATE}\` createPlant reworked`,
    ]) {
      const verdict = policy(
        '2.0.0',
        [removed409],
        `# Changelog\n\n## 2.0.0 (unreleased)\n\n### Breaking\n${item}\n`,
      )
      expect(verdict.problems, item).toEqual([])
      expect(verdict.changes[0]?.allowedBy, item).toBe(item)
    }
  })

  it('does not take a pointer for its neighbour, nor a rule id for another rule', () => {
    const entry = (text: string) => parseChangelog(`## 2.0.0\n${text}\n`).get('2.0.0')?.[0]
    const sibling = entry(`- \`${CREATE}/responses/40\``)
    const otherRule = entry(`- \`response-status-added\` \`${removed409.pointer}\``)
    expect(sibling && lists(sibling, removed409)).toBe(false)
    expect(otherRule && lists(otherRule, removed409)).toBe(false)
  })

  it('never lets the version go back', () => {
    expect(
      applyPolicy({ base: v('1.2.0'), head: v('1.1.9'), changes: [], changelog: '' }).problems[0],
    ).toMatch(/went back/)
    expect(policy('one', []).problems[0]).toMatch(/not a version/)
  })

  it('reads no entry from a fenced example in the changelog', () => {
    const text = `## 2.0.0\n\n\`\`\`markdown\n## 2.0.0\n${entry409}\n\`\`\`\n`
    expect(parseChangelog(text).get('2.0.0')).toEqual([])
  })
})

// ---- What the repository keeps ------------------------------------------------------------------------

describe('the released documents and the changelog', () => {
  it('each spec/released/<version>.yaml carries that info.version, and the changelog has its section', async () => {
    const sections = parseChangelog(readFileSync(changelogPath, 'utf8'))
    const text = readFileSync(changelogPath, 'utf8')
    const files = readdirSync(releasedDir).filter((f) => /\.ya?ml$/.test(f))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const version = file.replace(/\.ya?ml$/, '')
      expect(parseVersion(version), file).toBeDefined()
      const { document } = await loadSpec(join(releasedDir, file))
      expect(document.info.version, file).toBe(version)
      expect(
        sections.has(version) || text.includes(`## ${version}`),
        `## ${version} in spec/CHANGELOG.md`,
      ).toBe(true)
    }
  })

  it('the last release is the highest version, compared as numbers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compat-released-'))
    try {
      for (const f of ['1.9.0.yaml', '1.10.0.yaml', 'notes.yaml', '2.0.0-rc.1.txt'])
        writeFileSync(join(dir, f), '')
      expect(latestRelease(dir)?.version).toBe('1.10.0')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('each release keeps the policy against the one before it, so a draft copied into released/ still counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compat-history-'))
    try {
      const release = (version: string, edit: (doc: Record<string, unknown>) => void = () => {}) => {
        const doc = draft()
        set(doc, '/info/version', version)
        edit(doc)
        writeFileSync(join(dir, `${version}.yaml`), JSON.stringify(doc))
      }
      const no409 = (doc: Record<string, unknown>) => remove(doc, `${CREATE}/responses/409`)
      release('1.0.0')
      release('1.1.0', no409)
      expect(await checkHistory(dir, undefined)).toEqual([
        expect.stringMatching(/^released 1\.0\.0 → 1\.1\.0: 1 breaking change is not allowed/),
      ])
      rmSync(join(dir, '1.1.0.yaml'))
      release('2.0.0', no409)
      expect(await checkHistory(dir, `## 2.0.0\n- \`${CREATE}/responses/409\`\n`)).toEqual([])
      writeFileSync(join(dir, '2.1.0.yaml'), readFileSync(join(dir, '2.0.0.yaml')))
      expect(await checkHistory(dir, `## 2.0.0\n- \`${CREATE}/responses/409\`\n`)).toEqual([
        'released 2.1.0: its info.version is "2.0.0", not 2.1.0',
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the changelog’s own example allows nothing', () => {
    expect(parseChangelog(readFileSync(changelogPath, 'utf8')).get('2.0.0')).toBeUndefined()
  })
})

// ---- The report and the command ---------------------------------------------------------------------

describe('the report', () => {
  const verdict = policy('1.0.0', [removed409, newParam, exampleChanged])
  const input = { verdict, specName: 'draft.yaml', baseName: 'released.yaml', changelogName: 'CHANGELOG.md' }

  it('prints each change with its class, pointer, rule and whom it breaks, breaking first', () => {
    const lines = consoleLines(input)
    const changeLines = lines.filter((l) => /^(breaking|review|non-breaking)\s/.test(l))
    expect(changeLines.map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['breaking', removed409.pointer, 'response-status-removed'],
      ['review', exampleChanged.pointer, 'example-changed'],
      ['non-breaking', newParam.pointer, 'request-parameter-added'],
    ])
    expect(changeLines[0]).toMatch(/— breaks: server clients, mock clients$/)
    expect(changeLines[1]).toMatch(/— review for: mock clients$/)
    expect(lines.some((l) => l.startsWith('FAIL: 1 breaking change is not allowed'))).toBe(true)
  })

  it('writes Markdown and JUnit whose failure is the breaking rule', () => {
    expect(markdown(input)).toContain(
      `| breaking | \`${removed409.pointer}\` | \`response-status-removed\` |`,
    )
    const xml = junit(input)
    expect(xml).toMatch(/<testsuites name="compatibility" tests="\d+" failures="1"/)
    expect(xml).toMatch(/name="response-status-removed: [^"]+">\s*<failure/)
  })
})

describe('npm run compat (without the replay)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('passes on the document as it stands, and fails on a draft without createPlant’s 409', async () => {
    const ok = await runCompat(dir, 'as-it-stands')
    expect(ok.exit, ok.output).toBe(0)
    expect(ok.output).toMatch(/^ok: /m)

    const doc = draft()
    remove(doc, `${CREATE}/responses/409`)
    const failed = await runCompat(dir, 'draft', doc)
    expect(failed.exit, failed.output).toBe(1)
    expect(failed.output).toMatch(
      /^breaking\s+\/paths\/~1plants\/post\/responses\/409\s+response-status-removed\s+— breaks: server clients, mock clients$/m,
    )
    expect(failed.output).toMatch(/^FAIL: 1 breaking change is not allowed/m)
    expect(readFileSync(join(failed.reports, 'compat.junit.xml'), 'utf8')).toMatch(/failures="1"/)
  })
})

describe('npm run compat with the replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-replay-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses to replay a draft the server does not serve: one that renames `name`', async () => {
    const doc = draft()
    const plant = '/components/schemas/Plant'
    set(doc, `${plant}/properties/title`, get(doc, `${plant}/properties/name`))
    remove(doc, `${plant}/properties/name`)
    set(doc, `${plant}/required`, ['title'])
    const run = await runCompat(dir, 'renamed', doc, [], { replay: true })
    expect(run.exit, run.output).toBe(1)
    expect(run.output).toMatch(
      /^FAIL: no behaviour replay: the server serves src\/core\/generated\/, generated from spec\/openapi\.yaml, not from \S+renamed\.yaml: copy the draft there and run `npm run generate` \(or --no-replay judges the document alone\)$/m,
    )
    // Refused before it started: no server, no contract suite.
    expect(run.output).not.toMatch(/^Behaviour replay: the contract suite/m)
    expect(readFileSync(join(run.reports, 'compat.junit.xml'), 'utf8')).toMatch(
      /name="the current server keeps the examples of [^"]+">\s*<failure message="no behaviour replay: /,
    )
  })
})
