// msw 3 declares Node 22.12 or later; on Node 20, which the server still supports, its request
// interception lacks only Promise.withResolvers (Node 22). This fills that one gap for the tests.
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
