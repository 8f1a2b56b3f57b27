// The plant store's handlers for every test, each test starting from the example plants.
import { afterAll, afterEach, beforeAll } from 'vitest'
import { plantStore, server } from './src/mocks/node'

// 'error': a request no handler answers fails instead of reaching the network.
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(async () => {
  server.resetHandlers()
  await plantStore.store.reset()
})
afterAll(() => server.close())
