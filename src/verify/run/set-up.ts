// A run's set-up, before any layer: what it counts (the document's operations, or a consumer's own),
// the server reached (waited for while it starts, with --wait), each principal's plants read, which
// the run models the store from and leaves as they were, and how answers are judged.
import { setTimeout as sleep } from 'node:timers/promises'
import type { ContractOperation } from '@plant-store/core'
import type { Check } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import { documentedStatuses, type LoadedDocument, type OperationEntry, type Profile } from '../document.js'
import { describeAnswer } from '../http.js'
import type { Verdict } from '../judge/judge.js'
import type { Judging } from '../judge/plant.js'
import { LAYERS, Results } from '../report/results.js'
import type { WebhookReceiver } from '../webhooks/receiver.js'
import type { VerifyOptions } from './context.js'
import { rethrowTeamCode, VerifyUsageError } from './errors.js'
import type { OwnedPlant, PlantsRead, Subject } from './subject.js'

/**
 * The results a run records into: a consumer's replay covers what its contract records (its
 * operations, the statuses it handles, the parameters and body properties it sends); with a webhook
 * receiver, the webhook too.
 */
export function resultsFor(
  options: VerifyOptions,
  loaded: LoadedDocument,
  selected: Check[],
  receiver: WebhookReceiver | undefined,
): Results {
  const contracted = (entry: OperationEntry) => options.consumer?.contract.paths[entry.path]?.[entry.method]
  const judged = options.consumer ? loaded.operations.filter(contracted) : loaded.operations
  return new Results(
    [
      ...judged.map((entry) => {
        const contract = contracted(entry)
        return {
          operationId: entry.operationId,
          statuses: documentedStatuses(entry).filter((s) => !contract || String(s) in contract.responses),
          ...(contract ? { parameters: sentBy(contract) } : {}),
        }
      }),
      // Events are judged, not answers: no status of theirs is to be exercised.
      ...(receiver ? [{ operationId: receiver.operationId, statuses: [] }] : []),
    ],
    selected,
  )
}

/** What a consumer sends an operation: its parameters, and its body's top-level properties. */
function sentBy(operation: ContractOperation): { name: string; in: string }[] {
  const body = Object.values(operation.requestBody?.content ?? {}).flatMap(({ schema }) =>
    Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}),
  )
  return [
    ...(operation.parameters ?? []).map(({ name, in: place }) => ({ name, in: place })),
    ...[...new Set(body)].map((name) => ({ name, in: 'body' })),
  ]
}

/**
 * Fails with one line when nothing answers at the base URL, after trying again for `waitMs` (a server
 * still starting). Sent with the first principal's token: a refused token would spend the server's
 * quota for failed authentications, which the run needs.
 */
export async function reach(subject: Subject, operations: OperationEntry[], waitMs: number): Promise<void> {
  const probe = operations.find((e) => e.method === 'get' && !e.path.includes('{')) ?? operations[0]
  if (!probe) throw new VerifyUsageError('the document has no operations')
  const until = Date.now() + waitMs
  for (;;) {
    try {
      await subject.send(
        subject.baseUrl,
        { method: 'GET', path: probe.path, auth: { kind: 'principal' } },
        subject.authorization(0),
      )
      return
    } catch (error) {
      rethrowTeamCode(error)
      if (Date.now() < until) {
        await sleep(250)
        continue
      }
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
      const waited = waitMs ? ` (waited ${Math.round(waitMs / 1000)} s)` : ''
      throw new VerifyUsageError(
        `cannot reach ${subject.baseUrl}${waited}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      )
    }
  }
}

/**
 * Every plant each principal owns, or undefined when one's could not be read: the run models the
 * store from these plants and must leave them alone, so without them it cannot change anything
 * safely. Then every layer stops, and the answer that stopped them is judged (a failure replayed by
 * the run's command, `replay`).
 */
export async function readPrincipals(
  subject: Subject,
  list: OperationEntry | undefined,
  results: Results,
  run: { judging: Judging; judge(exchange: HttpExchange): Verdict; consumer: boolean; replay: string },
): Promise<[OwnedPlant[], OwnedPlant[]] | undefined> {
  const existing: [OwnedPlant[], OwnedPlant[]] = [[], []]
  if (!list) return existing
  for (const principal of [0, 1] as const) {
    const read = await readExisting(subject, list, principal, run.judging)
    if (Array.isArray(read)) {
      existing[principal] = read
      continue
    }
    const { checked, findings } = run.judge(read.exchange)
    if (findings.length)
      results.record({
        layer: 'examples',
        operationId: list.operationId,
        checks: checked,
        findings,
        status: read.exchange.answer.status,
        title: `reading the plants of token ${principal + 1} before the run`,
        request: `GET ${list.path} (every page)`,
        answer: describeAnswer(read.exchange.answer),
        document: '200, a page of the caller’s plants',
        replay: run.replay,
      })
    for (const layer of run.consumer ? ['consumer' as const] : LAYERS)
      results.stop(
        layer,
        `the plants token ${principal + 1} owns could not be read (${read.reason}), so the run cannot leave them alone`,
      )
    return undefined
  }
  if (existing[0].length || existing[1].length)
    results.notes.push(
      `the principals owned ${existing[0].length} and ${existing[1].length} plants before the run: they are part of the model, and left as they were`,
    )
  return existing
}

/**
 * Every plant a principal owns, or the answer that kept them from being read (to be judged) and why;
 * a token the server refuses is a usage error.
 */
async function readExisting(
  subject: Subject,
  list: OperationEntry,
  principal: 0 | 1,
  judging: Judging,
): Promise<OwnedPlant[] | { exchange: HttpExchange; reason: string }> {
  let read: PlantsRead
  try {
    read = await subject.plantsOf(list, principal)
  } catch (error) {
    rethrowTeamCode(error)
    throw new VerifyUsageError(`token ${principal + 1}: ${(error as Error).message}`)
  }
  if ('plants' in read) return read.plants
  const { answer, address, reason } = read
  if (answer.status === 401 || answer.status === 403)
    throw new VerifyUsageError(`token ${principal + 1} is not accepted: ${reason}`)
  return {
    exchange: {
      kind: 'http',
      operation: list,
      request: { method: 'GET', path: address },
      answer,
      expected: { statuses: [200] },
      judging,
    },
    reason,
  }
}

/**
 * How a server under test's answers are judged: by what the document promises, a property it does
 * not name allowed and told once per operation among the warnings (the schemas are open); with the
 * kit profile, exactly as the kit's server answers, and held to the profile's headers.
 */
export function judgingFor(results: Results, profile: Profile = 'interface'): Judging {
  return {
    exact: profile === 'kit',
    kitProfile: profile === 'kit',
    bodilessRefusals: profile !== 'kit',
    undocumented: (operationId, property) =>
      results.warn(
        `undocumented property \`${property}\` in \`${operationId}\`'s answer (allowed: the schema does not close it)`,
        `${operationId}\t${property}`,
      ),
  }
}
