// An acceptance in the changelog holds for the one change it names, from and to: the same field
// narrowed further is judged afresh, on the real document through `npm run compat` and in the policy;
// an acceptance that holds for no change of the draft is reported as stale.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JSON_SCHEMA, load } from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { specPath } from '../../../scripts/lib/spec.js'
import type { Change } from '../../../src/core/compat/diff.js'
import { at, get, set } from '../../../src/core/compat/pointer.js'
import { applyPolicy } from '../policy.js'
import { junit, passed, verdictLines } from '../report.js'
import { runCompat } from './compat-command.js'

const NAME = 'requestBody/content/application~1json/schema/properties/name'
const CREATE_NAME = `${at('/paths', '/plants', 'post')}/${NAME}`
const REPLACE_NAME = `${at('/paths', '/plants/{id}', 'put')}/${NAME}`
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('npm run compat on `name` narrowed past what the changelog accepts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-accept-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** spec/openapi.yaml with Plant's `name` bounded at `maxLength`, judged without the replay. */
  const judge = async (maxLength: number) => {
    const doc = load(readFileSync(specPath, 'utf8'), { schema: JSON_SCHEMA }) as Record<string, unknown>
    // The accepted change is the document's own: the draft moves its bound and nothing else.
    expect(get(doc, '/components/schemas/Plant/properties/name/maxLength')).toBe(256)
    set(doc, '/components/schemas/Plant/properties/name/maxLength', maxLength)
    return runCompat(dir, `name-${maxLength}`, doc)
  }

  it.each([200, 5])(
    'fails with `name` narrowed to %i: the changelog accepted another change there',
    async (n) => {
      const run = await judge(n)
      expect(run.exit, run.output).toBe(1)
      for (const pointer of [CREATE_NAME, REPLACE_NAME]) {
        const line = new RegExp(
          `^breaking\\s+${escapeRegExp(pointer)}\\s+request-bound-narrowed\\s+— breaks: server clients, mock clients\\n` +
            `\\s+maxLength \\(none\\) → ${n}; NOT ALLOWED: the changelog accepted a different change here ` +
            `\\(\`maxLength \\(none\\) → 256\`\\), not this one \\(\`maxLength \\(none\\) → ${n}\`\\), which is judged afresh` +
            // What the change does to the recorded consumers (contracts/consumers/), said after it.
            `(?:; (?:safe for every|touches the) recorded consumer.*)?$`,
          'm',
        )
        expect(run.output).toMatch(line)
      }
      expect(run.output).toMatch(/^\d+ changes: 6 breaking \(4 allowed by the changelog\)/m)
      expect(run.output).toMatch(/^FAIL: 2 breaking changes are not allowed/m)
      // The acceptances of `name` at 256 now hold for no change.
      for (const pointer of [CREATE_NAME, REPLACE_NAME])
        expect(run.output).toMatch(
          new RegExp(
            `^stale: spec/CHANGELOG\\.md, ## Unreleased accepts a change the draft does not make, "- accepted: \`request-bound-narrowed\` \`${escapeRegExp(pointer)}\` \`maxLength \\(none\\) → 256\``,
            'm',
          ),
        )
      expect(readFileSync(join(run.reports, 'compat.md'), 'utf8')).toContain(
        `NOT ALLOWED: the changelog accepted a different change here (\`maxLength (none) → 256\`), not this one (\`maxLength (none) → ${n}\`)`,
      )
      expect(readFileSync(join(run.reports, 'compat.junit.xml'), 'utf8')).toMatch(
        /name="request-bound-narrowed: [^"]+">\s*<failure message="[^"]*maxLength \(none\) → \d+ \(the changelog accepted a different change here/,
      )
    },
  )

  it('passes with exactly the accepted change, `name` bounded at 256', async () => {
    const run = await judge(256)
    expect(run.exit, run.output).toBe(0)
    expect(run.output).toMatch(/^\d+ changes: 6 breaking \(6 allowed by the changelog\)/m)
    expect(run.output).not.toMatch(/^stale: /m)
  })
})

// ---- The policy on acceptances ----------------------------------------------------------------------

const narrowed = (pointer: string, to: number): Change => ({
  rule: 'request-bound-narrowed',
  pointer,
  detail: `maxLength (none) → ${to}`,
})
const within = (changes: Change[], changelog: string) =>
  applyPolicy({
    base: { info: { version: '1.0.0' } },
    head: { info: { version: '1.0.0' } },
    changes,
    changelog,
  })
const unreleased = (...items: string[]) => `## Unreleased\n\n${items.map((i) => `- ${i}\n`).join('')}`
const acceptance = `accepted: \`request-bound-narrowed\` \`${CREATE_NAME}\` \`maxLength (none) → 256\`, for long names`

describe('an acceptance within the released major', () => {
  it('accepts the change it names, rule, pointer, from and to, and nothing else', () => {
    const verdict = within(
      [narrowed(CREATE_NAME, 256), narrowed(REPLACE_NAME, 256), narrowed(CREATE_NAME, 200)],
      unreleased(acceptance),
    )
    expect(verdict.changes.map((c) => c.allowedBy !== undefined)).toEqual([true, false, false])
    // Another place with the same from and to is another change: no acceptance is there to explain.
    expect(verdict.changes[1]?.notAccepted).toBeUndefined()
    expect(verdict.changes[2]?.notAccepted).toBe(
      'the changelog accepted a different change here (`maxLength (none) → 256`), not this one (`maxLength (none) → 200`), which is judged afresh',
    )
    expect(verdict.problems).toEqual([expect.stringMatching(/^2 breaking changes are not allowed/)])
  })

  it('does not accept from a pointer above the change, nor under another rule id', () => {
    const above = `accepted: \`request-bound-narrowed\` \`${at('/paths', '/plants', 'post')}\` \`maxLength (none) → 256\``
    const otherRule = acceptance.replace('request-bound-narrowed', 'request-pattern-narrowed')
    for (const item of [above, otherRule])
      expect(
        within([narrowed(CREATE_NAME, 256)], unreleased(item)).changes[0]?.allowedBy,
        item,
      ).toBeUndefined()
  })

  it('an acceptance without its from and to fails the gate, saying how to write it, and accepts nothing', () => {
    const bare = `accepted: \`request-bound-narrowed\` \`${CREATE_NAME}\`, for long names`
    const verdict = within([narrowed(CREATE_NAME, 256)], unreleased(bare))
    expect(verdict.changes[0]?.allowedBy).toBeUndefined()
    expect(verdict.changes[0]?.notAccepted).toBe(
      "the changelog's acceptance here names no from and to: an acceptance of this change names it as printed, `maxLength (none) → 256`",
    )
    expect(verdict.problems).toEqual([
      expect.stringContaining(
        `spec/CHANGELOG.md, ## Unreleased: the acceptance "- ${bare}" names no what changed (from → to): an acceptance names, each in backticks, the change's rule id, its pointer and what changed, from and to`,
      ),
      expect.stringMatching(/^1 breaking change is not allowed/),
    ])
    // The report's JUnit holds it as a failure of its own.
    const xml = junit({
      verdict,
      specName: 'draft.yaml',
      baseName: 'released.yaml',
      changelogName: 'CHANGELOG.md',
    })
    expect(xml).toMatch(
      /name="each acceptance in the changelog names one change[^"]*">\s*<failure message="[^"]*names no what changed/,
    )
  })

  it('an acceptance that holds for no change is reported as stale, lets nothing through and fails nothing', () => {
    const replaced = acceptance.replace(CREATE_NAME, REPLACE_NAME)
    const verdict = within([narrowed(CREATE_NAME, 256)], unreleased(acceptance, replaced))
    expect(verdict.staleAcceptances).toEqual([`- ${replaced}`])
    expect(verdict.problems).toEqual([])
    const input = {
      verdict,
      specName: 'draft.yaml',
      baseName: 'released.yaml',
      changelogName: 'CHANGELOG.md',
    }
    expect(verdictLines(input)).toContain(
      `stale: CHANGELOG.md, ## Unreleased accepts a change the draft does not make, "- ${replaced}": remove it, or name the change as printed above`,
    )
    expect(passed(input)).toBe(true)
    // Under a raised major the Unreleased section is not read, so nothing of it is stale.
    const major = applyPolicy({
      base: { info: { version: '1.0.0' } },
      head: { info: { version: '2.0.0' } },
      changes: [],
      changelog: `## 2.0.0\n\n${unreleased(replaced)}`,
    })
    expect(major.staleAcceptances).toEqual([])
  })

  it('an acceptance naming no rule id or no pointer fails the gate', () => {
    for (const [item, missing] of [
      [`accepted: \`${CREATE_NAME}\` \`maxLength (none) → 256\``, 'rule id'],
      ['accepted: `request-bound-narrowed` `maxLength (none) → 256`', 'pointer'],
    ] as const)
      expect(within([], unreleased(item)).problems, item).toEqual([
        expect.stringMatching(new RegExp(`names no ${missing}: `)),
      ])
  })
})
