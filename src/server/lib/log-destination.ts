// A log destination for pino that gathers lines and writes them with one system call, instead of one
// write per line: when 16 KiB have gathered, or 10 ms after the first line not yet written, whichever
// comes first. Under load a write per event-loop turn still cost a visible share of a request (a turn
// answers a few requests); a line now waits at most 10 ms. flushSync() writes what is left (on close
// and at process exit).
import { writeSync } from 'node:fs'

/** Gathered lines are written once they are this long (in UTF-16 code units, as strings count). */
const WRITE_AT = 16 * 1024
/** …or this long after the first of them, if they never get that long. */
const WAIT_MS = 10

export class BatchedDestination {
  private buffer = ''
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly fd: number) {}

  /** pino calls this with one serialized line (newline included). */
  write(line: string): boolean {
    this.buffer += line
    if (this.buffer.length >= WRITE_AT) this.flushSync()
    else this.timer ??= setTimeout(this.flushLater, WAIT_MS).unref()
    return true
  }

  private readonly flushLater = (): void => {
    this.timer = undefined
    this.flushSync()
  }

  /** Writes every gathered line now. */
  flushSync(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.buffer.length === 0) return
    const bytes = Buffer.from(this.buffer)
    this.buffer = ''
    let offset = 0
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset)
      } catch (error) {
        // A non-blocking pipe that is full: wait for the reader, as pino's synchronous destination did.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
      }
    }
  }
}
