// The plant store's handlers in the test page's service worker (after `npx msw init public`), below /api.
import { afterAll, beforeAll } from 'vitest'
import { worker } from './src/mocks/browser'

beforeAll(() => worker.start({ quiet: true, onUnhandledFrame: 'bypass' }).then(() => undefined))
afterAll(() => worker.stop())
