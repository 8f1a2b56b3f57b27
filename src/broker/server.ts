// Starts the broker: reads the configuration, listens, and shuts down gracefully on SIGTERM/SIGINT.
import closeWithGrace from 'close-with-grace'
import { buildBroker } from './app.js'
import { DEV_TOKEN, loadConfig } from './config.js'

export async function serve(env: Record<string, string | undefined> = process.env): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(env)
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
  const app = await buildBroker({ config })
  if (config.devToken)
    app.log.warn(`BROKER_WRITE_TOKEN is not set: the development token '${DEV_TOKEN}' writes and reads`)
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'closing after an error')
    await app.close()
  })
  try {
    await app.listen({ host: config.host, port: config.port })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
    console.error(
      `port ${config.port} on ${config.host} cannot be used (${code}): set PORT to another (PORT=0 lets the system pick)`,
    )
    await app.close()
    process.exit(1)
  }
}
