// A small app page for the browser test: starts the plant store handlers in MSW's service worker with a
// relative baseUrl, as an app does, then creates, lists (following Link from the page it came with),
// replaces and deletes a plant with plain fetch, showing each result.

import { nextAddress } from '@plant-store/core'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { setupWorker } from 'msw/browser'

// The few browser globals the page uses, typed here: the project's TypeScript has no DOM library.
interface Element {
  className: string
  textContent: string | null
  append(child: Element): void
}
const { document, window, location } = globalThis as unknown as {
  document: { getElementById(id: string): Element | null; createElement(tag: string): Element }
  window: Record<string, unknown>
  location: { href: string }
}

const api = '/api'
const { handlers } = createPlantStoreHandlers({ baseUrl: api })
const headers = { authorization: 'Bearer browser-token', 'content-type': 'application/json' }
const steps = document.getElementById('steps') as Element
const results: { step: string; ok: boolean; detail: string }[] = []

function show(step: string, ok: boolean, detail: string) {
  results.push({ step, ok, detail })
  const item = document.createElement('li')
  item.className = ok ? 'ok' : 'failed'
  item.textContent = `${step}: ${detail}`
  steps.append(item)
}

async function run() {
  await setupWorker(...handlers).start({ quiet: true, onUnhandledFrame: 'bypass' })
  const id = '9223372036854775807'
  const created = await fetch(`${api}/plants`, {
    method: 'POST',
    headers,
    body: `{"id":${id},"name":"Monstera","tag":"tropical"}`,
  })
  show('create', created.status === 200, `${created.status} ${await created.text()}`)

  const ids: string[] = []
  const addresses: string[] = []
  // Link's target resolved against the address of the page it came with (RFC 3986 §5), as an app's
  // would: fetch alone would resolve it against this document's address instead.
  let address: string | undefined = new URL(`${api}/plants?limit=1`, location.href).href
  while (address && addresses.length < 50) {
    addresses.push(address)
    const page: Response = await fetch(address, { headers })
    if (page.status !== 200) break
    // The ids as the server wrote them: JSON.parse would round the largest.
    ids.push(...[...(await page.text()).matchAll(/"id":(-?\d+)/g)].map((m) => m[1] as string))
    const next = nextAddress(page.headers.get('link'))
    address = next === undefined ? undefined : new URL(next, page.url).href
  }
  const below = addresses.every((a) => a.startsWith(new URL(`${api}/plants?`, location.href).href))
  show(
    'list',
    address === undefined && addresses.length > 1 && below && ids.includes(id),
    `${addresses.length} pages (${addresses.join(' ')}), ids ${ids.join(', ')}`,
  )

  const replaced = await fetch(`${api}/plants/${id}`, {
    method: 'PUT',
    headers,
    body: '{"name":"Monstera deliciosa"}',
  })
  show('replace', replaced.status === 200, `${replaced.status} ${await replaced.text()}`)

  const deleted = await fetch(`${api}/plants/${id}`, { method: 'DELETE', headers })
  const after = await fetch(`${api}/plants/${id}`, { headers })
  show(
    'delete',
    deleted.status === 204 && after.status === 404,
    `${deleted.status}, then ${after.status} ${await after.text()}`,
  )
}

run()
  .catch((error: unknown) => show('page', false, String(error)))
  .finally(() => {
    window.plantStoreResults = results
  })
