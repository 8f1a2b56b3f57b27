// The app's entry: with ?store=msw the handlers start in the page's service worker before the first call.
import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { queryClient, store } from './api'
import { App } from './app'

async function startMocks(): Promise<void> {
  if (store !== 'msw') return
  const { worker } = await import('./mocks/browser')
  await worker.start({ quiet: true, onUnhandledFrame: 'bypass' })
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
void startMocks().then(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  ),
)
