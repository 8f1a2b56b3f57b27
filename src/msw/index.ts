// The plant store as MSW request handlers: import them into a test (setupServer) or a page
// (setupWorker) and the app talks to the plant store with no process on a port.
import { delay, HttpResponse, http, type RequestHandler } from 'msw'
import { type Mode, type Override, PlantStore, type PlantStoreOptions } from './plant-store.js'

export type { Mode, Override, PlantStoreOptions }
export { PlantStore }

export interface HandlerOptions extends PlantStoreOptions {
  /**
   * Where the app sends plant store requests, e.g. `https://api.example.com/v1`; paths below it are
   * the document's. Default `*`: any origin, no prefix.
   */
  baseUrl?: string
}

export interface PlantStoreHandlers {
  /** Hand these to `setupServer(...)` (msw/node) or `setupWorker(...)` (msw/browser). */
  handlers: RequestHandler[]
  /** The store behind them: `failNext(...)` for one test, `reset()` between tests. */
  store: PlantStore
}

export function createPlantStoreHandlers({
  baseUrl = '*',
  ...options
}: HandlerOptions = {}): PlantStoreHandlers {
  const store = new PlantStore(options)
  const base = baseUrl.replace(/\/+$/, '')
  const prefix = base === '*' ? '' : new URL(base).pathname.replace(/\/+$/, '')
  const paths = [...new Set(store.reader.operations.map((entry) => entry.path))]
  const handlers = paths.map((path) =>
    http.all(`${base}${path.replace(/\{([^}]+)\}/g, ':$1')}`, async ({ request }) => {
      const outcome = await store.answer(request, new URL(request.url).pathname.slice(prefix.length))
      if (outcome.delay > 0) await delay(outcome.delay)
      return 'networkError' in outcome ? HttpResponse.error() : outcome.response
    }),
  )
  return { handlers, store }
}
