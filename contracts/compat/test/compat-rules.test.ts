// Every compatibility rule on a small document: one breaking and one non-breaking edit of it, the
// rule firing at its pointer on the edit of its own class and not on the other.
import { describe, expect, it } from 'vitest'
import { type Document, dereference } from '../../../scripts/lib/spec.js'
import { type Change, diffDocuments } from '../diff.js'
import { get, push, remove, set } from '../pointer.js'
import { type RuleId, ruleIds, rules } from '../rules.js'

// ---- The fixture: two paths, three operations, a webhook, every kind of part the rules look at ----

const thing = () => ({
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

const newThing = () => ({
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

const fixture = () => ({
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

type Fixture = ReturnType<typeof fixture>
type Edit = (doc: Fixture) => void

const GET = '/paths/~1things/get'
const POST = '/paths/~1things/post'
const ONE = '/paths/~1things~1{id}'
const REQ = `${POST}/requestBody/content/application~1json/schema`
const RES = `${POST}/responses/200/content/application~1json/schema`
const LIST = `${GET}/responses/200`
const JSON_MEDIA = `${LIST}/content/application~1json`
const HOOK = '/webhooks/thingAdded/post'
const HOOK_BODY = `${HOOK}/requestBody/content/application~1json/schema`
const hook = (operationId: string) => ({ post: { ...operation(operationId), requestBody: { content: {} } } })

const operation = (operationId: string) => ({ operationId, responses: { '204': { description: 'Done' } } })
const newParam = (name: string, where: string, required: boolean) => ({
  name,
  in: where,
  required,
  schema: { type: 'string' },
})

// ---- The pairs: `breaking` and `nonBreaking` edit the fixture; the rule's class says which fires it ----

interface Pair {
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

const pairs: Pair[] = [
  // Operations and paths
  {
    rule: 'operation-removed',
    breaking: (d) => remove(d, `${ONE}/get`),
    nonBreaking: (d) => set(d, `${ONE}/delete`, operation('deleteThing')),
    pointer: `${ONE}/get`,
  },
  {
    rule: 'operation-removed',
    title: 'a whole path removed',
    breaking: (d) => remove(d, ONE),
    nonBreaking: (d) => set(d, '/paths/~1others', { get: operation('listOthers') }),
    pointer: `${ONE}/get`,
  },
  {
    rule: 'operation-added',
    breaking: (d) => remove(d, `${ONE}/get`),
    nonBreaking: (d) => set(d, `${ONE}/delete`, operation('deleteThing')),
    pointer: `${ONE}/delete`,
  },
  {
    rule: 'operation-id-changed',
    breaking: (d) => remove(d, `${ONE}/get`),
    nonBreaking: (d) => set(d, `${ONE}/get/operationId`, 'readThing'),
    pointer: `${ONE}/get/operationId`,
  },
  // Webhooks: what the server sends, so read as a response is
  {
    rule: 'webhook-removed',
    breaking: (d) => remove(d, '/webhooks/thingAdded'),
    nonBreaking: (d) => set(d, '/webhooks/thingGone', hook('thingGone')),
    pointer: HOOK,
  },
  {
    rule: 'webhook-added',
    breaking: (d) => remove(d, HOOK),
    nonBreaking: (d) => set(d, '/webhooks/thingGone', hook('thingGone')),
    pointer: '/webhooks/thingGone/post',
  },
  {
    rule: 'response-format-changed',
    title: 'a webhook body widened: a receiver gets what it cannot read',
    breaking: (d) => set(d, `${HOOK_BODY}/properties/size/format`, 'int64'),
    nonBreaking: (d) => set(d, `${HOOK_BODY}/properties/size/minimum`, 0),
    pointer: `${HOOK_BODY}/properties/size`,
  },
  {
    rule: 'response-property-removed',
    title: 'a field no longer in a webhook body',
    breaking: (d) => remove(d, `${HOOK_BODY}/properties/note`),
    nonBreaking: (d) => set(d, `${HOOK_BODY}/properties/color`, { type: 'string' }),
    pointer: `${HOOK_BODY}/properties/note`,
  },
  {
    rule: 'response-property-required',
    title: 'a webhook body field now always sent, which would break a request',
    breaking: (d) => set(d, `${HOOK_BODY}/required`, ['id']),
    nonBreaking: (d) => push(d, `${HOOK_BODY}/required`, 'kind'),
    pointer: `${HOOK_BODY}/properties/kind`,
  },
  {
    rule: 'response-header-removed',
    title: 'a webhook’s signature header no longer sent',
    breaking: (d) => remove(d, `${HOOK}/parameters/0`),
    nonBreaking: (d) => push(d, `${HOOK}/parameters`, newParam('webhook-id', 'header', true)),
    pointer: `${HOOK}/parameters/0`,
  },
  {
    rule: 'response-header-added',
    title: 'a new header on every webhook',
    breaking: (d) => set(d, `${HOOK}/parameters/0/required`, false),
    nonBreaking: (d) => push(d, `${HOOK}/parameters`, newParam('webhook-id', 'header', true)),
    pointer: `${HOOK}/parameters/1`,
  },
  // Security
  {
    rule: 'security-added',
    breaking: (d) => remove(d, `${GET}/security`),
    nonBreaking: (d) => set(d, `${POST}/security`, []),
    pointer: `${GET}/security`,
  },
  {
    rule: 'security-changed',
    breaking: (d) => set(d, `${POST}/security`, [{ key: [] }]),
    nonBreaking: (d) => set(d, `${POST}/security`, [{ bearer: [] }, { key: [] }]),
    pointer: `${POST}/security`,
  },
  {
    rule: 'security-changed',
    title: 'the scheme itself redefined under the same name',
    breaking: (d) => set(d, '/components/securitySchemes/bearer', { type: 'http', scheme: 'basic' }),
    nonBreaking: (d) => set(d, '/components/securitySchemes/bearer/description', 'A bearer token'),
    pointer: `${POST}/security`,
  },
  {
    rule: 'security-relaxed',
    breaking: (d) => set(d, `${POST}/security`, [{ key: [] }]),
    nonBreaking: (d) => set(d, `${POST}/security`, []),
    pointer: `${POST}/security`,
  },
  // Parameters
  {
    rule: 'request-parameter-required-added',
    breaking: (d) => push(d, `${GET}/parameters`, newParam('sort', 'query', true)),
    nonBreaking: (d) => push(d, `${GET}/parameters`, newParam('sort', 'query', false)),
    pointer: `${GET}/parameters/2`,
  },
  {
    rule: 'request-parameter-required-added',
    title: 'a new required header',
    breaking: (d) => push(d, `${GET}/parameters`, newParam('X-Request-Id', 'header', true)),
    nonBreaking: (d) => push(d, `${GET}/parameters`, newParam('X-Request-Id', 'header', false)),
    pointer: `${GET}/parameters/2`,
  },
  {
    rule: 'request-parameter-required-added',
    title: 'an optional parameter made required',
    breaking: (d) => set(d, `${GET}/parameters/0/required`, true),
    nonBreaking: (d) => set(d, `${GET}/parameters/1/required`, false),
    pointer: `${GET}/parameters/0`,
  },
  {
    rule: 'request-parameter-added',
    breaking: (d) => push(d, `${GET}/parameters`, newParam('sort', 'query', true)),
    nonBreaking: (d) => push(d, `${GET}/parameters`, newParam('sort', 'query', false)),
    pointer: `${GET}/parameters/2`,
  },
  {
    rule: 'request-parameter-optional',
    breaking: (d) => set(d, `${GET}/parameters/0/required`, true),
    nonBreaking: (d) => set(d, `${GET}/parameters/1/required`, false),
    pointer: `${GET}/parameters/1`,
  },
  {
    rule: 'request-parameter-removed',
    breaking: (d) => push(d, `${GET}/parameters`, newParam('sort', 'query', true)),
    nonBreaking: (d) => remove(d, `${GET}/parameters/1`),
    pointer: `${GET}/parameters/1`,
  },
  // Request bodies
  {
    rule: 'request-body-required',
    setup: (d) => set(d, `${POST}/requestBody/required`, false),
    breaking: (d) => set(d, `${POST}/requestBody/required`, true),
    nonBreaking: (d) => set(d, `${REQ}/properties/color`, { type: 'string' }),
    pointer: `${POST}/requestBody`,
  },
  {
    rule: 'request-body-optional',
    breaking: (d) => push(d, `${REQ}/required`, 'kind'),
    nonBreaking: (d) => set(d, `${POST}/requestBody/required`, false),
    pointer: `${POST}/requestBody`,
  },
  {
    rule: 'request-body-removed',
    breaking: (d) => push(d, `${REQ}/required`, 'kind'),
    nonBreaking: (d) => remove(d, `${POST}/requestBody`),
    pointer: `${POST}/requestBody`,
  },
  {
    rule: 'request-content-type-removed',
    setup: (d) => set(d, `${POST}/requestBody/content/text~1plain`, { schema: { type: 'string' } }),
    breaking: (d) => remove(d, `${POST}/requestBody/content/text~1plain`),
    nonBreaking: (d) => set(d, `${POST}/requestBody/content/application~1xml`, { schema: newThing() }),
    pointer: `${POST}/requestBody/content/text~1plain`,
  },
  {
    rule: 'request-content-type-added',
    breaking: (d) => remove(d, `${POST}/requestBody/content/application~1json`),
    nonBreaking: (d) => set(d, `${POST}/requestBody/content/application~1xml`, { schema: newThing() }),
    pointer: `${POST}/requestBody/content/application~1xml`,
  },
  // Request fields
  {
    rule: 'request-property-required-added',
    breaking: (d) => push(d, `${REQ}/required`, 'kind'),
    nonBreaking: (d) => set(d, `${REQ}/properties/color`, { type: 'string' }),
    pointer: `${REQ}/properties/kind`,
  },
  {
    rule: 'request-property-required-added',
    title: 'a new required field',
    breaking: (d) => {
      set(d, `${REQ}/properties/color`, { type: 'string' })
      push(d, `${REQ}/required`, 'color')
    },
    nonBreaking: (d) => set(d, `${REQ}/properties/color`, { type: 'string' }),
    pointer: `${REQ}/properties/color`,
  },
  {
    rule: 'request-property-added',
    breaking: (d) => {
      set(d, `${REQ}/properties/color`, { type: 'string' })
      push(d, `${REQ}/required`, 'color')
    },
    nonBreaking: (d) => set(d, `${REQ}/properties/color`, { type: 'string' }),
    pointer: `${REQ}/properties/color`,
  },
  {
    rule: 'request-property-optional',
    breaking: (d) => push(d, `${REQ}/required`, 'kind'),
    nonBreaking: (d) => set(d, `${REQ}/required`, []),
    pointer: `${REQ}/properties/name`,
  },
  {
    rule: 'request-property-removed',
    breaking: (d) => {
      set(d, `${REQ}/additionalProperties`, false)
      remove(d, `${REQ}/properties/note`)
    },
    nonBreaking: (d) => remove(d, `${REQ}/properties/note`),
    pointer: `${REQ}/properties/note`,
  },
  {
    rule: 'request-property-rejected',
    setup: (d) => set(d, `${REQ}/additionalProperties`, false),
    breaking: (d) => remove(d, `${REQ}/properties/note`),
    nonBreaking: (d) => set(d, `${REQ}/properties/color`, { type: 'string' }),
    pointer: `${REQ}/properties/note`,
  },
  // Request constraints: narrowed breaks, widened does not
  {
    rule: 'request-type-narrowed',
    breaking: (d) => set(d, `${REQ}/properties/note/type`, 'integer'),
    nonBreaking: (d) => set(d, `${REQ}/properties/note/type`, ['string', 'null']),
    pointer: `${REQ}/properties/note`,
  },
  {
    rule: 'request-type-narrowed',
    title: 'the items of an array changed',
    breaking: (d) => set(d, `${REQ}/properties/tags/items/type`, 'integer'),
    nonBreaking: (d) => remove(d, `${REQ}/properties/tags/items/type`),
    pointer: `${REQ}/properties/tags/items`,
  },
  {
    rule: 'request-type-widened',
    breaking: (d) => set(d, `${REQ}/properties/note/type`, 'integer'),
    nonBreaking: (d) => set(d, `${REQ}/properties/size/type`, 'number'),
    pointer: `${REQ}/properties/size`,
  },
  {
    rule: 'request-format-narrowed',
    breaking: (d) => set(d, `${REQ}/properties/note/format`, 'email'),
    nonBreaking: (d) => set(d, `${REQ}/properties/size/format`, 'int64'),
    pointer: `${REQ}/properties/note`,
  },
  {
    rule: 'request-format-widened',
    breaking: (d) => set(d, `${REQ}/properties/note/format`, 'email'),
    nonBreaking: (d) => set(d, `${REQ}/properties/size/format`, 'int64'),
    pointer: `${REQ}/properties/size`,
  },
  {
    rule: 'request-enum-narrowed',
    breaking: (d) => set(d, `${REQ}/properties/kind/enum`, ['herb']),
    nonBreaking: (d) => push(d, `${REQ}/properties/kind/enum`, 'shrub'),
    pointer: `${REQ}/properties/kind/enum`,
  },
  {
    rule: 'request-enum-widened',
    breaking: (d) => set(d, `${REQ}/properties/kind/enum`, ['herb']),
    nonBreaking: (d) => push(d, `${REQ}/properties/kind/enum`, 'shrub'),
    pointer: `${REQ}/properties/kind/enum`,
  },
  {
    rule: 'request-pattern-narrowed',
    breaking: (d) => set(d, `${REQ}/properties/name/pattern`, '^[a-z]+$'),
    nonBreaking: (d) => remove(d, `${REQ}/properties/name/pattern`),
    pointer: `${REQ}/properties/name`,
  },
  {
    rule: 'request-pattern-widened',
    breaking: (d) => set(d, `${REQ}/properties/note/pattern`, '^[a-z]+$'),
    nonBreaking: (d) => remove(d, `${REQ}/properties/name/pattern`),
    pointer: `${REQ}/properties/name`,
  },
  {
    rule: 'request-bound-narrowed',
    breaking: (d) => set(d, `${REQ}/properties/size/maximum`, 5),
    nonBreaking: (d) => set(d, `${REQ}/properties/size/maximum`, 20),
    pointer: `${REQ}/properties/size`,
  },
  {
    rule: 'request-bound-narrowed',
    title: 'maxLength lowered',
    breaking: (d) => set(d, `${REQ}/properties/name/maxLength`, 20),
    nonBreaking: (d) => remove(d, `${REQ}/properties/name/maxLength`),
    pointer: `${REQ}/properties/name`,
  },
  {
    rule: 'request-bound-unreachable',
    title: 'a maxLength no body within the body limit can reach',
    breaking: (d) => set(d, `${REQ}/properties/name/maxLength`, 20),
    nonBreaking: (d) => set(d, `${REQ}/properties/note/maxLength`, 65536),
    pointer: `${REQ}/properties/note`,
  },
  {
    rule: 'request-bound-narrowed',
    title: 'a parameter’s minimum raised',
    breaking: (d) => set(d, `${GET}/parameters/0/schema/minimum`, 5),
    nonBreaking: (d) => set(d, `${GET}/parameters/0/schema/minimum`, 0),
    pointer: `${GET}/parameters/0/schema`,
  },
  {
    rule: 'request-bound-widened',
    breaking: (d) => set(d, `${REQ}/properties/size/maximum`, 5),
    nonBreaking: (d) => set(d, `${REQ}/properties/size/maximum`, 20),
    pointer: `${REQ}/properties/size`,
  },
  {
    rule: 'request-additional-properties-narrowed',
    breaking: (d) => set(d, `${REQ}/additionalProperties`, false),
    nonBreaking: (d) => set(d, `${REQ}/additionalProperties`, true),
    pointer: `${REQ}/additionalProperties`,
  },
  {
    rule: 'request-additional-properties-widened',
    setup: (d) => set(d, `${REQ}/additionalProperties`, false),
    breaking: (d) => push(d, `${REQ}/required`, 'kind'),
    nonBreaking: (d) => remove(d, `${REQ}/additionalProperties`),
    pointer: `${REQ}/additionalProperties`,
  },
  // Responses
  {
    rule: 'response-status-removed',
    breaking: (d) => remove(d, `${POST}/responses/409`),
    nonBreaking: (d) => set(d, `${POST}/responses/422`, { description: 'Invalid' }),
    pointer: `${POST}/responses/409`,
  },
  {
    rule: 'response-status-added',
    breaking: (d) => remove(d, `${POST}/responses/409`),
    nonBreaking: (d) => set(d, `${POST}/responses/422`, { description: 'Invalid' }),
    pointer: `${POST}/responses/422`,
  },
  {
    rule: 'response-content-type-removed',
    breaking: (d) => remove(d, `${POST}/responses/200/content/application~1json`),
    nonBreaking: (d) => set(d, `${POST}/responses/200/content/application~1xml`, { schema: thing() }),
    pointer: `${POST}/responses/200/content/application~1json`,
  },
  {
    rule: 'response-content-type-added',
    breaking: (d) => remove(d, `${POST}/responses/200/content/application~1json`),
    nonBreaking: (d) => set(d, `${POST}/responses/200/content/application~1xml`, { schema: thing() }),
    pointer: `${POST}/responses/200/content/application~1xml`,
  },
  {
    rule: 'response-header-removed',
    breaking: (d) => remove(d, `${LIST}/headers/Link`),
    nonBreaking: (d) => set(d, `${LIST}/headers/X-Total`, { schema: { type: 'integer' } }),
    pointer: `${LIST}/headers/Link`,
  },
  {
    rule: 'response-header-removed',
    title: 'WWW-Authenticate removed',
    breaking: (d) => remove(d, `${LIST}/headers/WWW-Authenticate`),
    nonBreaking: (d) => set(d, `${LIST}/headers/WWW-Authenticate/description`, 'The challenge'),
    pointer: `${LIST}/headers/WWW-Authenticate`,
  },
  {
    rule: 'response-header-optional',
    breaking: (d) => set(d, `${LIST}/headers/WWW-Authenticate/required`, false),
    nonBreaking: (d) => set(d, `${LIST}/headers/Link/required`, true),
    pointer: `${LIST}/headers/WWW-Authenticate`,
  },
  {
    rule: 'response-header-added',
    breaking: (d) => remove(d, `${LIST}/headers/Link`),
    nonBreaking: (d) => set(d, `${LIST}/headers/X-Total`, { schema: { type: 'integer' } }),
    pointer: `${LIST}/headers/X-Total`,
  },
  {
    rule: 'response-header-required',
    breaking: (d) => set(d, `${LIST}/headers/WWW-Authenticate/required`, false),
    nonBreaking: (d) => set(d, `${LIST}/headers/Link/required`, true),
    pointer: `${LIST}/headers/Link`,
  },
  // Response fields
  {
    rule: 'response-property-removed',
    breaking: (d) => remove(d, `${RES}/properties/note`),
    nonBreaking: (d) => set(d, `${RES}/properties/color`, { type: 'string' }),
    pointer: `${RES}/properties/note`,
  },
  {
    rule: 'response-property-optional',
    breaking: (d) => set(d, `${RES}/required`, ['id']),
    nonBreaking: (d) => push(d, `${RES}/required`, 'kind'),
    pointer: `${RES}/properties/name`,
  },
  {
    rule: 'response-property-added',
    breaking: (d) => remove(d, `${RES}/properties/note`),
    nonBreaking: (d) => set(d, `${RES}/properties/color`, { type: 'string' }),
    pointer: `${RES}/properties/color`,
  },
  {
    rule: 'response-property-required',
    breaking: (d) => set(d, `${RES}/required`, ['id']),
    nonBreaking: (d) => push(d, `${RES}/required`, 'kind'),
    pointer: `${RES}/properties/kind`,
  },
  // Response constraints: widened breaks (or asks for review), narrowed does not
  {
    rule: 'response-type-changed',
    breaking: (d) => set(d, `${RES}/properties/score/type`, 'string'),
    nonBreaking: (d) => set(d, `${RES}/properties/score/type`, 'integer'),
    pointer: `${RES}/properties/score`,
  },
  {
    rule: 'response-type-changed',
    title: 'the items of a listed array changed',
    breaking: (d) => set(d, `${JSON_MEDIA}/schema/items/type`, 'string'),
    nonBreaking: (d) => set(d, `${JSON_MEDIA}/schema/items/properties/color`, { type: 'string' }),
    pointer: `${JSON_MEDIA}/schema/items`,
  },
  {
    rule: 'response-type-narrowed',
    breaking: (d) => set(d, `${RES}/properties/score/type`, 'string'),
    nonBreaking: (d) => set(d, `${RES}/properties/score/type`, 'integer'),
    pointer: `${RES}/properties/score`,
  },
  {
    rule: 'response-format-changed',
    breaking: (d) => set(d, `${RES}/properties/size/format`, 'int64'),
    nonBreaking: (d) => set(d, `${RES}/properties/note/format`, 'email'),
    pointer: `${RES}/properties/size`,
  },
  {
    rule: 'response-format-narrowed',
    breaking: (d) => set(d, `${RES}/properties/size/format`, 'int64'),
    nonBreaking: (d) => set(d, `${RES}/properties/note/format`, 'email'),
    pointer: `${RES}/properties/note`,
  },
  {
    rule: 'response-enum-widened',
    breaking: (d) => remove(d, `${RES}/properties/kind`),
    nonBreaking: (d) => push(d, `${RES}/properties/kind/enum`, 'shrub'),
    pointer: `${RES}/properties/kind/enum`,
  },
  {
    rule: 'response-enum-narrowed',
    breaking: (d) => remove(d, `${RES}/properties/kind`),
    nonBreaking: (d) => set(d, `${RES}/properties/kind/enum`, ['herb']),
    pointer: `${RES}/properties/kind/enum`,
  },
  {
    rule: 'response-constraint-widened',
    breaking: (d) => set(d, `${RES}/properties/name/type`, 'integer'),
    nonBreaking: (d) => set(d, `${RES}/properties/name/maxLength`, 100),
    pointer: `${RES}/properties/name`,
  },
  {
    rule: 'response-constraint-widened',
    title: 'a response header’s pattern dropped',
    breaking: (d) => remove(d, `${LIST}/headers/Link`),
    nonBreaking: (d) => remove(d, `${LIST}/headers/Link/schema/pattern`),
    pointer: `${LIST}/headers/Link/schema`,
  },
  {
    rule: 'response-constraint-narrowed',
    breaking: (d) => set(d, `${RES}/properties/name/type`, 'integer'),
    nonBreaking: (d) => set(d, `${RES}/properties/name/maxLength`, 20),
    pointer: `${RES}/properties/name`,
  },
  // Defaults and examples
  {
    rule: 'default-changed',
    breaking: (d) => set(d, `${GET}/parameters/0/required`, true),
    nonBreaking: (d) => set(d, `${GET}/parameters/0/schema/default`, 10),
    pointer: `${GET}/parameters/0/schema/default`,
  },
  {
    rule: 'example-changed',
    breaking: (d) => remove(d, JSON_MEDIA),
    nonBreaking: (d) => set(d, `${JSON_MEDIA}/examples/one/value`, [{ id: 1, name: 'Thai basil' }]),
    pointer: `${JSON_MEDIA}/examples/one`,
  },
  {
    rule: 'example-changed',
    title: 'a parameter’s example removed',
    breaking: (d) => set(d, `${GET}/parameters/0/required`, true),
    nonBreaking: (d) => remove(d, `${GET}/parameters/0/examples/one`),
    pointer: `${GET}/parameters/0/examples/one`,
  },
  {
    rule: 'example-added',
    breaking: (d) => remove(d, JSON_MEDIA),
    nonBreaking: (d) => set(d, `${JSON_MEDIA}/examples/two`, { value: [] }),
    pointer: `${JSON_MEDIA}/examples/two`,
  },
]

// ---- Running them --------------------------------------------------------------------------------

const asDocument = (doc: Fixture) => dereference(structuredClone(doc)) as unknown as Document

function diffAfter(setup: Edit | undefined, edit: Edit): Change[] {
  const base = fixture()
  setup?.(base)
  const head = structuredClone(base)
  edit(head)
  return diffDocuments(asDocument(base), asDocument(head))
}

const breakingOf = (changes: Change[]) => changes.filter((c) => rules[c.rule].class === 'breaking')
const show = (changes: Change[]) => changes.map((c) => `${c.rule} ${c.pointer}: ${c.detail}`).join('\n')

describe('compatibility rules', () => {
  it('every rule of the table has a fixture pair', () => {
    const covered = new Set(pairs.map((p) => p.rule))
    expect(ruleIds.filter((id) => !covered.has(id))).toEqual([])
  })

  it('the fixture compared with itself has no change', () => {
    expect(diffAfter(undefined, () => {})).toEqual([])
  })

  for (const pair of pairs) {
    const { rule, setup, pointer } = pair
    const cls = rules[rule].class
    describe(`${rule} (${cls})${pair.title ? `: ${pair.title}` : ''}`, () => {
      it('the breaking edit breaks a client', () => {
        const changes = diffAfter(setup, pair.breaking)
        expect(breakingOf(changes).length, show(changes)).toBeGreaterThan(0)
        if (cls === 'breaking')
          expect(
            changes.filter((c) => c.rule === rule).map((c) => c.pointer),
            show(changes),
          ).toContain(pointer)
        else
          expect(
            changes.map((c) => c.rule),
            show(changes),
          ).not.toContain(rule)
      })

      it('the non-breaking edit breaks no client', () => {
        const changes = diffAfter(setup, pair.nonBreaking)
        expect(breakingOf(changes), show(changes)).toEqual([])
        if (cls === 'breaking')
          expect(
            changes.map((c) => c.rule),
            show(changes),
          ).not.toContain(rule)
        else
          expect(
            changes.filter((c) => c.rule === rule).map((c) => c.pointer),
            show(changes),
          ).toContain(pointer)
      })
    })
  }
})

describe('the engine', () => {
  it('sees no change when a path parameter is renamed', () => {
    const changes = diffAfter(undefined, (d) => {
      const paths = d.paths as Record<string, unknown>
      paths['/things/{thingId}'] = paths['/things/{id}']
      delete paths['/things/{id}']
      set(d, '/paths/~1things~1{thingId}/parameters/0/name', 'thingId')
    })
    expect(changes).toEqual([])
  })

  it('reads a schema through allOf, as merged', () => {
    const changes = diffAfter(
      (d) => set(d, REQ, { allOf: [newThing(), { required: ['size'] }] }),
      (d) => set(d, `${REQ}/allOf/1/required`, ['size', 'kind']),
    )
    expect(changes.map((c) => [c.rule, c.pointer])).toEqual([
      ['request-property-required-added', `${REQ}/properties/kind`],
    ])
  })

  it('ends on a schema that refers to itself', () => {
    const tree = { type: 'object', properties: { name: { type: 'string' } } as Record<string, unknown> }
    tree.properties.children = { type: 'array', items: tree }
    const changes = diffAfter(
      (d) => set(d, REQ, tree),
      (d) => set(d, `${REQ}/properties/name/type`, 'integer'),
    )
    expect(changes.map((c) => c.rule)).toContain('request-type-narrowed')
  })

  it('reports a change of a schema shared by several operations at each use', () => {
    const changes = diffAfter(undefined, (d) => {
      for (const where of [RES, `${ONE}/get/responses/200/content/application~1json/schema`])
        remove(d, `${where}/properties/note`)
    })
    expect(changes.map((c) => c.pointer)).toEqual([
      `${RES}/properties/note`,
      `${ONE}/get/responses/200/content/application~1json/schema/properties/note`,
    ])
  })

  it('leaves descriptions and summaries alone', () => {
    const changes = diffAfter(undefined, (d) => {
      set(d, `${POST}/description`, 'Makes a thing')
      set(d, `${REQ}/properties/name/description`, 'What it is called')
    })
    expect(changes).toEqual([])
  })

  it('the fixture edits reach what they name', () => {
    // A fixture edit of a pointer that does not exist throws rather than passing for a wrong reason.
    expect(() => get(fixture(), `${REQ}/properties/nothing`)).toThrow(/nothing at/)
  })
})
