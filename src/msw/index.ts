// The plant store as MSW request handlers: import them into a test (setupServer) or a page
// (setupWorker) and the app talks to the plant store with no process on a port.
import { delay, HttpResponse, http, type RequestHandler } from 'msw'
import {
  type Mode,
  type NewPlant,
  type NewPlantListener,
  type OperationId,
  type Override,
  PlantStore,
  type PlantStoreEvents,
  type PlantStoreOptions,
} from './plant-store.js'

export type { Mode, NewPlant, NewPlantListener, OperationId, Override, PlantStoreEvents, PlantStoreOptions }
export { PlantStore }

export interface HandlerOptions extends PlantStoreOptions {
  /**
   * Where the app sends plant store requests: `https://api.example.com/v1`, or in a page a relative
   * `/api`, resolved against the page's address as MSW resolves relative handler paths. The document's
   * paths are below it, and so are the `Link` addresses of its pages. Default `*`: any origin, no prefix.
   */
  baseUrl?: string
}

export interface PlantStoreHandlers {
  /** Hand these to `setupServer(...)` (msw/node) or `setupWorker(...)` (msw/browser). */
  handlers: RequestHandler[]
  /** The store behind them: `failNext(...)` and `subscribe('newPlant', …)` for one test, `reset()` between tests. */
  store: PlantStore
}

export function createPlantStoreHandlers({
  baseUrl = '*',
  ...options
}: HandlerOptions = {}): PlantStoreHandlers {
  const store = new PlantStore(options)
  const base = baseUrl === '*' ? undefined : absolute(baseUrl)
  const origin = base?.origin ?? '*'
  const prefix = base?.pathname.replace(/\/+$/, '') ?? ''
  const paths = [...new Set(store.reader.operations.map((entry) => entry.path))]
  const handlers = paths.map((path) =>
    http.all(`${origin}${prefix}${path.replace(/\{([^}]+)\}/g, ':$1')}`, async ({ request }) => {
      const outcome = await store.answer(request, prefix)
      if (outcome.delay > 0) await delay(outcome.delay)
      return 'networkError' in outcome ? HttpResponse.error() : outcome.response
    }),
  )
  return { handlers, store }
}

/** The base address as MSW would resolve it: a relative one against the page's, where there is a page. */
function absolute(baseUrl: string): URL {
  const page = (globalThis as { location?: { href?: string } }).location?.href
  if (URL.canParse(baseUrl, page)) return new URL(baseUrl, page)
  // In Node a relative handler path would silently match nothing (MSW keeps it as it is): say so now.
  if (page === undefined && URL.canParse(baseUrl, 'http://localhost'))
    throw new Error(
      `baseUrl ${baseUrl} is relative, and there is no page address (location) to resolve it against: ` +
        'outside a browser, give the absolute address your app sends requests to, such as http://localhost:3000/api',
    )
  throw new Error(`baseUrl ${baseUrl} is not a URL`)
}
