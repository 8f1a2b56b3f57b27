// The plant store client and the query client. Where the store is comes from the page's address, so
// that one build shows all three: ?store=msw (the handlers in this page, the default), ?store=proxy
// (the sandbox behind Vite's /api proxy) or ?store=cors (the sandbox called directly).
import { createPlantStoreClient, hashQueryKey, PlantStoreError } from '@plant-store/client'
import { QueryClient } from '@tanstack/react-query'

const params = new URLSearchParams(location.search)
export const store = params.get('store') ?? 'msw'

function baseUrl(): string {
  if (store !== 'cors') return '/api'
  const sandbox = import.meta.env.VITE_SANDBOX_URL
  if (!sandbox) throw new Error('set VITE_SANDBOX_URL to the sandbox address to call it over CORS')
  return sandbox
}

// In the sandbox any token is a user of its own, whose store starts with the example plants.
export const api = createPlantStoreClient({ baseUrl: baseUrl(), token: params.get('token') ?? 'token-a' })

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // An int64 id (a bigint) can go in a query key.
      queryKeyHashFn: hashQueryKey,
      // A refusal (404, 409, …) is an answer: asking again would get the same one.
      retry: (count, error) => !(error instanceof PlantStoreError && error.status < 500) && count < 3,
    },
  },
})
