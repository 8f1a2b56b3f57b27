// The rules' fixture pairs for what a client reads: responses, their fields and constraints, and
// defaults and examples. `breaking` and `nonBreaking` edit the fixture; the rule's class says which
// of them fires it.
import { push, remove, set } from '../../../src/core/compat/pointer.js'
import { GET, JSON_MEDIA, LIST, type Pair, POST, RES, thing } from './rule-fixture.js'

export const responsePairs: Pair[] = [
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
