// `npm run compat -- --broker URL`: the draft judged by a contract broker (@plant-store/broker) against
// the contracts of every consumer deployed, released or on a main branch, through its check-document,
// which stores nothing. Its token is BROKER_TOKEN.
import type { DraftCheck } from '../../src/broker/store/can-i-deploy.js'

export interface BrokerVerdict {
  ok: boolean
  lines: string[]
}

export async function checkWithBroker(
  url: string,
  draft: object,
  token = process.env.BROKER_TOKEN,
): Promise<BrokerVerdict> {
  const base = url.replace(/\/+$/, '')
  let answer: Response
  try {
    answer = await fetch(`${base}/check-document`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(draft),
    })
  } catch (error) {
    return {
      ok: false,
      lines: [`FAIL: the broker at ${base} cannot be reached: ${(error as Error).message}`],
    }
  }
  const text = await answer.text()
  if (!answer.ok) {
    let message = text
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text
    } catch {
      // Not the broker's Error shape: its text as it came.
    }
    return {
      ok: false,
      lines: [`FAIL: the broker at ${base} refused the draft (${answer.status}): ${message}`],
    }
  }
  const result = JSON.parse(text) as DraftCheck
  const lines = [
    `\nThe consumers that run, by the broker at ${base}: ${result.answer === 'yes' ? 'PASS' : 'FAIL'}`,
    ...result.reasons.map((reason) => `  ${reason}`),
  ]
  for (const consumer of result.consumers)
    for (const finding of consumer.findings.filter((f) => f.class === 'breaking'))
      lines.push(
        `    ${consumer.consumer} ${consumer.version}: ${finding.operation} ${finding.where}: ${finding.detail}`,
      )
  for (const need of result.verificationNeeded)
    for (const change of need.changes)
      lines.push(
        `    ${need.store} ${need.version} (${need.environment}) needs a new verification: ${change.rule} ${change.pointer}: ${change.detail}`,
      )
  return { ok: result.answer === 'yes', lines }
}
