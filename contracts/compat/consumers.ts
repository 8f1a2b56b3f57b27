// Judges a document against the consumer contracts recorded by the frontends that use it (the handlers
// write one from a frontend's own tests, PLANT_STORE_CONTRACT): each contract is the part of the document
// its consumer used, so the same comparison as against a release (diff.ts) says what of it the new
// document no longer serves: a request it sends now refused, a property it reads gone, retyped or
// optional, a status it handles no longer coming. A change no consumer touches is safe for them all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  type ConsumerContract,
  contractDocument,
  contractOperations,
  type Document,
  joinContracts,
  parseContract,
} from '../../scripts/lib/spec.js'
import { type Change, diffDocuments } from './diff.js'
import { escapeToken, unescapeToken } from './pointer.js'
import { rules } from './rules.js'

/** What one change does to one consumer: breaks it, or is a change of the kind a person judges. */
export interface ConsumerFinding extends Change {
  class: 'breaking' | 'review'
  /** `getPlant (GET /plants/{id})`. */
  operation: string
  /** `response 200: name`, `request body: name`, `query parameter limit`. */
  where: string
  /** The place in words that any document gives it, to match the general gate's changes. */
  key: string
}

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

// Removals the general gate leaves to a person, since a client still sending the field is ignored,
// not refused: a consumer that sends it relies on what it did.
const breaksWhenSent = new Set([
  'request-property-removed',
  'request-parameter-removed',
  'request-body-removed',
])

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

/** What `head` does to one consumer: each change to what it uses that breaks it or asks a person's review. */
export function judgeConsumer(contract: ConsumerContract, head: Document): ConsumerFinding[] {
  const view = contractDocument(contract)
  // An operation whose every request the document refused tells nothing of what the consumer sends.
  const unknownRequests = new Set(
    contractOperations(contract)
      .filter(({ operation }) => operation.parameters === undefined)
      .map(({ method, path }) => `/paths/${escapeToken(path)}/${method}`),
  )
  const findings: ConsumerFinding[] = []
  for (const change of diffDocuments(view, head)) {
    const general = rules[change.rule].class
    const kind = breaksWhenSent.has(change.rule) ? 'breaking' : general
    if (kind === 'non-breaking') continue
    const operation = /^\/paths\/[^/]+\/[^/]+/.exec(change.pointer)?.[0] ?? ''
    if (
      unknownRequests.has(operation) &&
      /^\/paths\/[^/]+\/[^/]+\/(parameters|requestBody)/.test(change.pointer)
    )
      continue
    findings.push({ ...change, detail: told(change), class: kind, ...locate(change.pointer, [head, view]) })
  }
  return findings
}

// What the consumer's recorded values were, in words, for a bound its requests reached.
const reached: Record<string, (value: string) => string> = {
  maxLength: (n) => `values up to ${n} characters long`,
  minLength: (n) => `values as short as ${n} characters`,
  maximum: (n) => `values up to ${n}`,
  minimum: (n) => `values as low as ${n}`,
  maxItems: (n) => `lists of up to ${n} items`,
  minItems: (n) => `lists of as few as ${n} items`,
}

/** A change's detail as it bears on the consumer: the contract's side of it is what the consumer sent. */
function told(change: Change): string {
  const bound = /^(\w+) (.+) → (.+)$/.exec(change.detail)
  if (change.rule === 'request-bound-narrowed' && bound?.[1] && reached[bound[1]])
    return `it sends ${reached[bound[1]]?.(bound[2] ?? '')}; the draft's ${bound[1]} is ${bound[3]}`
  if (change.rule === 'request-property-required-added' || change.rule === 'request-parameter-required-added')
    return `${change.detail}; the consumer does not always send it`
  if (breaksWhenSent.has(change.rule))
    return `${change.detail}; the consumer sends it, and the draft ignores it`
  return change.detail
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

// ---- Where a change is, in words -----------------------------------------------------------------

const templateOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}')

/**
 * A change's place as a reader says it (`getPlant (GET /plants/{id})`, `response 200: name`), and as a
 * key that the same place has in any document (a parameter by its name, not its position).
 */
export function locate(pointer: string, docs: Document[]): { operation: string; where: string; key: string } {
  const tokens = pointer.split('/').slice(1).map(unescapeToken)
  if (tokens[0] !== 'paths' || tokens[1] === undefined) return { operation: '', where: pointer, key: pointer }
  const path = tokens[1]
  const method = tokens[2] === 'parameters' ? undefined : tokens[2]
  const rest = tokens.slice(method ? 3 : 2)
  const item = (doc: Document) => doc.paths?.[path] as Record<string, unknown> | undefined
  const operationId = docs
    .map((doc) =>
      method ? (item(doc)?.[method] as { operationId?: string } | undefined)?.operationId : undefined,
    )
    .find(Boolean)
  const operation = method
    ? `${operationId ?? 'an operation'} (${method.toUpperCase()} ${path})`
    : `every operation of ${path}`
  const where = place(rest, (index) => {
    for (const doc of docs) {
      const list = ((method ? (item(doc)?.[method] as Record<string, unknown>) : item(doc))?.parameters ??
        []) as { name?: string; in?: string }[]
      const parameter = list[Number(index)]
      if (parameter?.name) return `${parameter.in} parameter ${parameter.name}`
    }
    return `parameter ${index}`
  })
  return { operation, where, key: `${method ?? '*'} ${templateOf(path)} ${where}`.trim() }
}

function place(tokens: string[], parameter: (index: string) => string): string {
  const [first, second] = tokens
  if (first === undefined) return ''
  if (first === 'security') return 'security'
  if (first === 'parameters' && second !== undefined)
    return joined(parameter(second), schemaPath(tokens.slice(3)))
  if (first === 'requestBody') return joined('request body', schemaPath(tokens.slice(4)))
  if (first === 'responses' && second !== undefined) {
    if (tokens[2] === 'headers') return `response ${second}: header ${tokens[3] ?? ''}`
    return joined(`response ${second}`, schemaPath(tokens.slice(5)))
  }
  return tokens.join('/')
}

const joined = (part: string, path: string) => (path ? `${part}: ${path}` : part)

/** A schema pointer's tail as a property path: `properties/name` is `name`, `items/properties/id` is `[].id`. */
function schemaPath(tokens: string[]): string {
  let out = ''
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (token === 'properties' && tokens[i + 1] !== undefined) out += `${out ? '.' : ''}${tokens[++i]}`
    else if (token === 'items') out += '[]'
    else if (token === 'additionalProperties') out += `${out ? '.' : ''}*`
    else if (token === 'anyOf' || token === 'oneOf') i++
    else break
  }
  return out
}
