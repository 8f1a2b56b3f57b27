// create_read_back: a plant created reads back exactly as sent, its id digit for digit.
import { describeAnswer } from '../http.js'
import { PLANT_FIELDS, plantProblem } from '../judge/plant.js'
import { answerCheck } from './check.js'
import { bodyOf } from './exchange.js'

export const createReadBack = answerCheck({
  name: 'create_read_back',
  description: 'a created plant reads back exactly as sent, its id digit for digit',
  appliesTo: (exchange) => exchange.readBack !== undefined,
  run({ readBack, operation, judging }) {
    if (!readBack) return []
    const { answer } = readBack
    const problem =
      answer.status !== 200
        ? `the created plant reads back as ${describeAnswer(answer)}`
        : !answer.isJson
          ? `the created plant reads back as ${describeAnswer(answer)}, not JSON`
          : plantProblem(operation?.operationId ?? '', bodyOf(answer), readBack.plant, PLANT_FIELDS, {
              ...judging,
              undocumented: undefined,
            })
    return problem ? [`read back after the create: ${problem}`] : []
  },
})
