// The rules the broker answers by: can-i-deploy, the state of a version on the page, and the what-if of
// a draft document. Functions over what the store gives them (versions, verifications, the judge's
// findings); they read and write nothing themselves.
import type { ConsumerContract, Document } from '@plant-store/core'
import {
  type Change,
  type ConsumerFinding,
  diffDocuments,
  judgeConsumer,
  type RuleId,
} from '@plant-store/core/compat'
import { short } from './content.js'
import type { VersionRow } from './version-row.js'

export interface Row {
  consumer: string
  consumerVersion: string
  store: string
  storeVersion: string
  compatible: boolean
  verified: boolean
  findings: ConsumerFinding[]
}

export type Answer = 'yes' | 'no' | 'unknown'

export interface CanIDeploy {
  answer: Answer
  /** Why, in a sentence each: every missing fact of an unknown, every failure of a no. */
  reasons: string[]
  rows: Row[]
}

export interface DraftConsumer {
  consumer: string
  version: string
  /** Where it runs (`production`, `staging (released)`) or `main` for a main branch's latest. */
  where: string[]
  compatible: boolean
  findings: ConsumerFinding[]
}

export interface DraftCheck {
  answer: 'yes' | 'no'
  reasons: string[]
  consumers: DraftConsumer[]
  /** Per deployed store version: the draft's changes that ask more of it than what it was verified against. */
  verificationNeeded: { environment: string; store: string; version: string; changes: Change[] }[]
}

/** A store version as can-i-deploy weighs it: its latest verification against its document, if any. */
export interface Weighed {
  store: VersionRow
  verified: boolean | undefined
  /** Each consumer version it is asked to serve, with what the judge found of the pair. */
  consumers: { consumer: VersionRow; findings: ConsumerFinding[] }[]
}

const breaking = (findings: ConsumerFinding[]) => findings.find((f) => f.class === 'breaking')

/** One consumer version against one store version. */
export function rowOf(
  consumer: VersionRow,
  store: VersionRow,
  verified: boolean,
  findings: ConsumerFinding[],
): Row {
  return {
    consumer: consumer.application,
    consumerVersion: consumer.version,
    store: store.application,
    storeVersion: store.version,
    compatible: !breaking(findings),
    verified,
    findings,
  }
}

/**
 * can-i-deploy's answer for `asked` going to the environment `to`. A consumer version is weighed against
 * each store version deployed there; a store version against each consumer version deployed or released
 * there. A failed verification or a breaking finding is a no; a missing verification or no store
 * deployed, an unknown.
 */
export function canIDeploy(asked: VersionRow, to: string, stores: Weighed[]): CanIDeploy {
  const reasons: string[] = []
  const rows: Row[] = []
  let unknown = false
  let no = false
  if (stores.length === 0) {
    unknown = true
    reasons.push(`no store version is deployed in ${to}`)
  }
  for (const { store, verified, consumers } of stores) {
    if (verified === undefined) {
      unknown = true
      reasons.push(`${store.application} ${short(store.version)} has no verification for its document`)
    } else if (!verified) {
      no = true
      reasons.push(
        `${store.application} ${short(store.version)} failed its verification against its document`,
      )
    }
    for (const { consumer, findings } of consumers) {
      const row = rowOf(consumer, store, verified === true, findings)
      rows.push(row)
      if (row.compatible) continue
      no = true
      const first = breaking(findings)
      reasons.push(
        `${store.application} ${short(store.version)}'s document breaks ${consumer.application} ${short(consumer.version)}: ${first?.operation} ${first?.where}: ${first?.detail}`,
      )
    }
  }
  const answer: Answer = no ? 'no' : unknown ? 'unknown' : 'yes'
  if (answer === 'yes')
    reasons.push(
      rows.length === 0
        ? `no consumer is deployed or released in ${to}: nothing ${asked.application} ${short(asked.version)} could break`
        : `every row is compatible and verified`,
    )
  return { answer, reasons, rows }
}

/** A store version's state on the page: its verification against its document. */
export function storeState(verified: boolean | undefined): { state: string; ok: boolean | undefined } {
  return verified === undefined
    ? { state: 'no verification for its document', ok: undefined }
    : { state: verified ? 'verified' : 'failed its verification', ok: verified }
}

/**
 * A consumer version's state on the page: what can-i-deploy would say of it against the store versions
 * deployed beside it, given the findings of each.
 */
export function consumerState(deployed: { store: VersionRow; findings: ConsumerFinding[] }[]): {
  state: string
  ok: boolean | undefined
} {
  if (!deployed.length) return { state: 'no store version deployed here', ok: undefined }
  const broken = deployed
    .filter(({ findings }) => breaking(findings))
    .map(({ store }) => `${store.application} ${short(store.version)}`)
  return broken.length
    ? { state: `not served by ${broken.join(', ')}`, ok: false }
    : { state: 'served by the store deployed here', ok: true }
}

// Changes from the verified document to a draft that a store built for the former may not do: a request
// it must now refuse or newly accept, an answer it must now narrow, a status or a field it must now send.
const asksMoreOfStore = new Set<RuleId>([
  'operation-added',
  'webhook-added',
  'security-added',
  'security-changed',
  'security-relaxed',
  'request-parameter-required-added',
  'request-parameter-added',
  'request-parameter-optional',
  'request-body-required',
  'request-body-optional',
  'request-content-type-added',
  'request-property-required-added',
  'request-property-added',
  'request-property-optional',
  'request-property-rejected',
  'request-type-narrowed',
  'request-type-widened',
  'request-format-narrowed',
  'request-format-widened',
  'request-enum-narrowed',
  'request-enum-widened',
  'request-pattern-narrowed',
  'request-pattern-widened',
  'request-bound-narrowed',
  'request-bound-widened',
  'request-additional-properties-narrowed',
  'request-additional-properties-widened',
  'response-status-added',
  'response-header-required',
  'response-property-required',
  'response-type-narrowed',
  'response-format-narrowed',
  'response-enum-narrowed',
  'response-constraint-narrowed',
])

/**
 * A draft of the document judged against the consumer versions it must serve (each with where it runs
 * and its contract), and against the document of each deployed store version that passed its
 * verification: what of the draft asks more of that store than it was verified for.
 */
export function checkDraft(
  draft: Document,
  consumers: { consumer: VersionRow & { where: string[] }; contract: ConsumerContract }[],
  verifiedStores: { environment: string; store: VersionRow; document: Document }[],
): DraftCheck {
  const judged: DraftConsumer[] = consumers.map(({ consumer, contract }) => {
    const findings = judgeConsumer(contract, draft)
    return {
      consumer: consumer.application,
      version: consumer.version,
      where: consumer.where,
      compatible: !breaking(findings),
      findings,
    }
  })
  const verificationNeeded: DraftCheck['verificationNeeded'] = []
  for (const { environment, store, document } of verifiedStores) {
    const changes = diffDocuments(document, draft).filter((c) => asksMoreOfStore.has(c.rule))
    if (changes.length)
      verificationNeeded.push({ environment, store: store.application, version: store.version, changes })
  }
  const broken = judged.filter((c) => !c.compatible)
  const reasons = broken.map((c) => {
    const first = breaking(c.findings)
    return `the draft breaks ${c.consumer} ${short(c.version)} (${c.where.join(', ')}): ${first?.operation} ${first?.where}: ${first?.detail}`
  })
  if (judged.length === 0)
    reasons.push('no consumer is deployed, released or on a main branch: the draft breaks none')
  else if (!broken.length)
    reasons.push(`the draft serves all ${judged.length} consumer versions that run or are on a main branch`)
  for (const need of verificationNeeded)
    reasons.push(
      `${need.store} ${short(need.version)} in ${need.environment} was verified against a document that asks less (${need.changes.length} change${need.changes.length === 1 ? '' : 's'}): verify it against the draft before it serves it`,
    )
  return { answer: broken.length ? 'no' : 'yes', reasons, consumers: judged, verificationNeeded }
}
