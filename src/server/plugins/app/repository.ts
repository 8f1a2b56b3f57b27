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
    // Stryker disable next-line StringLiteral,CallExpression: unreachable: only the newPlant webhook's worker reads app.outbox, and the runner's store has no webhook; src/server/test/webhooks.test.ts.
    app.decorate('outbox', repository.outbox)
    // Stryker disable next-line ArrowFunction: unreachable: runs when the server shuts down, after its last answer; src/server/test/reliability.test.ts (closing).
    app.addHook('onClose', async () => app.repository.close())
  },
  { name: 'repository' },
)
