// example_conformance: a success answer to a named request example (with the kit's profile, a refusal
// too) shows what the response example of the same name shows: every property it shows, with its value
// (element by element for a list).
import { showsExample } from '../judge/example.js'
import { answerCheck } from './check.js'
import { bodyOf } from './exchange.js'

export const exampleConformance = answerCheck({
  name: 'example_conformance',
  description:
    'a success answer to a named request example (with --profile kit, a refusal too) shows what that example’s response shows',
  appliesTo: (exchange) => exchange.example !== undefined,
  run({ answer, example }) {
    if (!example || answer.status !== example.status || !answer.isJson) return []
    return showsExample(example.body, bodyOf(answer))
      ? []
      : [`the body does not show what the example’s response shows: ${JSON.stringify(example.body)}`]
  },
})
