// The compatibility rules, one row each: what changed, how it is classed, and whose client it affects.
// The engine (diff.ts) reports changes by these ids; the tests (contracts/compat/test/compat-rules.test.ts) hold
// one breaking and one non-breaking fixture for every row.

/** breaking: fails the gate unless released as a new major; review: printed for a person to judge. */
export type ChangeClass = 'breaking' | 'review' | 'non-breaking'

/** A client of the real server, or one developing against the Prism mock of the document. */
export type Client = 'server clients' | 'mock clients' | 'webhook receivers'

export interface Rule {
  description: string
  class: ChangeClass
  who: Client[]
}

const both: Client[] = ['server clients', 'mock clients']
const server: Client[] = ['server clients']
const mock: Client[] = ['mock clients']
const receivers: Client[] = ['webhook receivers']

// Request schemas are compared as "what the server accepts": narrowing rejects what a client sends.
// Response schemas as "what a client must be ready to read": widening sends what it cannot read.
// A webhook turns this round: its body and headers are what the server sends a receiver, so they are
// compared as a response is, under the response rules.
export const rules = {
  // Operations and paths
  'operation-removed': { description: 'an operation, path or method removed', class: 'breaking', who: both },
  'operation-added': { description: 'a new operation', class: 'non-breaking', who: both },
  'operation-id-changed': {
    description: 'an operationId changed: generated clients name their methods after it',
    class: 'review',
    who: both,
  },

  // Webhooks
  'webhook-removed': {
    description: 'a webhook no longer sent: its receivers wait for events that never come',
    class: 'breaking',
    who: receivers,
  },
  'webhook-added': { description: 'a new webhook', class: 'non-breaking', who: receivers },

  // Security
  'security-added': {
    description: 'an operation open to anyone now requires credentials',
    class: 'breaking',
    who: both,
  },
  'security-changed': {
    description:
      'the credentials an operation accepts changed: another scheme, a scheme redefined, more scopes',
    class: 'breaking',
    who: both,
  },
  'security-relaxed': {
    description: 'an operation accepts more credentials, or none',
    class: 'non-breaking',
    who: both,
  },

  // Request parameters (path, query, header, cookie)
  'request-parameter-required-added': {
    description: 'a new required parameter or header, or an optional one made required',
    class: 'breaking',
    who: both,
  },
  'request-parameter-added': {
    description: 'a new optional parameter or header',
    class: 'non-breaking',
    who: both,
  },
  'request-parameter-optional': {
    description: 'a required parameter or header made optional',
    class: 'non-breaking',
    who: both,
  },
  'request-parameter-removed': {
    description: 'a parameter removed: a client still sending it is ignored, not refused',
    class: 'review',
    who: server,
  },

  // Request bodies
  'request-body-required': {
    description: 'a request body now required, where none or an optional one was',
    class: 'breaking',
    who: both,
  },
  'request-body-optional': {
    description: 'a request body now optional, or a new optional one',
    class: 'non-breaking',
    who: both,
  },
  'request-body-removed': {
    description: 'a request body no longer read: a client still sending it is ignored',
    class: 'review',
    who: server,
  },
  'request-content-type-removed': {
    description: 'an accepted request content type removed',
    class: 'breaking',
    who: both,
  },
  'request-content-type-added': {
    description: 'a new accepted request content type',
    class: 'non-breaking',
    who: both,
  },

  // Request fields and constraints
  'request-property-required-added': {
    description: 'a new required request field, or an optional one made required',
    class: 'breaking',
    who: both,
  },
  'request-property-added': { description: 'a new optional request field', class: 'non-breaking', who: both },
  'request-property-optional': {
    description: 'a required request field made optional',
    class: 'non-breaking',
    who: both,
  },
  'request-property-removed': {
    description: 'a request field removed: the server ignores it from now on',
    class: 'review',
    who: server,
  },
  'request-property-rejected': {
    description: 'a request field removed from a schema that refuses fields it does not name',
    class: 'breaking',
    who: both,
  },
  'request-type-narrowed': {
    description: 'a request type narrowed or changed (type, items, alternatives)',
    class: 'breaking',
    who: both,
  },
  'request-type-widened': { description: 'a request type widened', class: 'non-breaking', who: both },
  'request-format-narrowed': {
    description: 'a request format added or narrowed',
    class: 'breaking',
    who: both,
  },
  'request-format-widened': {
    description: 'a request format removed or widened',
    class: 'non-breaking',
    who: both,
  },
  'request-enum-narrowed': {
    description: 'a request enum added, or a value of it removed',
    class: 'breaking',
    who: both,
  },
  'request-enum-widened': {
    description: 'a request enum dropped, or a value added to it',
    class: 'non-breaking',
    who: both,
  },
  'request-pattern-narrowed': {
    description: 'a request pattern added or changed',
    class: 'breaking',
    who: both,
  },
  'request-pattern-widened': { description: 'a request pattern removed', class: 'non-breaking', who: both },
  'request-bound-narrowed': {
    description: 'a request bound narrowed (minimum, maximum, minLength, maxLength, minItems, maxItems, …)',
    class: 'breaking',
    who: both,
  },
  'request-bound-widened': { description: 'a request bound widened', class: 'non-breaking', who: both },
  'request-bound-unreachable': {
    description:
      'a maxLength added or lowered on a request string, at or past what a request can carry there (the body limit, or the request line limit for a parameter): no request that can arrive is refused by it',
    class: 'non-breaking',
    who: both,
  },
  'request-additional-properties-narrowed': {
    description: 'a request schema refuses fields it does not name, where it accepted them',
    class: 'breaking',
    who: both,
  },
  'request-additional-properties-widened': {
    description: 'a request schema accepts fields it does not name, where it refused them',
    class: 'non-breaking',
    who: both,
  },

  // Responses
  'response-status-removed': { description: 'a documented status removed', class: 'breaking', who: both },
  'response-status-added': {
    description: 'a new response status on an existing operation',
    class: 'non-breaking',
    who: both,
  },
  'response-content-type-removed': {
    description: 'a response content type removed',
    class: 'breaking',
    who: both,
  },
  'response-content-type-added': {
    description: 'a new response content type',
    class: 'non-breaking',
    who: both,
  },
  'response-header-removed': {
    description: 'a response header removed (Link, WWW-Authenticate, …)',
    class: 'breaking',
    who: both,
  },
  'response-header-optional': {
    description: 'a response header no longer always sent',
    class: 'breaking',
    who: both,
  },
  'response-header-added': { description: 'a new response header', class: 'non-breaking', who: both },
  'response-header-required': {
    description: 'a response header now always sent',
    class: 'non-breaking',
    who: both,
  },

  // Response fields and constraints
  'response-property-removed': { description: 'a response field removed', class: 'breaking', who: both },
  'response-property-optional': {
    description: 'a response field no longer required',
    class: 'breaking',
    who: both,
  },
  'response-property-added': { description: 'a new response field', class: 'non-breaking', who: both },
  'response-property-required': {
    description: 'a response field now required',
    class: 'non-breaking',
    who: both,
  },
  'response-type-changed': {
    description: 'a response type changed or widened (type, items, alternatives)',
    class: 'breaking',
    who: both,
  },
  'response-type-narrowed': { description: 'a response type narrowed', class: 'non-breaking', who: both },
  'response-format-changed': {
    description: 'a response format changed, removed or widened',
    class: 'breaking',
    who: both,
  },
  'response-format-narrowed': {
    description: 'a response format added or narrowed',
    class: 'non-breaking',
    who: both,
  },
  'response-enum-widened': {
    description: 'a new value in a response enum, or the enum dropped',
    class: 'review',
    who: both,
  },
  'response-enum-narrowed': {
    description: 'a response enum added, or a value of it removed',
    class: 'non-breaking',
    who: both,
  },
  'response-constraint-widened': {
    description: 'a response pattern, bound or additionalProperties loosened',
    class: 'review',
    who: both,
  },
  'response-constraint-narrowed': {
    description: 'a response pattern, bound or additionalProperties tightened',
    class: 'non-breaking',
    who: both,
  },

  // Defaults and examples
  'default-changed': {
    description: 'a default changed: the server acts differently on what a client leaves out',
    class: 'review',
    who: server,
  },
  'example-changed': {
    description: 'an example changed or removed: the mock answers with examples',
    class: 'review',
    who: mock,
  },
  'example-added': { description: 'a new example', class: 'non-breaking', who: mock },
} as const satisfies Record<string, Rule>

export type RuleId = keyof typeof rules

export const ruleIds = Object.keys(rules) as RuleId[]

export const isRuleId = (id: string): id is RuleId => Object.hasOwn(rules, id)
