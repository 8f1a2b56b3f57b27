// The requests each scenario sends, as autocannon entries, and the page addresses listPlants walks.
import type { RequestEntry } from 'autocannon'
import { followLinks } from '../scripts/lib/paging.js'

const json = { 'content-type': 'application/json' }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
// Ids far above the filled ones, unique across every round and target: no 409s.
let nextId = 10_000_000

export function createPlant(token: string): RequestEntry[] {
  return [
    {
      method: 'POST',
      path: '/plants',
      headers: { ...bearer(token), ...json },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ id: nextId++, name: 'Basil', tag: 'herb' }),
      }),
    },
  ]
}

// Ids spread over the whole store (7919 is prime, so k·7919 mod n visits every id), not one hot row.
export function getPlant(token: string, storeSize: number): RequestEntry[] {
  let k = 0
  return [
    {
      method: 'GET',
      path: '/plants/1',
      headers: bearer(token),
      setupRequest: (request) => ({ ...request, path: `/plants/${((k++ * 7919) % storeSize) + 1}` }),
    },
  ]
}

export function listPages(token: string, paths: string[]): RequestEntry[] {
  let k = 0
  return [
    {
      method: 'GET',
      path: paths[0] ?? '/plants?limit=50',
      headers: bearer(token),
      setupRequest: (request) => ({ ...request, path: paths[k++ % paths.length] ?? '/plants?limit=50' }),
    },
  ]
}

/**
 * Page addresses of 50 plants, the first page and those after it, got by following the Link headers as
 * a client does (the cursor is opaque): up to 200 pages, i.e. 10,000 plants deep, so that a paging that
 * skips rows (OFFSET) would show its cost on the large store.
 */
export async function collectPages(url: string, token: string): Promise<string[]> {
  const paths: string[] = []
  for await (const page of followLinks(url, '/plants?limit=50', bearer(token))) {
    if (page.status !== 200) throw new Error(`GET ${page.address} answered ${page.status}`)
    paths.push(page.address)
    if (paths.length === 200) break
  }
  return paths
}
