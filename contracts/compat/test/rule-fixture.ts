// The small document every compatibility rule is tried on (two paths, three operations, a webhook,
// every kind of part the rules look at), the pointers into it, and how an edit of it is diffed.
import { type Document, dereference } from '../../../scripts/lib/spec.js'
import { type Change, diffDocuments } from '../../../src/core/compat/diff.js'
import { type RuleId, rules } from '../../../src/core/compat/rules.js'

// ---- The fixture: two paths, three operations, a webhook, every kind of part the rules look at ----

export const thing = () => ({
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string', maxLength: 50 },
    kind: { type: 'string', enum: ['herb', 'tree'] },
    size: { type: 'integer', format: 'int32' },
    score: { type: 'number' },
    note: { type: 'string' },
  },
})

export const newThing = () => ({
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 50, pattern: '^[A-Za-z ]+$' },
    kind: { type: 'string', enum: ['herb', 'tree'] },
    size: { type: 'integer', format: 'int32', minimum: 0, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: 'string' },
  },
})

export const fixture = () => ({
  openapi: '3.1.0',
  info: { title: 'Fixture', version: '1.0.0' },
  security: [{ bearer: [] }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
    },
  },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        // Open to anyone, so that requiring credentials can be tried.
        security: [],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
            examples: { one: { value: 1 } },
          },
          { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A page',
            headers: {
              Link: { schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' } },
              'WWW-Authenticate': { required: true, schema: { type: 'string' } },
            },
            content: {
              'application/json': {
                schema: { type: 'array', items: thing() },
                examples: { one: { value: [{ id: 1, name: 'Basil' }] } },
              },
            },
          },
        },
      },
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: { 'application/json': { schema: newThing() } } },
        responses: {
          '200': { description: 'Created', content: { 'application/json': { schema: thing() } } },
          '409': { description: 'Taken' },
        },
      },
    },
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getThing',
        responses: {
          '200': { description: 'The thing', content: { 'application/json': { schema: thing() } } },
          '404': { description: 'None' },
        },
      },
    },
  },
  webhooks: {
    thingAdded: {
      post: {
        operationId: 'thingAdded',
        parameters: [{ name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: thing() } } },
        responses: { '200': { description: 'Received' } },
      },
    },
  },
})

export type Fixture = ReturnType<typeof fixture>
export type Edit = (doc: Fixture) => void

export const GET = '/paths/~1things/get'
export const POST = '/paths/~1things/post'
export const ONE = '/paths/~1things~1{id}'
export const REQ = `${POST}/requestBody/content/application~1json/schema`
export const RES = `${POST}/responses/200/content/application~1json/schema`
export const LIST = `${GET}/responses/200`
export const JSON_MEDIA = `${LIST}/content/application~1json`
export const HOOK = '/webhooks/thingAdded/post'
export const HOOK_BODY = `${HOOK}/requestBody/content/application~1json/schema`
export const hook = (operationId: string) => ({
  post: { ...operation(operationId), requestBody: { content: {} } },
})

export const operation = (operationId: string) => ({
  operationId,
  responses: { '204': { description: 'Done' } },
})
export const newParam = (name: string, where: string, required: boolean) => ({
  name,
  in: where,
  required,
  schema: { type: 'string' },
})

// ---- The pairs: `breaking` and `nonBreaking` edit the fixture; the rule's class says which fires it ----

export interface Pair {
  rule: RuleId
  /** Applied to the released side and the edited side alike, when the rule needs another start. */
  setup?: Edit
  breaking: Edit
  nonBreaking: Edit
  /** Where the rule fires, on the edit of its own class. */
  pointer: string
  /** What the pair shows, when a rule has more than one. */
  title?: string
}

// ---- Running them --------------------------------------------------------------------------------

const asDocument = (doc: Fixture) => dereference(structuredClone(doc)) as unknown as Document

export function diffAfter(setup: Edit | undefined, edit: Edit): Change[] {
  const base = fixture()
  setup?.(base)
  const head = structuredClone(base)
  edit(head)
  return diffDocuments(asDocument(base), asDocument(head))
}

export const breakingOf = (changes: Change[]) => changes.filter((c) => rules[c.rule].class === 'breaking')
export const show = (changes: Change[]) =>
  changes.map((c) => `${c.rule} ${c.pointer}: ${c.detail}`).join('\n')
