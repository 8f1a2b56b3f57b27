// A page for the recording's browser test: fetches a HAR recording, starts the plant store handlers in
// MSW's service worker seeded with it, and lists each recorded principal's plants by its pseudonym.
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupWorker } from 'msw/browser'

// The page's one browser global: the project's TypeScript has no DOM library.
const { window } = globalThis as unknown as { window: Record<string, unknown> }

async function run() {
  const seed = await (await fetch('/recording.har')).text()
  const { handlers, store } = createPlantStoreHandlers({ baseUrl: '/api', seed })
  await setupWorker(...handlers).start({ quiet: true, onUnhandledFrame: 'bypass' })
  const listed: Record<string, { status: number; text: string }> = {}
  for (const principal of ['principal-1', 'principal-2']) {
    const answer = await fetch('/api/plants?limit=100', { headers: { authorization: `Bearer ${principal}` } })
    listed[principal] = { status: answer.status, text: await answer.text() }
  }
  return { listed, skipped: store.skipped.length }
}

run()
  .then((result) => {
    window.seeded = result
  })
  .catch((error: unknown) => {
    window.seeded = { error: String(error) }
  })
