// consumer_reads: with --consumer, an answer of a status the consumer handles holds every property its
// recorded contract says it reads and found there always, of the type it read.
import { consumerReadProblems, handledResponse } from '../judge/consumer-reads.js'
import { answerCheck } from './check.js'
import { bodyOf } from './exchange.js'

export const consumerReads = answerCheck({
  name: 'consumer_reads',
  description:
    'with --consumer: every property the consumer reads, and its contract found always there, is in the answer, of the type it read',
  appliesTo: ({ consumer, answer }) =>
    consumer !== undefined && handledResponse(consumer.operation, answer.status) !== undefined,
  run: ({ consumer, answer }) =>
    consumer && answer.isJson
      ? consumerReadProblems(consumer.name, consumer.operation, answer.status, bodyOf(answer))
      : [],
})
