// The case model of every generated request, the coverage phase's, the random ones' and the negative
// cases': a probe is a request to one operation of the document, valid or with exactly one defect,
// so that the document says which status it must get; `features` name what else is notable about it
// (an id beyond 2^53, an integer written `1e18`, a `__proto__` key, …) so that deviations can be
// listed by class. A probe is built from its parts (toProbe) and sent as a RequestSpec (requestOf).
import { plantFieldNames } from '@plant-store/core'
import type { OperationEntry } from '../document.js'
import { type Auth, describeRequest, type RequestSpec } from '../http.js'
import type { JsonNode } from './json-text.js'

/** The one thing wrong with a request; the document gives each a status (see `defectStatus`). */
export type Defect =
  | 'auth: none'
  | 'auth: malformed'
  | 'auth: unknown token'
  | 'auth: token in the query string'
  | 'auth: token in a cookie'
  | 'body: none'
  | 'body: empty'
  | 'body: malformed JSON'
  | 'body: not an object'
  | 'body: required field missing'
  | 'body: wrong type'
  | 'body: integer out of range'
  | 'body: not an integer'
  | 'body: not Unicode text'
  | 'body: string too long'
  | 'body: too large'
  | 'content type: unsupported'
  | 'content type: none'
  | 'path: not an int64'
  | 'query: out of range'
  | 'query: not an integer'
  | 'query: repeated'
  | 'query: unknown cursor'
  | 'query: string too long'
  // Keywords the shipped document does not use yet, for the deterministic coverage probes
  // (coverage.ts): each is a 400, as the oracle gives any defect it does not name.
  | 'body: string too short'
  | 'body: not in enum'
  | 'path: out of range'
  | 'query: required parameter missing'
  | 'query: string too short'
  | 'query: not in enum'

export type Feature =
  | 'id beyond 2^53'
  | 'integer form: exponent'
  | 'integer form: fraction'
  | 'integer form: negative zero'
  | 'key: __proto__'
  | 'key: constructor'
  | 'key: duplicate'
  | 'key: unknown'
  | 'string: NUL'
  | 'string: astral or combining'
  | 'content type: parameters or case'
  | 'content type: +json suffix'
  | 'path: percent-encoded'
  | 'query: unknown parameter'
  | 'query: empty value'
  | 'body on an operation without one'
  | 'content type without a body'

export interface Probe {
  entry: OperationEntry
  defect: Defect | undefined
  features: Feature[]
  method: string
  /** Path and query string, as sent. */
  path: string
  auth: Auth
  contentType?: string
  body?: string
  /** What a correct reader makes of the body (ids as bigint), when it is valid JSON. */
  bodyValue?: unknown
  /** The plant id the request names, in its path or its body. */
  id?: bigint
  /** The parameters a correct server reads from the query string. */
  query: Record<string, string>
  /** What a deterministic coverage probe covers, e.g. `name maxLength 256 (valid)` (coverage.ts). */
  covers?: string
}

export const JSON_TYPE = 'application/json'
export const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** What is notable about a valid body, for the deviation classes. */
export function bodyFeatures(node: JsonNode, top = true): Feature[] {
  const found = new Set<Feature>()
  const visit = (n: JsonNode, depth: number) => {
    if (n.kind === 'integer') {
      if (n.value > SAFE || n.value < -SAFE) found.add('id beyond 2^53')
      if (n.form === 'exponent' && n.value % 10n === 0n && n.value !== 0n) found.add('integer form: exponent')
      if (n.form === 'fraction' || n.form === 'scaled' || n.form === 'split')
        found.add('integer form: fraction')
      if (n.form === 'negative zero' && n.value === 0n) found.add('integer form: negative zero')
    } else if (n.kind === 'string') {
      if (n.value.includes('\u0000')) found.add('string: NUL')
      if (/[\u0300-\u036f]|[\ud800-\udbff]/.test(n.value)) found.add('string: astral or combining')
    } else if (n.kind === 'object') {
      const keys = n.entries.map(([k]) => k)
      if (depth === 0 && new Set(keys).size < keys.length) found.add('key: duplicate')
      for (const [key, item] of n.entries) {
        if (key === '__proto__') found.add('key: __proto__')
        if (key === 'constructor' || key === 'prototype') found.add('key: constructor')
        if (depth === 0 && !plantFieldNames.includes(key)) found.add('key: unknown')
        visit(item, depth + 1)
      }
    } else if (n.kind === 'array') for (const item of n.items) visit(item, depth + 1)
  }
  visit(node, top ? 0 : 1)
  return [...found]
}

export function entriesOf(node: JsonNode): [string, JsonNode][] {
  return node.kind === 'object' ? node.entries : []
}

export function withField(node: JsonNode, field: string, replacement: JsonNode): JsonNode {
  const entries = entriesOf(node).filter(([k]) => k !== field)
  return { kind: 'object', entries: [...entries, [field, replacement]] }
}

/** A probe before it is rendered by `toProbe`: its path values and query as parts. */
export interface Parts {
  defect: Defect | undefined
  features: Feature[]
  pathValues: Record<string, string>
  query: [string, string][]
  auth: Auth
  contentType?: string
  body?: string
  bodyValue?: unknown
  id?: bigint
}

export function toProbe(entry: OperationEntry, parts: Parts): Probe {
  let path = entry.path
  for (const [name, v] of Object.entries(parts.pathValues)) path = path.replace(`{${name}}`, v)
  // Values are escaped so that each reaches the server as written; a path value keeps its own escapes.
  const search = parts.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  const query: Record<string, string> = {}
  for (const [k, v] of parts.query) query[k] ??= v
  if (Object.values(parts.pathValues).some((v) => v.includes('%')))
    parts.features.push('path: percent-encoded')
  return {
    entry,
    defect: parts.defect,
    features: [...new Set(parts.features)],
    method: entry.method.toUpperCase(),
    path: search ? `${path}?${search}` : path,
    auth: parts.auth,
    ...(parts.contentType === undefined ? {} : { contentType: parts.contentType }),
    ...(parts.body === undefined ? {} : { body: parts.body }),
    ...(parts.bodyValue === undefined ? {} : { bodyValue: parts.bodyValue }),
    ...(parts.id === undefined ? {} : { id: parts.id }),
    query,
  }
}

/** One line that says what a probe is, for reports and failure messages. */
export function describeProbe(probe: Probe): string {
  return describeRequest(requestOf(probe))
}

/** The request a probe sends, as the suite's HTTP helper takes it. */
export function requestOf(probe: Probe): RequestSpec {
  return {
    method: probe.method,
    path: probe.path,
    auth: probe.auth,
    ...(probe.contentType === undefined ? {} : { contentType: probe.contentType }),
    ...(probe.body === undefined ? {} : { body: probe.body }),
  }
}
