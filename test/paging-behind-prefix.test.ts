// Paging through a proxy that mounts the store under a prefix the store does not know (`/api/…` →
// `/…`, as Vite's dev-server proxy with a rewrite, nginx's `proxy_pass http://store/;` or a gateway do):
// the real server and the handlers served over HTTP, walked by the typed client, by scripts/lib/paging.ts
// and by the verifier, reach every plant exactly once and never ask the front for a page outside /api.

import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPlantStoreClient } from '@plant-store/client'
import { type Results, verify } from '@plant-store/verify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as commands from '../scripts/lib/commands.js'
import { followLinks, listAll } from '../scripts/lib/paging.js'
import { type Started, startProcess } from '../scripts/lib/processes.js'
import { build } from './helpers/build.js'

interface Front {
  /** The front's own address; the store is below `${url}/api`. */
  url: string
  /** The paths asked of the front outside /api: where a Link that ignores the prefix leads. */
  outside: string[]
  close(): Promise<void>
}

/** A front that passes `/api/…` on to `upstream` as `/…`, and answers anything else itself, with a 404. */
async function prefixStrippingFront(upstream: string): Promise<Front> {
  const outside: string[] = []
  const target = new URL(upstream)
  const front = createServer((req, res) => {
    const path = req.url ?? '/'
    if (!path.startsWith('/api/')) {
      outside.push(path)
      res.writeHead(404, { 'content-type': 'text/plain' }).end('the front has no such page')
      return
    }
    const forwarded = request(
      new URL(path.slice('/api'.length), target),
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forwarded.on('error', () => res.writeHead(502).end())
    req.pipe(forwarded)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const { port } = front.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    outside,
    close: () =>
      new Promise((resolve) => {
        front.closeAllConnections()
        front.close(() => resolve())
      }),
  }
}

const ids = (plants: { id: unknown }[]) => plants.map((p) => String(p.id))

/** Every id the store holds for `authorization`, from one page asked of the store itself. */
async function storedIds(upstream: string, authorization: string, tag?: string): Promise<string[]> {
  const answer = await fetch(`${upstream}/plants?limit=100${tag ? `&tag=${tag}` : ''}`, {
    headers: { authorization },
  })
  expect(answer.headers.get('link'), 'all of them on one page').toBeNull()
  // The ids as the store wrote them: JSON.parse would round the largest.
  return [...(await answer.text()).matchAll(/"id":(-?\d+)/g)].map((m) => m[1] as string)
}

/** The client's `plants()` and its page-at-a-time `page()`, and paging.ts, each walked to the end. */
async function walks(front: Front, token: string, query: { tag?: string; limit: number }) {
  const base = `${front.url}/api`
  const client = createPlantStoreClient({ baseUrl: base, token })
  const all = []
  for await (const plant of client.plants(query)) all.push(plant)
  const paged = []
  let cursor: string | undefined
  for (let pages = 0; pages < 50; pages++) {
    const page = await client.page({ ...query, ...(cursor === undefined ? {} : { cursor }) })
    paged.push(...page.plants)
    cursor = page.next
    if (cursor === undefined) break
  }
  const first = `/plants?limit=${query.limit}${query.tag ? `&tag=${query.tag}` : ''}`
  const headers = { authorization: `Bearer ${token}` }
  const addresses: string[] = []
  for await (const page of followLinks(base, first, headers, 50)) addresses.push(page.address)
  const listed = await listAll<{ id: number }>(base, first, headers, 50)
  return { all: ids(all), paged: ids(paged), listed: ids(listed), addresses }
}

async function create(front: Front, token: string, plants: { id: number; name: string; tag?: string }[]) {
  for (const plant of plants) {
    const made = await fetch(`${front.url}/api/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(plant),
    })
    expect(made.status, await made.text()).toBe(200)
  }
}

const PLANTS = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id, name: `p${id}`, ...(id % 2 ? { tag: 'herb' } : {}) }))

describe.each([
  ['the real server', 'token-a'],
  ['the stateful handlers served over HTTP', 'token-handlers'],
] as const)('%s behind a prefix-stripping proxy', (name, token) => {
  let upstream: string
  let front: Front
  let handlers: Started | undefined
  beforeAll(async () => {
    if (name === 'the real server') {
      const app = await build()
      upstream = await app.listen({ host: '127.0.0.1', port: 0 })
    } else {
      handlers = await startProcess(commands.handlers('stateful'))
      upstream = handlers.url
    }
    front = await prefixStrippingFront(upstream)
    await create(
      front,
      token,
      PLANTS.map((p) => ({ ...p, id: p.id + 100 })),
    )
  }, 60_000)
  afterAll(async () => {
    await front?.close()
    await handlers?.stop()
  })

  it.each<[string, { tag?: string }]>([
    ['every plant', {}],
    ['the plants of a tag', { tag: 'herb' }],
  ])('reaches %s exactly once, page after page of 2, below the prefix', async (_, filter) => {
    const expected = await storedIds(upstream, `Bearer ${token}`, filter.tag)
    expect(expected.length).toBeGreaterThan(2)
    const { all, paged, listed, addresses } = await walks(front, token, { ...filter, limit: 2 })
    expect(all).toEqual(expected)
    expect(paged).toEqual(expected)
    expect(listed).toEqual(expected)
    expect(addresses).toHaveLength(Math.ceil(expected.length / 2))
    for (const address of addresses) {
      expect(address.startsWith('/api/plants?'), address).toBe(true)
      if (filter.tag) expect(new URL(address, front.url).searchParams.get('tag')).toBe(filter.tag)
    }
    expect(front.outside).toEqual([])
  })
})

describe('the verifier behind a prefix-stripping proxy', () => {
  it('passes the real server at the proxy’s /api, following each Link from where its page came', async () => {
    const app = await build()
    const front = await prefixStrippingFront(await app.listen({ host: '127.0.0.1', port: 0 }))
    try {
      const results: Results = await verify({
        baseUrl: `${front.url}/api`,
        tokens: ['token-a', 'token-b'],
        requests: 200,
        sequences: 20,
        seed: 20261124,
      })
      const failures = results.distinctFailures().map((f) => results.failureText(f))
      expect(failures.join('\n\n')).toBe('')
      expect(front.outside).toEqual([])
    } finally {
      await front.close()
    }
  }, 240_000)
})
