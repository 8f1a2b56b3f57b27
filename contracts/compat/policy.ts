// The gate's policy: which released document a draft is compared with, what spec/CHANGELOG.md lists,
// and which breaking changes a new major version allows.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadSpec } from '../../scripts/lib/spec.js'
import { type Change, diffDocuments } from '../../src/core/compat/diff.js'
import { type ChangeClass, type Client, isRuleId, type RuleId, rules } from '../../src/core/compat/rules.js'

// ---- Versions ----------------------------------------------------------------------------------

export type Version = [number, number, number]

/** `1.2.3` (a `-pre` or `+build` tail is ignored), or undefined when it is not one. */
export function parseVersion(text: unknown): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(String(text ?? '').trim())
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined
}

export const compareVersions = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** The released documents, `<dir>/<version>.yaml`, lowest version first. */
export function listReleases(dir: string): { path: string; version: string }[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => ({ file, version: parseVersion(file.replace(/\.ya?ml$/, '')) }))
    .filter((f): f is { file: string; version: Version } => f.version !== undefined)
    .sort((a, b) => compareVersions(a.version, b.version))
    .map(({ file, version }) => ({ path: join(dir, file), version: version.join('.') }))
}

/**
 * The last released document: the highest version among `<dir>/<version>.yaml`, kept in the
 * repository so that a fresh clone without tags or network has it.
 */
export const latestRelease = (dir: string) => listReleases(dir).at(-1)

// ---- The changelog -----------------------------------------------------------------------------

/** The key of the `## Unreleased` section among the versions' sections. */
export const UNRELEASED = 'Unreleased'

/** One list item of a version's section: the pointers, rule ids and changes it names in backticks. */
export interface ChangelogEntry {
  line: string
  pointers: string[]
  rules: RuleId[]
  /**
   * The other texts in backticks: what an acceptance names as changed, as the gate prints it
   * (`maxLength (none) → 256`), among any words quoted in its prose.
   */
  changes: string[]
  /** The entry says `accepted`: a breaking change kept within the major, on purpose and told. */
  accepted: boolean
}

/**
 * The entries of each version's section of a changelog: a section starts at a `## <version>` heading
 * (anything may follow the version) and runs to the next `## `; an entry is a `- ` or `* ` line
 * naming a JSON pointer (`` `/paths/…` ``), a rule id (`` `response-status-removed` ``) or both.
 * Fenced code blocks are skipped.
 */
export function parseChangelog(text: string): Map<string, ChangelogEntry[]> {
  const sections = new Map<string, ChangelogEntry[]>()
  let current: ChangelogEntry[] | undefined
  let fenced = false
  for (const line of text.split('\n')) {
    // An example inside a fenced block is not an entry, however it looks.
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced || /^\s*(```|~~~)/.test(line)) continue
    const heading = /^##\s+\[?v?(\d+\.\d+\.\d+[^\s\]]*|Unreleased)\]?/i.exec(line)
    if (heading?.[1]) {
      current = []
      sections.set(/^unreleased$/i.test(heading[1]) ? UNRELEASED : heading[1], current)
      continue
    }
    if (/^#{1,2}\s/.test(line)) {
      current = undefined
      continue
    }
    if (!current || !/^\s*[-*]\s/.test(line)) continue
    const names = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')
    const pointers = names.filter((n) => n.startsWith('/'))
    const ids = names.filter(isRuleId)
    const changes = names.filter((n) => !n.startsWith('/') && !isRuleId(n))
    if (pointers.length || ids.length)
      current.push({ line: line.trim(), pointers, rules: ids, changes, accepted: /\baccepted\b/i.test(line) })
  }
  return sections
}

/**
 * Whether an entry of a new major's section lists a change: its pointers (when it names any) include
 * the change's pointer or one above it, and its rule ids (when it names any) include the change's rule.
 */
export function lists(entry: ChangelogEntry, change: Change): boolean {
  const pointerOk =
    entry.pointers.length === 0 ||
    entry.pointers.some((p) => change.pointer === p || change.pointer.startsWith(`${p.replace(/\/$/, '')}/`))
  const ruleOk = entry.rules.length === 0 || entry.rules.includes(change.rule)
  return pointerOk && ruleOk
}

/**
 * Whether an acceptance holds for a change: it names the change's rule id, its pointer (exactly, not
 * one above it) and what changed, from and to, exactly as the gate prints it. The same place with
 * another from or to is another change, which the acceptance does not cover.
 */
export const accepts = (entry: ChangelogEntry, change: Change): boolean =>
  entry.rules.includes(change.rule) &&
  entry.pointers.includes(change.pointer) &&
  entry.changes.includes(change.detail)

const EXAMPLE_ACCEPTANCE =
  '"- accepted: `request-bound-narrowed` `/paths/~1plants/post/requestBody/content/application~1json/schema/properties/name` `maxLength (none) → 256`, for clients that …"'

/** Why the acceptances at a breaking change's place and rule do not cover it; undefined when none is there. */
function notAccepted(entries: ChangelogEntry[], change: Change): string | undefined {
  const here = entries.filter((e) => e.rules.includes(change.rule) && e.pointers.includes(change.pointer))
  if (here.length === 0) return undefined
  const fromTo = change.detail.includes('→')
  const named = here.flatMap((e) => e.changes.filter((c) => c.includes('→') || !fromTo))
  const asPrinted = `\`${change.detail}\``
  return named.length > 0
    ? `the changelog accepted a different change here (${named.map((c) => `\`${c}\``).join(', ')}), not this one (${asPrinted}), which is judged afresh`
    : `the changelog's acceptance here names no ${fromTo ? 'from and to' : 'change'}: an acceptance of this change names it as printed, ${asPrinted}`
}

/** Why an acceptance cannot be read as one change, or undefined when it names its rule, place and change. */
function malformed(entry: ChangelogEntry): string | undefined {
  const missing = [
    entry.rules.length ? '' : 'rule id',
    entry.pointers.length ? '' : 'pointer',
    entry.changes.length ? '' : 'what changed (from → to)',
  ].filter(Boolean)
  if (missing.length === 0) return undefined
  return (
    `the acceptance "${entry.line}" names no ${missing.join(', no ')}: an acceptance names, each in backticks, ` +
    `the change's rule id, its pointer and what changed, from and to, as npm run compat prints them, e.g. ${EXAMPLE_ACCEPTANCE}`
  )
}

// ---- The gate ----------------------------------------------------------------------------------

export interface ClassifiedChange extends Change {
  class: ChangeClass
  who: readonly Client[]
  /** For a breaking change: the changelog entry that allows it (a new major's entry, or an acceptance). */
  allowedBy?: string
  /** For a breaking change: why the acceptances at its place and rule do not cover it, if any are there. */
  notAccepted?: string
}

export interface Verdict {
  baseVersion: string
  headVersion: string
  changes: ClassifiedChange[]
  /** Why the gate fails, one line each; empty when it passes. */
  problems: string[]
  /** The version whose changelog section was read, when the major is raised. */
  section?: string
  /** Why the released documents themselves break the policy, one line each; empty when they keep it. */
  history: string[]
  /**
   * The acceptances of the Unreleased section (their lines) that hold for no change of the draft: left
   * over from a change since undone or made otherwise. They let nothing through, and are reported.
   */
  staleAcceptances: string[]
}

export interface PolicyInput {
  base: { info?: { version?: unknown } }
  head: { info?: { version?: unknown } }
  changes: Change[]
  /** The text of the changelog, or undefined when there is none. */
  changelog: string | undefined
  changelogName?: string
}

/**
 * A breaking change passes only when info.version's major is above the released one AND the
 * changelog's section for the new version lists it, or when the Unreleased section accepts that very
 * change within the major. The version never goes back.
 */
export function applyPolicy({
  base,
  head,
  changes,
  changelog,
  changelogName = 'spec/CHANGELOG.md',
}: PolicyInput): Verdict {
  const baseVersion = String(base.info?.version ?? '')
  const headVersion = String(head.info?.version ?? '')
  const problems: string[] = []
  const [b, h] = [parseVersion(baseVersion), parseVersion(headVersion)]
  if (!b) problems.push(`the released info.version "${baseVersion}" is not a version (major.minor.patch)`)
  if (!h) problems.push(`info.version "${headVersion}" is not a version (major.minor.patch)`)
  if (b && h && compareVersions(h, b) < 0)
    problems.push(`info.version went back: ${headVersion} is below the released ${baseVersion}`)
  const majorRaised = b !== undefined && h !== undefined && h[0] > b[0]
  // Under a raised major, the new version's section lists what breaks. Within the major, only an entry
  // of the Unreleased section that says `accepted` lets a breaking change through: a narrowing kept
  // on purpose, which the changelog tells clients of the released version about. It holds for the
  // one change it names, from and to: a further narrowing of the same field is judged afresh.
  const sections = parseChangelog(changelog ?? '')
  const entries = majorRaised
    ? (sections.get(headVersion) ?? [])
    : (sections.get(UNRELEASED) ?? []).filter((e) => e.accepted)
  if (!majorRaised)
    for (const entry of entries) {
      const problem = malformed(entry)
      if (problem) problems.push(`${changelogName}, ## Unreleased: ${problem}`)
    }

  const classified = changes.map((change): ClassifiedChange => {
    const rule = rules[change.rule]
    const out: ClassifiedChange = { ...change, class: rule.class, who: rule.who }
    if (rule.class === 'breaking') {
      const entry = entries.find((e) => (majorRaised ? lists(e, change) : accepts(e, change)))
      if (entry) out.allowedBy = entry.line
      else if (!majorRaised) {
        const why = notAccepted(entries, change)
        if (why) out.notAccepted = why
      }
    }
    return out
  })
  const staleAcceptances = majorRaised
    ? []
    : entries.filter((e) => !malformed(e) && !changes.some((c) => accepts(e, c))).map((e) => e.line)
  const refused = classified.filter((c) => c.class === 'breaking' && c.allowedBy === undefined)
  if (refused.length > 0) {
    const next = b ? `${b[0] + 1}.0.0` : 'the next major version'
    const how = !majorRaised
      ? `raise info.version's major (${baseVersion} → ${next}) and list ${refused.length === 1 ? 'it' : 'each'} under "## ${next}" in ${changelogName}, by its pointer or rule id (or, for a narrowing kept within ${baseVersion} on purpose, list it under "## Unreleased" with the word accepted, its rule id, its pointer and what changed, from and to, as printed above, and whom it affects)`
      : changelog === undefined
        ? `${changelogName} is missing: list ${refused.length === 1 ? 'it' : 'each'} under "## ${headVersion}" there, by its pointer or rule id`
        : `list ${refused.length === 1 ? 'it' : 'each'} under "## ${headVersion}" in ${changelogName}, by its pointer or rule id`
    problems.push(
      `${refused.length} breaking change${refused.length === 1 ? ' is' : 's are'} not allowed: ${how}`,
    )
  }
  return {
    baseVersion,
    headVersion,
    changes: classified,
    problems,
    history: [],
    staleAcceptances,
    ...(majorRaised ? { section: headVersion } : {}),
  }
}

export interface GateOptions {
  /** The draft: spec/openapi.yaml unless another copy is tried. */
  spec: string
  /** The released document it is compared with. */
  base: string
  /** Where the released documents are, to check each against the one before. */
  releasedDir?: string
  changelog: string
  changelogName?: string
}

/** Reads both documents and the changelog, compares them and applies the policy. */
export async function checkCompat(options: GateOptions): Promise<Verdict> {
  const [base, head] = await Promise.all([loadSpec(options.base), loadSpec(options.spec)])
  const changes = diffDocuments(base.dereferenced, head.dereferenced)
  const changelog = existsSync(options.changelog) ? readFileSync(options.changelog, 'utf8') : undefined
  const changelogName = options.changelogName ?? options.changelog
  const verdict = applyPolicy({ base: base.document, head: head.document, changes, changelog, changelogName })
  if (options.releasedDir) verdict.history = await checkHistory(options.releasedDir, changelog, changelogName)
  return verdict
}

/**
 * Each released document against the one before it, under the same policy: copying a draft into
 * spec/released/ would otherwise make its breaking changes vanish from the comparison.
 */
export async function checkHistory(
  dir: string,
  changelog: string | undefined,
  changelogName = 'spec/CHANGELOG.md',
): Promise<string[]> {
  const problems: string[] = []
  let previous: { version: string; spec: Awaited<ReturnType<typeof loadSpec>> } | undefined
  for (const release of listReleases(dir)) {
    const spec = await loadSpec(release.path)
    const stated = String(spec.document.info?.version ?? '')
    if (stated !== release.version)
      problems.push(`released ${release.version}: its info.version is "${stated}", not ${release.version}`)
    if (previous) {
      const changes = diffDocuments(previous.spec.dereferenced, spec.dereferenced)
      const verdict = applyPolicy({
        base: previous.spec.document,
        head: spec.document,
        changes,
        changelog,
        changelogName,
      })
      for (const problem of verdict.problems)
        problems.push(`released ${previous.version} → ${release.version}: ${problem}`)
    }
    previous = { version: release.version, spec }
  }
  return problems
}
