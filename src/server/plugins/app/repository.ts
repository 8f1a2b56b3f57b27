// Opens the plant repository for the app and closes it, pending writes first, when the app closes.

import type { PlantRepository } from '@plant-store/core'
import fp from 'fastify-plugin'
import { openRepository, type StoreOptions } from '../../repository/index.js'

declare module 'fastify' {
  interface FastifyInstance {
    repository: PlantRepository
  }
}

export default fp(
  async (app, options: StoreOptions) => {
    app.decorate('repository', await openRepository(options))
    app.addHook('onClose', async () => app.repository.close())
  },
  { name: 'repository' },
)
