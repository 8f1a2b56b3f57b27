// The last tests of each contract layer: the newPlant events that the layer's requests made the real
// server and the sandbox send, judged by the document alone. Apart from webhook-events.ts, which the
// Dredd runner reaches through targets.ts, so that only the suite imports vitest.
import { beforeAll, describe, expect, test } from 'vitest'
import type { Running, TargetName } from './targets.js'
import { type EventJudgement, judgeEvents, type WebhookTarget, webhookTargets } from './webhook-events.js'

/** The problems a failure lists: enough to see what is wrong, not a screenful per event. */
const SHOWN = 20

/** Declares, last in a layer's file, one test per process whose events the layer's targets made. */
export function describeNewPlantEvents(
  targets: readonly TargetName[],
  running: () => Running | undefined,
): void {
  const names = webhookTargets(targets)
  if (names.length === 0) return
  // Not concurrent: a concurrent suite would run beside the layer's own concurrent ones, before they end.
  describe('newPlant events, judged by the document alone', () => {
    const judged = new Map<WebhookTarget, EventJudgement>()
    // Every receiver at once: each waits a moment for an event no create announced, and the waits overlap.
    beforeAll(async () => {
      const started = running()
      if (!started) throw new Error('the targets did not start: no events to judge')
      const { receivers } = started
      await Promise.all(
        names.map(async (name) => {
          const receiver = receivers[name]
          if (receiver) judged.set(name, await judgeEvents(name, receiver))
        }),
      )
    }, 60_000)

    for (const name of names)
      test(`${name}: one event per create answered 200, none for any other answer, each as the document says`, (context) => {
        const judgement = judged.get(name)
        // No receiver: the document gives nothing to judge events by (startTargets said so).
        if (!judgement) return context.skip()
        console.log(judgement.summary)
        const { problems } = judgement
        const shown = problems.slice(0, SHOWN)
        const more = problems.length > SHOWN ? [`… and ${problems.length - SHOWN} more`] : []
        expect(problems.length, [judgement.summary, ...shown, ...more].join('\n')).toBe(0)
      })
  })
}
