// `plant-store-verify --replay FILE.har`: the replay as a command, its exchanges on stdout, the same
// report files and GitHub Actions annotations a run writes, and its exit status for CI: 1 on a
// departure from the document, or on a difference from the recording unless differences are allowed;
// 2 when the recording cannot be read or the server cannot be reached.
import { readFile } from 'node:fs/promises'
import type { Check } from '../checks/check.js'
import { recordingConformance } from '../checks/recording-conformance.js'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import { documentedStatuses, loadDocument, type OperationEntry } from '../document.js'
import { judgeExchange } from '../judge/judge.js'
import { coverageOf } from '../report/coverage.js'
import { type ReportFiles, reportsAsked, writeReports } from '../report/reports.js'
import { Results } from '../report/results.js'
import { hooksOf, teamChecks, type VerifyConfig } from '../run/config.js'
import { TeamCodeError } from '../run/errors.js'
import { type ReplayedExchange, ReplayUsageError, replay } from './replay.js'

export interface ReplayCommand {
  file: string
  baseUrl: string
  tokens: string[]
  spec?: string | undefined
  /** Report differences from the recording without failing on them. */
  allowDifferences: boolean
  /** The report files to write, as a run writes them. */
  reports?: ReportFiles
  /** The team's own checks judge each answer too; its hooks are called as a run calls them. */
  config?: VerifyConfig
}

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text)

/** The lines of one exchange: a mark, then each departure and difference on a line of its own. */
export function exchangeLines(exchange: ReplayedExchange): string[] {
  const { number, method, path, status, findings, differences, recorded } = exchange
  const mark = findings.length ? '✗' : differences.length ? '≠' : '✓'
  const lines = [`${mark} ${number} ${method} ${path} → ${status}`]
  for (const { check, message } of findings)
    lines.push(`    departs from the document [${check}]: ${message}`)
  if (recorded && !recorded.ok) lines.push('    (the recorded answer departed from the document too)')
  for (const { what, recorded: was, replayed: is } of differences)
    lines.push(`    differs from the recording: ${what} ${clip(is)} (recorded ${clip(was)})`)
  return lines
}

/** Runs the replay and prints its report; resolves with the exit status. */
export async function runReplay(command: ReplayCommand): Promise<number> {
  let har: string
  try {
    har = await readFile(command.file, 'utf8')
  } catch (error) {
    console.error(`plant-store-verify: cannot read ${command.file}: ${(error as Error).message}`)
    return 2
  }
  console.log(`Replaying ${command.file} against ${command.baseUrl}`)
  const startedAt = Date.now()
  const checks = [...BUILT_IN_CHECKS, ...teamChecks(command.config, BUILT_IN_CHECKS)]
  const hooks = hooksOf(command.config)
  let exchanges: ReplayedExchange[]
  try {
    await hooks.beforeRun()
    exchanges = await replay({
      har,
      baseUrl: command.baseUrl,
      tokens: command.tokens,
      ...(command.spec === undefined ? {} : { spec: command.spec }),
      checks,
      ...(command.config?.hooks?.beforeRequest ? { beforeRequest: command.config.hooks.beforeRequest } : {}),
      onExchange: (exchange) => console.log(exchangeLines(exchange).join('\n')),
    })
  } catch (error) {
    if (error instanceof TeamCodeError) {
      console.error(`plant-store-verify: ${error.message}`)
      return 2
    }
    if (error instanceof ReplayUsageError || error instanceof SyntaxError) {
      console.error(`plant-store-verify: ${error.message}`)
      return 2
    }
    const cause = (error as Error & { cause?: Error }).cause
    console.error(`plant-store-verify: the replay stopped: ${cause?.message ?? (error as Error).message}`)
    return 2
  }
  // Its exchanges are its text, printed as they came: the other reports are written as a run's are.
  const outputs = reportsAsked(command.reports ?? {}, { text: false })
  const { operations } = await loadDocument(command.spec, 'kit')
  const results = replayResults(exchanges, operations, command, checks)
  results.startedAt = startedAt
  try {
    await hooks.afterRun(results)
  } catch (error) {
    console.error(`plant-store-verify: ${(error as Error).message}`)
    return 2
  }
  if (outputs.length) {
    writeReports(outputs, {
      results,
      coverage: coverageOf(results, operations),
      title: `Replay of ${command.file} against ${command.baseUrl}`,
      baseUrl: command.baseUrl,
      durationMs: Date.now() - startedAt,
      met: true,
      recording: command.file,
    })
  }
  const departed = exchanges.filter((e) => e.findings.length > 0).length
  const differing = exchanges.filter((e) => e.differences.length > 0).length
  const allowed = command.allowDifferences && differing > 0 ? ' (allowed: --allow-differences)' : ''
  console.log(
    `\nReplayed ${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}: ${departed} departed from the document, ${differing} differed from the recording${allowed}.`,
  )
  return departed > 0 || (differing > 0 && !command.allowDifferences) ? 1 : 0
}

/**
 * A replay as a run's Results, for the same reports: each exchange an answer judged by the document's
 * checks for its operation and status, and by the recording's check (its differences from the
 * recording; with --allow-differences, warnings instead).
 */
export function replayResults(
  exchanges: ReplayedExchange[],
  operations: OperationEntry[],
  command: Pick<ReplayCommand, 'file' | 'baseUrl' | 'allowDifferences'>,
  checks: readonly Check[] = BUILT_IN_CHECKS,
): Results {
  // With --allow-differences, the differences from the recording are warnings, not the recording's check.
  const selected = checks.filter((check) => check !== recordingConformance || !command.allowDifferences)
  const recordingOnly = selected.filter((check) => check === recordingConformance)
  // A request the document has no operation for is listed under its method and path, so that its
  // answer shows in every report too.
  const nameOf = (exchange: ReplayedExchange) =>
    exchange.operationId ?? `${exchange.method} ${exchange.path.split('?')[0]}`
  const unknown = [...new Set(exchanges.filter((e) => e.operationId === undefined).map(nameOf))]
  const results = new Results(
    [
      ...operations.map((entry) => ({ operationId: entry.operationId, statuses: documentedStatuses(entry) })),
      ...unknown.map((operationId) => ({ operationId, statuses: [] })),
    ],
    selected,
  )
  const byId = new Map(operations.map((entry) => [entry.operationId, entry]))
  const again = `plant-store-verify --replay ${command.file} --base-url ${command.baseUrl}`
  for (const exchange of exchanges) {
    const entry = exchange.operationId === undefined ? undefined : byId.get(exchange.operationId)
    const differences = exchange.differences.map(
      ({ what, recorded, replayed }) => `${what} ${clip(replayed)}, recorded ${clip(recorded)}`,
    )
    if (command.allowDifferences)
      for (const difference of differences)
        results.warn(`exchange ${exchange.number} differs from the recording: ${difference}`)
    // The document's checks judged it as it was replayed; the recording's check judges it here.
    const recording = judgeExchange(exchange.exchange, recordingOnly)
    results.record({
      layer: 'replay',
      operationId: nameOf(exchange),
      checks: [...exchange.checked, ...recording.checked],
      findings: [...exchange.findings, ...recording.findings],
      status: exchange.status,
      title: `exchange ${exchange.number}`,
      request: `${exchange.method} ${exchange.path}`,
      answer: exchange.answer,
      document: entry
        ? `what ${entry.operationId} documents for ${exchange.status}, and the recorded answer`
        : 'an Error: the document has no such operation',
      replay: again,
    })
  }
  results.requests = exchanges.length
  return results
}
