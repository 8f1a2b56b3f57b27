// Every compatibility rule on a small document (rule-fixture.ts): one breaking and one non-breaking
// edit of it, the rule firing at its pointer on the edit of its own class and not on the other; and
// the engine's own promises.
import { describe, expect, it } from 'vitest'
import { get, remove, set } from '../../../src/core/compat/pointer.js'
import { ruleIds, rules } from '../../../src/core/compat/rules.js'
import { breakingOf, diffAfter, fixture, newThing, ONE, POST, REQ, RES, show } from './rule-fixture.js'
import { requestPairs } from './rule-pairs-requests.js'
import { responsePairs } from './rule-pairs-responses.js'

const pairs = [...requestPairs, ...responsePairs]

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
