// The rules' fixture pairs for what a client sends: operations and paths, webhooks, security,
// parameters, request bodies, their fields and constraints. `breaking` and `nonBreaking` edit the
// fixture; the rule's class says which of them fires it.
import { push, remove, set } from '../../../src/core/compat/pointer.js'
import {
  GET,
  HOOK,
  HOOK_BODY,
  hook,
  newParam,
  newThing,
  ONE,
  operation,
  type Pair,
  POST,
  REQ,
} from './rule-fixture.js'

export const requestPairs: Pair[] = [
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
]
