// A generated request's exchange: the statuses the document gives it in the caller's state and, where
// the target keeps that state, what the answer shows of it (the plant read, created or replaced, the
// listing's first page, the created plant read back). Pure: the generated layer and the kit's own
// suite send the request, then judge what this builds.
import { pickPlant } from '@plant-store/core'
import { type Probe, requestOf } from '../cases/probe.js'
import type { Check } from '../checks/check.js'
import type { HttpExchange } from '../checks/exchange.js'
import { statusExpected } from '../checks/exchange.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import type { Answer } from '../http.js'
import { acceptedStatuses, expectedStatus, roleOf } from './accepted-statuses.js'
import { judgeExchange, type Verdict } from './judge.js'
import { listingOf, pageSizeOf } from './listing.js'
import { EXACT, type Judging, PLANT_FIELDS, type Plant } from './plant.js'
import type { State } from './state.js'

/** The plant a valid create or replace body describes (unknown keys dropped). */
export function plantOf(probe: Probe): Plant | undefined {
  const body = probe.bodyValue as Record<string, unknown> | undefined
  if (!body || probe.id === undefined || typeof body.name !== 'string') return undefined
  return pickPlant(body, probe.id)
}

export interface ProbeSettings {
  /** The target keeps the caller's state (every target but a mock that answers examples). */
  stateful: boolean
  judging?: Judging
  /** The created plant, read back after a create answered 200. */
  readBack?: Answer | undefined
}

export function probeExchange(
  probe: Probe,
  state: State,
  answer: Answer,
  settings: ProbeSettings,
): HttpExchange {
  const judging = settings.judging ?? EXACT
  const exchange: HttpExchange = {
    kind: 'http',
    operation: probe.entry,
    request: requestOf(probe),
    answer,
    expected: { statuses: judging.exact ? [expectedStatus(probe, state)] : acceptedStatuses(probe, state) },
    judging,
    valid: probe.defect === undefined,
  }
  if (!settings.stateful) return exchange
  const role = roleOf(probe.entry)
  const sent = plantOf(probe)
  const held = role === 'item' && probe.id !== undefined ? state.get(probe.id) : undefined
  exchange.store = {}
  if (role === 'list')
    exchange.page = {
      number: 1,
      plants: listingOf(state, probe.query),
      limit: pageSizeOf(probe.query),
      fields: PLANT_FIELDS,
      listed: [],
    }
  else if (role === 'create' && sent)
    // The create answers a Plant, which names no id; an id it shows anyway is the one created.
    exchange.store.plant = {
      value: sent,
      fields: PLANT_FIELDS.filter((f) => f !== 'id'),
      optional: judging.exact ? [] : ['id'],
    }
  else if (probe.method === 'GET' && held) exchange.store.plant = { value: held, fields: PLANT_FIELDS }
  else if (probe.method === 'PUT' && sent) exchange.store.plant = { value: sent, fields: PLANT_FIELDS }
  if (settings.readBack && sent) exchange.readBack = { answer: settings.readBack, plant: sent }
  return exchange
}

export interface ProbeVerdict extends Verdict {
  /** The status the answer is judged as: its own when the document allows it, else the first allowed. */
  expected: number
  accepted: readonly number[]
  answer: Answer
}

/** A generated request's answer judged by `checks` (all the built-in ones unless said). */
export function judgeProbe(
  probe: Probe,
  state: State,
  answer: Answer,
  settings: ProbeSettings,
  checks: readonly Check[] = BUILT_IN_CHECKS,
): ProbeVerdict {
  const exchange = probeExchange(probe, state, answer, settings)
  return {
    ...judgeExchange(exchange, checks),
    expected: statusExpected(exchange),
    accepted: exchange.expected?.statuses ?? [],
    answer,
  }
}
