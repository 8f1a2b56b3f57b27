// The plant store's handlers in the tests (vitest, jsdom), below the same relative /api as the app's client.
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupServer } from 'msw/node'

export const plantStore = createPlantStoreHandlers({ baseUrl: '/api' })
export const server = setupServer(...plantStore.handlers)
