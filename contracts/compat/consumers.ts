// Judges a document against the consumer contracts recorded by the frontends that use it (the handlers
// write one from a frontend's own tests, PLANT_STORE_CONTRACT): each contract is the part of the document
// its consumer used, so the same comparison as against a release (diff.ts) says what of it the new
// document no longer serves: a request it sends now refused, a property it reads gone, retyped or
// optional, a status it handles no longer coming. A change no consumer touches is safe for them all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { type ConsumerContract, type Document, joinContracts, parseContract } from '../../scripts/lib/spec.js'
import { type ConsumerFinding, judgeConsumer, locate } from '../../src/core/compat/consumers.js'
import type { Change } from '../../src/core/compat/diff.js'

export { type ConsumerFinding, judgeConsumer, locate }

export interface ConsumerVerdict {
  consumer: string
  /** The files its contract was read from (one consumer may publish several, from several test runs). */
  files: string[]
  /** `Plant Store 1.0.0`: the document its handlers served when it was recorded. */
  recordedAgainst: string
  findings: ConsumerFinding[]
  breaks: boolean
}

export interface ConsumerReport {
  /** The folder the contracts came from, as the report names it. */
  folder: string
  verdicts: ConsumerVerdict[]
  /** Files that are not consumer contracts, each with why: they fail the run. */
  problems: string[]
  /** For each change of the general gate (by `rule pointer`), the consumers it breaks or asks review for. */
  touched: Map<string, string[]>
}

/** The contracts of a folder (every `*.json` in it), one per consumer: a consumer's several files joined. */
export function readConsumers(
  folder: string,
  name = folder,
): ConsumerReport & { contracts: ConsumerContract[] } {
  const problems: string[] = []
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    return {
      folder: name,
      verdicts: [],
      contracts: [],
      problems: [`${name} is not a folder of consumer contracts`],
      touched: new Map(),
    }
  const byConsumer = new Map<string, { contract: ConsumerContract; files: string[] }>()
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    try {
      const contract = parseContract(readFileSync(join(folder, file), 'utf8'), join(name, file))
      const seen = byConsumer.get(contract.consumer)
      if (seen) {
        seen.contract = joinContracts(seen.contract, contract)
        seen.files.push(file)
      } else byConsumer.set(contract.consumer, { contract, files: [file] })
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  const contracts = [...byConsumer.values()].map((c) => c.contract)
  const verdicts = [...byConsumer.values()].map(({ contract, files }) => ({
    consumer: contract.consumer,
    files,
    recordedAgainst: `${contract.document.title} ${contract.document.version}`,
    findings: [],
    breaks: false,
  }))
  return { folder: name, verdicts, contracts, problems, touched: new Map() }
}

export interface JudgeInput {
  folder: string
  /** The folder as the report names it. */
  name?: string
  /** The draft, dereferenced. */
  head: Document
  /** The general gate's changes (the released document, `base`, against the draft), to say whom each touches. */
  changes?: Change[]
  base?: Document
}

/** Every consumer of a folder judged against the draft, and whom each change of the general gate touches. */
export function judgeConsumers({
  folder,
  name = folder,
  head,
  changes = [],
  base,
}: JudgeInput): ConsumerReport {
  const { contracts, verdicts: read, problems } = readConsumers(folder, name)
  const verdicts = read.map((verdict, i) => {
    const findings = judgeConsumer(contracts[i] as ConsumerContract, head)
    return { ...verdict, findings, breaks: findings.some((f) => f.class === 'breaking') }
  })
  const docs = base ? [head, base] : [head]
  const touched = new Map<string, string[]>()
  for (const change of changes) {
    const { key } = locate(change.pointer, docs)
    const whom = verdicts.filter((verdict) =>
      verdict.findings.some((finding) => inside(finding.key, key) || inside(key, finding.key)),
    )
    touched.set(
      `${change.rule} ${change.pointer}`,
      whom.map((verdict) => verdict.consumer),
    )
  }
  return { folder: name, problems, verdicts, touched }
}

/** Whether place `a` is place `b` or beneath it (`response 200: owner.name` is beneath `response 200: owner`). */
const inside = (a: string, b: string) => a === b || (a.startsWith(b) && ':. ['.includes(a[b.length] ?? ''))
