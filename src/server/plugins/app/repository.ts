// Opens the plant repository for the app and closes it, pending writes first, when the app closes.

import type { PlantRepository } from '@plant-store/core'
import fp from 'fastify-plugin'
import { openRepository, type StoreOptions } from '../../repository/index.js'
import type { Outbox } from '../../repository/outbox.js'

declare module 'fastify' {
  interface FastifyInstance {
    repository: PlantRepository
    /** The webhook events stored with their plants, for the delivery worker (webhooks.ts). */
    outbox: Outbox
  }
}

export default fp(
  async (app, { open, ...options }: StoreOptions & { open?: typeof openRepository }) => {
    // `open`: another store in place of DATABASE_URL's (buildApp's `parts.openRepository`).
    const repository = await (open ?? openRepository)(options)
    app.decorate('repository', repository)
    app.decorate('outbox', repository.outbox)
    app.addHook('onClose', async () => app.repository.close())
  },
  { name: 'repository' },
)
