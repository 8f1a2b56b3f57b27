// The in-process handlers in Node, as a frontend team's test uses them (setupServer): the stateful
// mode behaves and words its errors as the server does, the examples mode serves the document's
// examples with Prism's rules, delay, network error and one-shot overrides work in both, and a test's
// function gets the newPlant event of each create answered 200, and of no other.

import { nextAddress } from '@plant-store/core'
import { createPlantStoreHandlers, type NewPlant } from '@plant-store/msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ALICE, build } from '../../../test/helpers/build.js'

const BASE = 'http://plants.test/v1'
const stateful = createPlantStoreHandlers({ baseUrl: BASE })
const EXAMPLES = 'http://examples.test/mock/v2'
const examples = createPlantStoreHandlers({ baseUrl: EXAMPLES, mode: 'examples' })
// A relative baseUrl, as in a page: resolved once, against the address the page has when they are made.
vi.stubGlobal('location', { href: 'http://app.test/shop/cart?item=1' })
const relative = createPlantStoreHandlers({ baseUrl: '/api/v1' })
vi.unstubAllGlobals()
const slash = createPlantStoreHandlers({ baseUrl: 'http://slash.test/v1/' })
// Events of a listener given as an option: kept through reset().
const HOOKED = 'http://hooked.test'
const optionEvents: [NewPlant, string][] = []
const hooked = createPlantStoreHandlers({
  baseUrl: HOOKED,
  onNewPlant: (plant, principal) => optionEvents.push([plant, principal]),
})
const server = setupServer(
  ...stateful.handlers,
  ...examples.handlers,
  ...relative.handlers,
  ...slash.handlers,
  ...hooked.handlers,
)

// 'error': a request that leaves the handlers (a Link that drops the base's path) fails, not goes out.
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => stateful.store.reset())
afterAll(() => server.close())

/** Every address a client reaches from `first` by following Link (RFC 8288: relative to the page). */
async function followLinks(first: string, token = 'token-a'): Promise<{ urls: string[]; ids: number[] }> {
  const urls: string[] = []
  const ids: number[] = []
  let url: string | undefined = first
  while (url && urls.length < 20) {
    urls.push(url)
    const page: Response = await fetch(url, { headers: auth(token) })
    expect(page.status, url).toBe(200)
    ids.push(...((await page.json()) as { id: number }[]).map((p) => p.id))
    const next = nextAddress(page.headers.get('link'))
    url = next === undefined ? undefined : new URL(next, url).href
  }
  expect(url, 'the last page has no Link').toBeUndefined()
  return { urls, ids }
}

const auth = (token = 'token-a') => ({ authorization: `Bearer ${token}` })
const json = (body: string, token?: string) => ({
  headers: { ...auth(token), 'content-type': 'application/json' },
  body,
})

describe('stateful mode', () => {
  it('creates, reads, replaces and deletes a plant, keeping int64 ids exact', async () => {
    const id = '9223372036854775807'
    const created = await fetch(`${BASE}/plants`, { method: 'POST', ...json(`{"id":${id},"name":"Max"}`) })
    expect(created.status).toBe(200)
    expect(await created.text()).toBe('{"name":"Max"}')
    expect(await (await fetch(`${BASE}/plants/${id}`, { headers: auth() })).text()).toBe(
      `{"id":${id},"name":"Max"}`,
    )
    const replaced = await fetch(`${BASE}/plants/${id}`, {
      method: 'PUT',
      ...json('{"name":"Min","tag":"x"}'),
    })
    expect(await replaced.text()).toBe(`{"id":${id},"name":"Min","tag":"x"}`)
    expect((await fetch(`${BASE}/plants/${id}`, { method: 'DELETE', headers: auth() })).status).toBe(204)
    const gone = await fetch(`${BASE}/plants/${id}`, { headers: auth() })
    expect([gone.status, await gone.json()]).toEqual([404, { error: 404, message: `plant ${id} not found` }])
  })

  it('seeds each token with the example plants and keeps tokens apart', async () => {
    const first = (await (await fetch(`${BASE}/plants`, { headers: auth('one') })).json()) as { id: number }[]
    expect(first.length).toBeGreaterThan(0)
    await fetch(`${BASE}/plants/${first[0]?.id}`, { method: 'DELETE', headers: auth('one') })
    const other = (await (await fetch(`${BASE}/plants`, { headers: auth('two') })).json()) as unknown[]
    expect(other).toEqual(first)
  })

  it("serves a new token's first requests, sent together, from its seeded store", async () => {
    const lists = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${BASE}/plants`, { headers: auth('together') }).then((r) => r.json()),
      ),
    )
    for (const list of lists) expect(list).toEqual(lists[0])
    expect((lists[0] as unknown[]).length).toBeGreaterThan(0)
  })

  it('pages with Link until the last page, every address below the base address', async () => {
    for (let id = 100; id < 107; id++)
      await fetch(`${BASE}/plants`, { method: 'POST', ...json(`{"id":${id},"name":"p${id}"}`) })
    const { urls, ids } = await followLinks(`${BASE}/plants?limit=3`)
    expect(urls.length).toBeGreaterThan(3)
    for (const url of urls) expect(url.startsWith(`${BASE}/plants?`), url).toBe(true)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(ids.filter((id) => id >= 100)).toEqual([100, 101, 102, 103, 104, 105, 106])
  })

  it("answers Link as a query-only reference, which keeps the page's path, tag included", async () => {
    for (let id = 100; id < 103; id++)
      await fetch(`${BASE}/plants`, { method: 'POST', ...json(`{"id":${id},"name":"p${id}","tag":"t"}`) })
    const page = await fetch(`${BASE}/plants?limit=1&tag=t`, { headers: auth() })
    const link = String(page.headers.get('link'))
    expect(link).toMatch(/^<\?[^>]+>; rel="next"$/)
    const next = new URL(String(nextAddress(link)), page.url)
    expect([
      next.origin + next.pathname,
      next.searchParams.get('tag'),
      next.searchParams.get('limit'),
    ]).toEqual([`${BASE}/plants`, 't', '1'])
  })

  it('answers bad requests with the same status and message as the real server', async () => {
    const app = await build()
    const requests: { method: string; url: string; headers?: Record<string, string>; body?: string }[] = [
      { method: 'POST', url: '/plants', headers: { 'content-type': 'application/json' }, body: '{"id":1}' },
      { method: 'POST', url: '/plants', body: '{"id":1}' },
      { method: 'POST', url: '/plants', headers: { 'content-type': 'text/plain' }, body: 'hi' },
      { method: 'POST', url: '/plants', headers: { 'content-type': 'application/json' }, body: '{"id":1,' },
      { method: 'POST', url: '/plants', headers: { 'content-type': 'application/json' }, body: '' },
      {
        method: 'POST',
        url: '/plants',
        headers: { 'content-type': 'application/json' },
        body: '{"id":"1","name":"x"}',
      },
      {
        method: 'POST',
        url: '/plants',
        headers: { 'content-type': 'application/json' },
        body: '{"id":9223372036854775808,"name":"x"}',
      },
      {
        method: 'POST',
        url: '/plants',
        headers: { 'content-type': 'application/json' },
        body: `{"id":1,"name":"${'x'.repeat(70000)}"}`,
      },
      {
        method: 'POST',
        url: '/plants',
        headers: { 'content-type': 'application/json' },
        body: '{"id":1,"name":"\\ud800"}',
      },
      // Fastify reads a body within the limit before its parser finds no Content-Type: 413, not 415.
      { method: 'POST', url: '/plants', body: 'x'.repeat(70000) },
      {
        method: 'POST',
        url: '/plants',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: `{"id":1,"name":"${'x'.repeat(70000)}"}`,
      },
      // An operation without a request body ignores it, even with a Content-Type that is no media type.
      { method: 'DELETE', url: '/plants/404', headers: { 'content-type': 'plants' }, body: '{}' },
      { method: 'DELETE', url: '/plants/1', body: 'x'.repeat(70000) },
      { method: 'POST', url: '/plants', headers: { 'content-type': 'application/json' }, body: '\ufeff{}' },
      { method: 'GET', url: '/plants?limit=0' },
      { method: 'GET', url: '/plants?limit=abc' },
      { method: 'GET', url: '/plants?cursor=not-a-cursor' },
      { method: 'GET', url: '/plants/abc' },
      { method: 'GET', url: '/plants/01' },
      { method: 'GET', url: '/plants/9223372036854775808' },
      { method: 'PUT', url: '/plants/1', headers: { 'content-type': 'application/json' }, body: '{}' },
      { method: 'PATCH', url: '/plants/1' },
    ]
    for (const { method, url, headers = {}, body } of requests) {
      const expected = await app.inject({
        method: method as 'GET',
        url,
        headers: { ...ALICE, ...headers },
        body,
      })
      // Bytes, not a string: fetch would add a text/plain content type of its own to a string.
      const bytes = body === undefined ? undefined : new TextEncoder().encode(body)
      const answer = await fetch(`${BASE}${url}`, { method, headers: { ...auth(), ...headers }, body: bytes })
      const label = `${method} ${url} ${body?.slice(0, 40) ?? ''}`
      expect(answer.status, label).toBe(expected.statusCode)
      expect(await answer.json(), label).toEqual(expected.json())
    }
    const noToken = await fetch(`${BASE}/plants`)
    expect(noToken.status).toBe(401)
    expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer /)
  })
})

describe('examples mode', () => {
  it("serves the first success and its first example, as Prism does, and Prefer's choice", async () => {
    const first = await fetch(`${EXAMPLES}/plants/1`, { headers: auth() })
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ id: expect.any(Number), name: expect.any(String) })
    const notFound = await fetch(`${EXAMPLES}/plants/1`, {
      headers: { ...auth(), prefer: 'code=404' },
    })
    expect(notFound.status).toBe(404)
    expect(await notFound.json()).toMatchObject({ error: 404 })
    const byQuery = await fetch(`${EXAMPLES}/plants/1?__code=404`, { headers: auth() })
    expect(byQuery.status).toBe(404)
    const unknown = await fetch(`${EXAMPLES}/plants/1`, {
      headers: { ...auth(), prefer: 'example=nope' },
    })
    expect(unknown.status).toBe(400)
  })

  it('checks the Authorization form and validates the request against the document', async () => {
    expect((await fetch(`${EXAMPLES}/plants`)).status).toBe(401)
    const invalid = await fetch(`${EXAMPLES}/plants/abc`, { headers: auth() })
    expect([invalid.status, ((await invalid.json()) as { error: number }).error]).toEqual([400, 400])
  })

  it('ends paging below the base address: the page a Link leads to has no Link', async () => {
    const { urls } = await followLinks(`${EXAMPLES}/plants?limit=1`)
    expect(urls).toHaveLength(2)
    expect(urls[1]?.startsWith(`${EXAMPLES}/plants?`), urls[1]).toBe(true)
  })
})

describe('baseUrl', () => {
  it('a relative one is resolved against the page address, as MSW resolves relative paths', async () => {
    const { urls, ids } = await followLinks('http://app.test/api/v1/plants?limit=1')
    expect(urls.length).toBeGreaterThan(1)
    for (const url of urls) expect(url.startsWith('http://app.test/api/v1/plants?'), url).toBe(true)
    expect(ids.length).toBe(urls.length)
  })

  it('a relative one outside a browser (no location) is refused, saying what to give instead', () => {
    expect(() => createPlantStoreHandlers({ baseUrl: '/api' })).toThrow(
      /baseUrl \/api is relative, and there is no page address .* such as http:\/\/localhost:3000\/api/,
    )
    expect(() => createPlantStoreHandlers({ baseUrl: 'http://' })).toThrow('baseUrl http:// is not a URL')
  })

  it('a trailing slash changes nothing', async () => {
    const { urls } = await followLinks('http://slash.test/v1/plants?limit=2')
    expect(urls[1]?.startsWith('http://slash.test/v1/plants?'), urls[1]).toBe(true)
  })
})

describe('in both modes', () => {
  it.each([BASE, EXAMPLES])('%s: Prefer delay holds the answer back, within a bound', async (base) => {
    const started = performance.now()
    const slow = await fetch(`${base}/plants`, { headers: { ...auth(), prefer: 'delay=60' } })
    expect(slow.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
    const tooLong = await fetch(`${base}/plants`, { headers: { ...auth(), prefer: 'delay=600000' } })
    expect(tooLong.status).toBe(400)
    expect(((await tooLong.json()) as { message: string }).message).toMatch(/delay/)
  })

  it.each([BASE, EXAMPLES])('%s: Prefer network-error makes the fetch fail', async (base) => {
    await expect(
      fetch(`${base}/plants`, { headers: { ...auth(), prefer: 'network-error' } }),
    ).rejects.toThrow(TypeError)
  })

  it('an override answers the next request of its operation only', async () => {
    await fetch(`${BASE}/plants`, { method: 'POST', ...json('{"id":500,"name":"kept"}') })
    stateful.store.failNext('deletePlant', { status: 500 })
    expect((await fetch(`${BASE}/plants`, { headers: auth() })).status).toBe(200)
    const failed = await fetch(`${BASE}/plants/500`, { method: 'DELETE', headers: auth() })
    expect([failed.status, await failed.json()]).toEqual([500, { error: 500, message: 'forced by the test' }])
    expect((await fetch(`${BASE}/plants/500`, { headers: auth() })).status).toBe(200)
    expect((await fetch(`${BASE}/plants/500`, { method: 'DELETE', headers: auth() })).status).toBe(204)
    stateful.store.failNext('getPlant', 'network-error')
    await expect(fetch(`${BASE}/plants/500`, { headers: auth() })).rejects.toThrow(TypeError)
    // A typo is a type error in the editor, and at run time an error naming the operations there are.
    // @ts-expect-error: not an operation id of the document
    expect(() => stateful.store.failNext('getPlnat')).toThrow(
      /no operation getPlnat in the document \(its operations: .*getPlant/,
    )
  })
})

describe('the newPlant event', () => {
  const post = (base: string, body: string, token?: string, headers: Record<string, string> = {}) => {
    const init = json(body, token)
    return fetch(`${base}/plants`, { method: 'POST', ...init, headers: { ...init.headers, ...headers } })
  }

  it('calls a subscriber once per create answered 200, with the plant as the webhook body, id exact', async () => {
    const events: [NewPlant, string][] = []
    stateful.store.subscribe('newPlant', (plant, principal) => events.push([plant, principal]))
    const id = '9223372036854775807'
    const statuses = [
      (await post(BASE, `{"id":${id},"name":"Max","tag":"tree"}`)).status,
      // Refused: a repeat, an id as a string, no name, no token, and an override.
      (await post(BASE, `{"id":${id},"name":"Again"}`)).status,
      (await post(BASE, '{"id":"7","name":"Mint"}')).status,
      (await post(BASE, '{"id":8}')).status,
      (await fetch(`${BASE}/plants`, { method: 'POST', body: '{"id":9,"name":"Sage"}' })).status,
    ]
    stateful.store.failNext('createPlant', { status: 500 })
    statuses.push((await post(BASE, '{"id":10,"name":"Thyme"}')).status)
    await expect(
      post(BASE, '{"id":11,"name":"Dill"}', 'token-a', { prefer: 'network-error' }),
    ).rejects.toThrow(TypeError)
    // A replace and a delete announce nothing; another token's create is its own principal's.
    statuses.push((await fetch(`${BASE}/plants/${id}`, { method: 'PUT', ...json('{"name":"Elm"}') })).status)
    statuses.push((await fetch(`${BASE}/plants/${id}`, { method: 'DELETE', headers: auth() })).status)
    statuses.push((await post(BASE, '{"id":1e18,"name":"Fern"}', 'token-b')).status)
    expect(statuses).toEqual([200, 409, 400, 400, 401, 500, 200, 204, 200])
    // toStrictEqual: an untagged plant has no tag key at all, as the webhook body has none.
    expect(events).toStrictEqual([
      [{ id: 9223372036854775807n, name: 'Max', tag: 'tree' }, 'token-a'],
      [{ id: 1000000000000000000n, name: 'Fern' }, 'token-b'],
    ])
  })

  it('stops calling a subscriber once unsubscribed, or after reset(); an onNewPlant option stays', async () => {
    const events: bigint[] = []
    const unsubscribe = stateful.store.subscribe('newPlant', (plant) => events.push(plant.id))
    expect((await post(BASE, '{"id":600,"name":"One"}')).status).toBe(200)
    unsubscribe()
    expect((await post(BASE, '{"id":601,"name":"Two"}')).status).toBe(200)
    stateful.store.subscribe('newPlant', (plant) => events.push(plant.id))
    await stateful.store.reset()
    expect((await post(BASE, '{"id":602,"name":"Three"}')).status).toBe(200)
    expect(events).toEqual([600n])

    optionEvents.length = 0
    expect((await post(HOOKED, '{"id":700,"name":"Kept"}')).status).toBe(200)
    await hooked.store.reset()
    expect((await post(HOOKED, '{"id":701,"name":"Still"}')).status).toBe(200)
    expect(optionEvents.map(([plant]) => plant.id)).toEqual([700n, 701n])
    expect(() => stateful.store.subscribe('oldPlant' as 'newPlant', () => {})).toThrow(/no event/)
  })

  it('in examples mode, announces the create the example answers 200, and none that Prefer refuses', async () => {
    const events: NewPlant[] = []
    const unsubscribe = examples.store.subscribe('newPlant', (plant) => events.push(plant))
    try {
      expect((await post(EXAMPLES, '{"id":9007199254740993,"name":"Oak"}')).status).toBe(200)
      expect((await post(EXAMPLES, '{"id":3,"name":"Elm"}', 'token-a', { prefer: 'code=409' })).status).toBe(
        409,
      )
      expect(events).toStrictEqual([{ id: 9007199254740993n, name: 'Oak' }])
    } finally {
      unsubscribe()
    }
  })
})
