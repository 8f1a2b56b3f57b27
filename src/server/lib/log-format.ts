// Where the log goes and how it reads: JSON lines, written in batches (log-destination.ts),
// for machines; on a terminal in development, one readable line per event through pino-pretty, when
// it is installed. pino-pretty is an optional peer of the server: in production it is never needed,
// and without it the log stays JSON, silently.
import { BatchedDestination } from './log-destination.js'

export interface LogDestination {
  write(line: string): unknown
  /** Writes whatever is still held, before the process exits. */
  flushSync(): void
}

/** Readable lines only for a person at a terminal, and never in production, where logs go to machines. */
export function wantsReadableLog(stdoutIsTty: boolean | undefined, nodeEnv: string): boolean {
  return stdoutIsTty === true && nodeEnv !== 'production'
}

/** pino-pretty writing to stdout, or undefined when it cannot be loaded. */
export async function readableDestination(): Promise<LogDestination | undefined> {
  let pretty: typeof import('pino-pretty')
  try {
    pretty = (await import('pino-pretty')).default
  } catch {
    return undefined
  }
  const stream = pretty({
    colorize: true,
    // Synchronous: a line is on the terminal before the next event, and none is lost at exit.
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,method,url,statusCode,ms',
    // A request's line says what was asked and how it went; any other event says its message.
    messageFormat: (log: Record<string, unknown>, messageKey: string) =>
      typeof log.method === 'string'
        ? `${log.method} ${log.url} ${log.statusCode} ${Number(log.ms).toFixed(1)} ms`
        : String(log[messageKey] ?? ''),
  })
  return { write: (line) => stream.write(line), flushSync: () => {} }
}

/** The destination `npm start` logs to. */
export async function logDestination(nodeEnv: string): Promise<LogDestination> {
  const readable = wantsReadableLog(process.stdout.isTTY, nodeEnv) ? await readableDestination() : undefined
  return readable ?? new BatchedDestination(1)
}
