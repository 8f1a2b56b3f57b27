// Opens the plant repository for the app and closes it, pending writes first, when the app closes.
import fp from 'fastify-plugin'
import { openRepository } from '../../repository/index.js'
import type { PlantRepository } from '../../repository/plant-repository.js'
import type { SqliteOptions } from '../../repository/sqlite-repository.js'

declare module 'fastify' {
  interface FastifyInstance {
    repository: PlantRepository
  }
}

export default fp(
  async (app, { databaseUrl, sqlite }: { databaseUrl: string; sqlite?: SqliteOptions }) => {
    app.decorate('repository', openRepository(databaseUrl, sqlite))
    app.addHook('onClose', async () => app.repository.close())
  },
  { name: 'repository' },
)
