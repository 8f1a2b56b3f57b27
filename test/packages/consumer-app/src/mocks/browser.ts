// The plant store's handlers in this page's service worker (after `npx msw init public`), below /api.
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupWorker } from 'msw/browser'

export const worker = setupWorker(...createPlantStoreHandlers({ baseUrl: '/api' }).handlers)
