// Where each principal's newPlant events go: WEBHOOK_ENDPOINTS, and in the sandbox the URL a caller names
// for its own token; the sandbox's seeded plants are its own doing, not the principal's, and go nowhere.

export class Destinations {
  private readonly named = new Map<string, URL>()
  private readonly seeding = new Set<string>()

  constructor(private readonly configured: ReadonlyMap<string, URL>) {}

  /** Where the owner's events go now: the URL its caller named, else the configured one. */
  of(owner: string): URL | undefined {
    return this.named.get(owner) ?? this.configured.get(owner)
  }

  /** Whether a create of the owner's stores an event: not while its seeds are created, nor with nowhere to go. */
  wants(owner: string): boolean {
    return !this.seeding.has(owner) && this.of(owner) !== undefined
  }

  /** The sandbox: a caller names where its own token's events go, from its next create on. */
  name(owner: string, url: URL): void {
    this.named.set(owner, url)
  }

  /** The sandbox dropped the owner: a URL its caller named is forgotten with it. */
  forget(owner: string): void {
    this.named.delete(owner)
  }

  /**
   * Runs `work` (the sandbox's seeding of the owner's store) with no event stored for the owner. The
   * sandbox holds every request of the owner until its seeding is done, so no create of the owner's
   * own runs meanwhile.
   */
  async quietly<T>(owner: string, work: () => Promise<T>): Promise<T> {
    this.seeding.add(owner)
    try {
      return await work()
    } finally {
      this.seeding.delete(owner)
    }
  }
}
