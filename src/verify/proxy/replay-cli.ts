// `plant-store-verify --replay FILE.har`: the replay as a command, its report on stdout and its exit
// status for CI: 1 on a departure from the document, or on a difference from the recording unless
// differences are allowed; 2 when the recording cannot be read or the server cannot be reached.
import { readFile } from 'node:fs/promises'
import { type ReplayedExchange, ReplayUsageError, replay } from './replay.js'

export interface ReplayCommand {
  file: string
  baseUrl: string
  tokens: string[]
  spec?: string | undefined
  /** Report differences from the recording without failing on them. */
  allowDifferences: boolean
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
  let exchanges: ReplayedExchange[]
  try {
    exchanges = await replay({
      har,
      baseUrl: command.baseUrl,
      tokens: command.tokens,
      ...(command.spec === undefined ? {} : { spec: command.spec }),
      onExchange: (exchange) => console.log(exchangeLines(exchange).join('\n')),
    })
  } catch (error) {
    if (error instanceof ReplayUsageError || error instanceof SyntaxError) {
      console.error(`plant-store-verify: ${error.message}`)
      return 2
    }
    const cause = (error as Error & { cause?: Error }).cause
    console.error(`plant-store-verify: the replay stopped: ${cause?.message ?? (error as Error).message}`)
    return 2
  }
  const departed = exchanges.filter((e) => e.findings.length > 0).length
  const differing = exchanges.filter((e) => e.differences.length > 0).length
  const allowed = command.allowDifferences && differing > 0 ? ' (allowed: --allow-differences)' : ''
  console.log(
    `\nReplayed ${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}: ${departed} departed from the document, ${differing} differed from the recording${allowed}.`,
  )
  return departed > 0 || (differing > 0 && !command.allowDifferences) ? 1 : 0
}
