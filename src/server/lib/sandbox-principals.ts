// The sandbox's principals: each one's store is seeded on its first request, and at most `max` are
// kept, so that ever new tokens cannot grow the sandbox until the machine runs out of memory. Past
// `max`, the principal unused longest is dropped: its plants deleted, the URL its caller named forgotten.
import type { GivenPlant, PlantRepository } from '@plant-store/core'
import type { FastifyBaseLogger } from 'fastify'
import type { Destinations } from '../webhooks/destinations.js'

/** How many of a dropped principal's plants are read, then deleted together, at a time. */
const DROP_PAGE = 100

export interface SandboxPrincipalsOptions {
  repository: PlantRepository
  /** The plants a principal's store starts with. */
  seedsOf: (principal: string) => GivenPlant[]
  destinations: Destinations | undefined
  /** The most principals kept (SANDBOX_MAX_PRINCIPALS). */
  max: number
  log: FastifyBaseLogger
}

export class SandboxPrincipals {
  // Each kept principal's seeding, least recently used first: a Map keeps its keys in the order they
  // were set, and each use sets its principal again, at the end.
  private readonly kept = new Map<string, Promise<unknown>>()
  // Principals whose plants are being deleted: a token back meanwhile is seeded once they are gone.
  private readonly dropping = new Map<string, Promise<void>>()

  constructor(private readonly options: SandboxPrincipalsOptions) {}

  /** How many principals are kept now. */
  get size(): number {
    return this.kept.size
  }

  /** The principal is used now: its store is seeded first if it has none. Resolves once it is seeded. */
  use(principal: string): Promise<unknown> {
    let seeding = this.kept.get(principal)
    if (seeding) this.kept.delete(principal)
    else seeding = this.seed(principal)
    this.kept.set(principal, seeding)
    if (this.kept.size > this.options.max) {
      const [oldest, itsSeeding] = this.kept.entries().next().value as [string, Promise<unknown>]
      this.kept.delete(oldest)
      this.drop(oldest, itsSeeding)
    }
    return seeding
  }

  private seed(principal: string): Promise<unknown> {
    const { repository, seedsOf, destinations } = this.options
    const plants = seedsOf(principal)
    const create = () => Promise.all(plants.map((plant) => repository.create(principal, plant)))
    // The seeds are the sandbox's own plants: no event announces them.
    const start = () => (destinations ? destinations.quietly(principal, create) : create())
    const gone = this.dropping.get(principal)
    const seeding = gone ? gone.then(start) : start()
    // A seed that failed is tried again on the principal's next request, not remembered as done.
    seeding.catch(() => {
      if (this.kept.get(principal) === seeding) this.kept.delete(principal)
    })
    return seeding
  }

  // Forgotten at once (its place, its URL); its plants deleted once its seeding, if under way, is done.
  private drop(principal: string, seeding: Promise<unknown>): void {
    this.options.destinations?.forget(principal)
    const done: Promise<void> = seeding
      .catch(() => {})
      .then(() => this.deletePlants(principal))
      .catch((error: Error) =>
        this.options.log.warn(
          { err: error, principal },
          'the sandbox could not delete the plants of a principal it dropped',
        ),
      )
      .finally(() => {
        if (this.dropping.get(principal) === done) this.dropping.delete(principal)
      })
    this.dropping.set(principal, done)
  }

  private async deletePlants(principal: string): Promise<void> {
    const { repository } = this.options
    for (;;) {
      const page = await repository.list(principal, { limit: DROP_PAGE })
      if (page.length === 0) return
      await Promise.all(page.map((plant) => repository.delete(principal, BigInt(plant.id))))
    }
  }
}
