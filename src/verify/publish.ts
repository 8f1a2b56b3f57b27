// --publish VERSION: the run's --json report sent to a contract broker (@plant-store/broker) as the
// verification of that store version, at BROKER_URL with BROKER_TOKEN.

import { jsonReport } from './report/json.js'
import type { ReportedRun } from './report/reporter.js'

/** The broker's address and token, or why a run cannot publish (a usage error, said before the run). */
export function publishTarget(): { url: string; token?: string; application: string } | string {
  const url = process.env.BROKER_URL
  if (!url) return '--publish needs the broker: set BROKER_URL (and BROKER_TOKEN, its write token)'
  return {
    url: url.replace(/\/+$/, ''),
    application: process.env.BROKER_APPLICATION || 'plant-store',
    ...(process.env.BROKER_TOKEN ? { token: process.env.BROKER_TOKEN } : {}),
  }
}

/** Sends the report; a line saying what the broker answered, and whether it took it. */
export async function publishVerification(
  target: { url: string; token?: string; application: string },
  version: string,
  run: ReportedRun,
): Promise<{ ok: boolean; line: string }> {
  const where = `${target.url}/applications/${encodeURIComponent(target.application)}/versions/${encodeURIComponent(version)}/verifications`
  try {
    const answer = await fetch(where, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      },
      body: JSON.stringify(jsonReport(run)),
    })
    const text = await answer.text()
    if (answer.ok)
      return {
        ok: true,
        line: `published the verification of ${target.application} ${version} to ${target.url}`,
      }
    let message = text
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text
    } catch {
      // Not the broker's Error shape: its text as it came.
    }
    return { ok: false, line: `the broker refused the verification (${answer.status}): ${message}` }
  } catch (error) {
    return { ok: false, line: `the broker at ${target.url} cannot be reached: ${(error as Error).message}` }
  }
}
