// The end of a run with a webhook receiver: the newPlant events still to come waited for, each event
// judged and recorded, and what the receiver took said among the notes.
import type { WebhookReceiver } from '../webhooks/receiver.js'
import type { Context, VerifyOptions } from './context.js'

/** `options` as the run was given them: the sizes it was asked for, not those it ran with. */
export async function judgeEvents(
  context: Context,
  receiver: WebhookReceiver,
  options: VerifyOptions,
): Promise<void> {
  const { results } = context
  context.progress('waiting for the newPlant events still to come')
  // A webhook failure's replay is the whole run again, with what it drew (the receiver adds its own options).
  const runArgs = [
    `--seed=${context.options.seed}`,
    ...(options.consumer ? [`--consumer ${options.consumer.file}`] : []),
    ...(options.only?.length ? [`--only ${options.only.join(',')}`] : []),
    ...(options.requests === undefined ? [] : [`--requests ${options.requests}`]),
    ...(options.sequences === undefined ? [] : [`--sequences ${options.sequences}`]),
    ...(options.readOnly ? ['--read-only'] : []),
    ...(options.anyToken ? ['--any-token'] : []),
  ].join(' ')
  const { events, document, replay, received } = await receiver.finish(context.replay(runArgs))
  for (const event of events) {
    const { checked, findings } = context.judge({
      kind: 'event',
      operationId: receiver.operationId,
      problems: event.problems,
    })
    results.record({
      layer: 'webhooks',
      operationId: receiver.operationId,
      checks: checked,
      findings,
      kinds: ['event'],
      title: event.title,
      request: event.request,
      answer: event.answer,
      document,
      replay,
    })
  }
  results.notes.push(receiver.retryNote())
  results.notes.push(
    `the webhook receiver took ${received} newPlant delivery(ies) for ${receiver.createsAnswered200} create(s) answered 200`,
  )
}
