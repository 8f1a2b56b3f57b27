// A log destination for pino that gathers the lines of one event-loop turn and writes them with one
// system call at the end of the turn, instead of one write per line: under load a turn answers many
// requests, and the per-request write was a visible share of a request's CPU. A line waits at most
// one turn; flushSync() writes what is left (on close and at process exit).
import { writeSync } from 'node:fs'

export class BatchedDestination {
  private buffer = ''
  private scheduled = false

  constructor(private readonly fd: number) {}

  /** pino calls this with one serialized line (newline included). */
  write(line: string): boolean {
    this.buffer += line
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(this.flushTurn)
    }
    return true
  }

  private readonly flushTurn = (): void => {
    this.scheduled = false
    this.flushSync()
  }

  /** Writes every gathered line now. */
  flushSync(): void {
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
