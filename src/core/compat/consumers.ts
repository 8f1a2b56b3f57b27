// Judges a document against one consumer contract (what a frontend's tests recorded of its use): the
// contract is the part of the document its consumer used, so the same comparison as against a release
// (diff.ts) says what of it the document no longer serves. Shared by the compatibility gate and the broker.

import type { Document } from '../document.js'
import { type ConsumerContract, contractDocument, contractOperations } from '../lib/consumer-contract.js'
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

// Removals the general gate leaves to a person, since a client still sending the field is ignored,
// not refused: a consumer that sends it relies on what it did.
const breaksWhenSent = new Set([
  'request-property-removed',
  'request-parameter-removed',
  'request-body-removed',
])

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
