// How a started server stops, on SIGTERM, SIGINT or an uncaught error: the requests in flight are
// finished (10 s at most), then whatever the log still holds is written. The server's own start and
// the benchmark's stripped-down one both stop this way.
import closeWithGrace from 'close-with-grace'
import type { FastifyBaseLogger } from 'fastify'

interface Closable {
  log: FastifyBaseLogger
  server: { closeIdleConnections(): void }
  close(): Promise<unknown>
}

export function closeGracefully(app: Closable, logStream: { flushSync(): void }): void {
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down: finishing requests in flight')
    // Fastify closes the connections idle at the start; a keep-alive connection whose request was in
    // flight turns idle only once answered, so sweep again until every connection is gone.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
    await app.close()
    clearInterval(sweep)
    logStream.flushSync()
  })
}
