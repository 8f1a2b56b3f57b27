// recording_conformance: with --replay, each answer as the recording has it: its status, its body (the
// same JSON value, digit for digit), and a Link when the recorded one had one.
import { recordingDifferences } from '../judge/recording.js'
import { answerCheck } from './check.js'

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text)

export const recordingConformance = answerCheck({
  name: 'recording_conformance',
  description:
    'with --replay: each answer as the recording has it: its status, its body (the same JSON value, digit for digit), and a Link when the recorded one had one',
  appliesTo: (exchange) => exchange.recorded !== undefined,
  run: ({ recorded, answer }) =>
    recorded
      ? recordingDifferences(recorded, answer).map(
          ({ what, recorded: was, replayed }) => `${what} ${clip(replayed)}, recorded ${clip(was)}`,
        )
      : [],
})
