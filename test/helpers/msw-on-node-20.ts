// msw 3 declares Node 22.12 or later; on Node 20, which the server still supports, it lacks only
// Promise.withResolvers (its request interception) and Set's intersection and difference (its
// resetHandlers), all three Node 22's. This fills those gaps for the tests.
if (typeof (Promise as unknown as Record<string, unknown>).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void
      let reject!: (reason?: unknown) => void
      const promise = new Promise<T>((yes, no) => {
        resolve = yes
        reject = no
      })
      return { promise, resolve, reject }
    },
  })
}

const setMethods = {
  intersection<T>(this: Set<T>, other: { has(value: T): boolean }) {
    return new Set([...this].filter((value) => other.has(value)))
  },
  difference<T>(this: Set<T>, other: { has(value: T): boolean }) {
    return new Set([...this].filter((value) => !other.has(value)))
  },
}
for (const [name, value] of Object.entries(setMethods))
  if (!(name in Set.prototype))
    Object.defineProperty(Set.prototype, name, { configurable: true, writable: true, value })
