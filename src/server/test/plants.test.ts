// Each plant operation's success and failure paths through app.inject.

import { nextAddress } from '@plant-store/core'
import type { FastifyInstance } from 'fastify'
import { beforeEach, describe, expect, it } from 'vitest'
import { ALICE, BOB, build } from '../../../test/helpers/build.js'
import { following } from '../../../test/helpers/link.js'

let app: FastifyInstance
beforeEach(async () => {
  app = await build()
})

const create = (body: unknown, headers: Record<string, string> = ALICE) =>
  app.inject({ method: 'POST', url: '/plants', headers, payload: body as object })

describe('createPlant', () => {
  it('stores a plant and answers with the Plant, without id', async () => {
    const res = await create({ id: 1, name: 'Basil', tag: 'herb' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ name: 'Basil', tag: 'herb' })
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const stored = await app.inject({ url: '/plants/1', headers: ALICE })
    expect(stored.json()).toEqual({ id: 1, name: 'Basil', tag: 'herb' })
  })

  it('answers 409 for an id the caller already uses and keeps the first plant', async () => {
    await create({ id: 1, name: 'Basil' })
    const res = await create({ id: 1, name: 'Rosemary' })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ error: 409, message: 'plant 1 already exists' })
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({ id: 1, name: 'Basil' })
  })

  // On PostgreSQL the creates are queries on connections of their own: the store, not the route, keeps
  // one plant to an id.
  it('answers one of the creates of one id sent together 200 and the rest 409, and keeps that plant', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => create({ id: 1, name: `Plant ${n}` })))
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409])
    const created = answers.find((a) => a.statusCode === 200)?.json()
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({ id: 1, ...created })
  })

  it.each([
    [{ id: 3, tag: 'herb' }, "body must have required property 'name'"],
    [{ name: 'Mint' }, "body must have required property 'id'"],
    [{ id: '4', name: 'Mint' }, 'body/id must be integer'],
    [{ id: 1.5, name: 'Mint' }, 'body/id must be integer'],
    [{ id: true, name: 'Mint' }, 'body/id must be integer'],
    [{ id: 4, name: 7 }, 'body/name must be string'],
    [{ id: 4, name: 'Mint', tag: null }, 'body/tag must be string'],
    [[{ id: 4, name: 'Mint' }], 'body must be object'],
  ])('rejects %j with 400 and no type coercion', async (body, message) => {
    const res = await create(body)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 400, message })
    expect((await app.inject({ url: '/plants', headers: ALICE })).json()).toEqual([])
  })

  it('accepts what the document accepts: unknown fields are allowed and ignored', async () => {
    const res = await create({ id: 5, name: 'Fern', colour: 'green' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ name: 'Fern' })
  })

  it.each([
    ['{"id":10,"name":"Basil","__proto__":{"polluted":"yes"}}', 10n],
    ['{"__proto__":{"polluted":"yes"},"id":11,"name":"Basil"}', 11n],
    ['{"id":12,"name":"Basil","constructor":{"prototype":{"polluted":"yes"}}}', 12n],
    ['{"id":13,"name":"Basil","prototype":{"polluted":"yes"},"constructor":{}}', 13n],
  ])('ignores keys that would reach a prototype, as any unknown key: %s', async (payload, id) => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ name: 'Basil' })
    expect((await app.inject({ url: `/plants/${id}`, headers: ALICE })).json()).toEqual({
      id: Number(id),
      name: 'Basil',
    })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it.each([
    ['1e18', '1000000000000000000'],
    ['9007199254740993.0', '9007199254740993'],
    ['4.2e1', '42'],
    ['-0', '0'],
    ['1.0', '1'],
    ['9.223372036854775807e18', '9223372036854775807'],
  ])('accepts the integer %s as an id and stores it exactly', async (written, stored) => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload: `{"id":${written},"name":"Basil"}`,
    })
    expect(res.statusCode, res.body).toBe(200)
    const got = await app.inject({ url: `/plants/${stored}`, headers: ALICE })
    expect(got.body).toBe(`{"name":"Basil","id":${stored}}`)
  })

  it.each([
    '{"id":30,"name":"\\ud800"}',
    '{"id":31,"name":"Basil","tag":"x\\udc00y"}',
    '{"id":9007199254740993,"name":"\\udbff\\udbff"}',
  ])('answers 400 for a string that is not Unicode text: %s', async (payload) => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      error: 400,
      message: 'body holds a string that is not Unicode text (a lone surrogate escape such as \\ud800)',
    })
    expect((await app.inject({ url: '/plants', headers: ALICE })).json()).toEqual([])
  })

  it('keeps a pair of surrogate escapes, NUL and line separators exactly', async () => {
    const payload = '{"id":32,"name":"\\ud83c\\udf35\\u0000\\u2028"}'
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload,
    })
    expect(res.statusCode).toBe(200)
    expect((await app.inject({ url: '/plants/32', headers: ALICE })).json().name).toBe('🌵\u0000\u2028')
  })

  it('keeps the last of duplicate keys, as JSON.parse does, on both of its paths', async () => {
    for (const [id, payload] of [
      ['20', '{"name":"first","id":20,"name":"last"}'],
      ['9007199254740995', '{"name":"first","id":9007199254740995,"name":"last"}'],
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'application/json' },
        payload,
      })
      expect(res.json()).toEqual({ name: 'last' })
      expect((await app.inject({ url: `/plants/${id}`, headers: ALICE })).body).toBe(
        `{"name":"last","id":${id}}`,
      )
    }
  })

  it('answers 400 for malformed JSON and for an empty JSON body', async () => {
    for (const payload of ['{"id":1,', '']) {
      const res = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode, payload).toBe(400)
      expect(res.json().error).toBe(400)
      expect(res.json().message).toMatch(/^body /)
    }
  })

  it('answers 415 for a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'text/plain' },
      payload: 'Basil',
    })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toEqual({ error: 415, message: 'the body must be application/json, not text/plain' })
  })

  it('answers 413 for a body over 65536 bytes', async () => {
    const res = await create({ id: 6, name: 'x'.repeat(70_000) })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ error: 413, message: 'the body is larger than 65536 bytes' })
  })

  it('answers 415 naming a Content-Type that is no media type, and a body sent without one', async () => {
    for (const [type, named] of [
      ['plain', 'plain'],
      [undefined, 'without a content type'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, ...(type === undefined ? {} : { 'content-type': type }) },
        payload: 'Basil',
      })
      expect(res.statusCode, type).toBe(415)
      expect(res.json()).toEqual({ error: 415, message: `the body must be application/json, not ${named}` })
    }
  })

  it('answers 413 for a body over 65536 bytes that is not JSON: the size is read first', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'text/plain' },
      payload: 'Basil '.repeat(11_667),
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ error: 413, message: 'the body is larger than 65536 bytes' })
  })
})

describe('listPlants', () => {
  beforeEach(async () => {
    for (const [id, name, tag] of [
      [3, 'Mint', 'herb'],
      [1, 'Basil', 'herb'],
      [2, 'Fern', undefined],
    ] as const) {
      expect((await create({ id, name, tag })).statusCode).toBe(200)
    }
  })

  it('lists the caller’s plants in id order', async () => {
    const res = await app.inject({ url: '/plants', headers: ALICE })
    expect(res.statusCode).toBe(200)
    expect(res.json().map((p: { id: number }) => p.id)).toEqual([1, 2, 3])
    expect(res.headers.link).toBeUndefined()
  })

  it('filters by tag', async () => {
    const res = await app.inject({ url: '/plants?tag=herb', headers: ALICE })
    expect(res.json()).toEqual([
      { id: 1, name: 'Basil', tag: 'herb' },
      { id: 3, name: 'Mint', tag: 'herb' },
    ])
  })

  it('pages with an opaque cursor in the Link header until the last page', async () => {
    const seen: number[] = []
    let url: string | undefined = '/plants?limit=2'
    for (let pages = 0; url && pages < 5; pages++) {
      const res = await app.inject({ url, headers: ALICE })
      expect(res.statusCode).toBe(200)
      seen.push(...res.json().map((p: { id: number }) => p.id))
      const link = res.headers.link as string | undefined
      // Query-only, so that it keeps whatever path prefix the request came by.
      if (link) expect(link).toMatch(/^<\?[^>]+>; rel="next"$/)
      url = following(link, url)
    }
    expect(seen).toEqual([1, 2, 3])
  })

  it('keeps the tag filter across pages', async () => {
    const first = await app.inject({ url: '/plants?limit=1&tag=herb', headers: ALICE })
    expect(
      new URL(String(nextAddress(String(first.headers.link))), 'http://x/').searchParams.get('tag'),
    ).toBe('herb')
    const second = await app.inject({
      url: String(following(first.headers.link, '/plants?limit=1&tag=herb')),
      headers: ALICE,
    })
    expect(second.json()).toEqual([{ id: 3, name: 'Mint', tag: 'herb' }])
  })

  it('escapes a tag in the Link as a form does, and keeps it across pages', async () => {
    const tag = 'red & green/50%+'
    for (const id of [7, 8]) await create({ id, name: 'Pepper', tag })
    const url = `/plants?limit=1&tag=${encodeURIComponent(tag)}`
    const first = await app.inject({ url, headers: ALICE })
    expect(first.json()).toEqual([{ id: 7, name: 'Pepper', tag }])
    const target = String(nextAddress(String(first.headers.link)))
    expect(target).toMatch(/^\?limit=1&tag=red\+%26\+green%2F50%25%2B&cursor=[\w-]+\.[0-9a-f]{16}$/)
    const second = await app.inject({ url: String(following(first.headers.link, url)), headers: ALICE })
    expect(second.json()).toEqual([{ id: 8, name: 'Pepper', tag }])
  })

  it('refuses a cursor made for another principal as one it did not make, whatever that principal owns', async () => {
    await create({ id: 1, name: 'Oak' }, BOB)
    await create({ id: 5, name: 'Elm' }, BOB)
    const first = await app.inject({ url: '/plants?limit=1', headers: ALICE })
    const cursor = new URL(String(nextAddress(String(first.headers.link))), 'http://x/').searchParams.get(
      'cursor',
    )
    for (const url of [
      String(following(first.headers.link, '/plants?limit=1')),
      `/plants?cursor=${cursor}`,
    ]) {
      const res = await app.inject({ url, headers: BOB })
      expect(res.statusCode, url).toBe(400)
      expect(res.json()).toEqual({
        error: 400,
        message: 'querystring/cursor is not a cursor this server made',
      })
    }
    // Its owner still pages with it.
    const own = await app.inject({ url: `/plants?cursor=${cursor}`, headers: ALICE })
    expect(own.json().map((p: { id: number }) => p.id)).toEqual([2, 3])
  })

  it.each([
    ['limit=0', 'querystring/limit must be >= 1'],
    ['limit=101', 'querystring/limit must be <= 100'],
    ['limit=ten', 'querystring/limit must be integer'],
    ['limit=1.5', 'querystring/limit must be integer'],
    ['cursor=not-a-cursor', 'querystring/cursor is not a cursor this server made'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await app.inject({ url: `/plants?${query}`, headers: ALICE })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 400, message })
  })
})

describe('getPlant, replacePlant, deletePlant', () => {
  beforeEach(async () => {
    await create({ id: 1, name: 'Basil', tag: 'herb' })
  })

  it('replaces name and tag; a tag left out is removed', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/plants/1',
      headers: ALICE,
      payload: { name: 'Thai basil' },
    })
    expect(put.statusCode).toBe(200)
    expect(put.json()).toEqual({ id: 1, name: 'Thai basil' })
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({
      id: 1,
      name: 'Thai basil',
    })
  })

  it('answers 404 for a plant that does not exist, on every operation', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/plants/404', headers: ALICE, payload: { name: 'x' } })
      expect(res.statusCode, method).toBe(404)
      expect(res.json()).toEqual({ error: 404, message: 'plant 404 not found' })
    }
  })

  it('deletes with 204 and no body, then the plant is gone', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/plants/1', headers: ALICE })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).statusCode).toBe(404)
  })

  it('answers 400 for an id that is not an integer', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/plants/abc', headers: ALICE, payload: { name: 'x' } })
      expect(res.statusCode, method).toBe(400)
      expect(res.json()).toEqual({ error: 400, message: 'params/id must be integer' })
    }
  })

  it('answers 400 for a replacement without a name, and keeps the plant', async () => {
    const res = await app.inject({ method: 'PUT', url: '/plants/1', headers: ALICE, payload: { tag: 'x' } })
    expect(res.statusCode).toBe(400)
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({
      id: 1,
      name: 'Basil',
      tag: 'herb',
    })
  })
})

describe('principals', () => {
  it('keeps each principal’s plants apart: ids are per principal', async () => {
    await create({ id: 1, name: 'Basil' }, ALICE)
    expect((await app.inject({ url: '/plants/1', headers: BOB })).statusCode).toBe(404)
    expect((await app.inject({ method: 'DELETE', url: '/plants/1', headers: BOB })).statusCode).toBe(404)
    expect(
      (await app.inject({ method: 'PUT', url: '/plants/1', headers: BOB, payload: { name: 'Mine' } }))
        .statusCode,
    ).toBe(404)
    expect((await app.inject({ url: '/plants', headers: BOB })).json()).toEqual([])
    expect((await create({ id: 1, name: 'Rose' }, BOB)).statusCode).toBe(200)
    expect((await app.inject({ url: '/plants/1', headers: ALICE })).json()).toEqual({ id: 1, name: 'Basil' })
  })
})

describe('routes outside the document', () => {
  it('answers 404 for an unknown path and 405 with Allow for an undocumented method', async () => {
    const unknown = await app.inject({ url: '/nope', headers: ALICE })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error).toBe(404)
    const patch = await app.inject({ method: 'PATCH', url: '/plants/1', headers: ALICE })
    expect(patch.statusCode).toBe(405)
    expect(patch.headers.allow).toBe('GET, PUT, DELETE')
  })

  it('serves health, the document and the docs page without a token', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    const doc = await app.inject({ url: '/openapi.json' })
    expect(doc.json().info).toMatchObject({ title: 'Plant Store', version: '1.0.0' })
    expect(doc.json().paths['/plants'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NewPlant',
    })
    const docs = await app.inject({ url: '/docs/' })
    expect(docs.statusCode).toBe(200)
    expect(docs.body).toMatch(/swagger-ui/i)
  })

  it('serves the docs page’s files, redirects and 404s as before it was loaded lazily', async () => {
    const css = await app.inject({ url: '/docs/static/swagger-ui.css' })
    expect(css.statusCode).toBe(200)
    expect(css.headers['content-type']).toMatch(/^text\/css/)
    expect(css.headers['content-length']).toBe(String(css.rawPayload.length))
    const again = await app.inject({
      url: '/docs/static/swagger-ui.css',
      headers: { 'if-none-match': String(css.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    const moved = await app.inject({ url: '/docs/static/index.html' })
    expect(moved.statusCode).toBe(302)
    expect(moved.headers.location).toBe('/docs/')
    expect(moved.headers['content-type']).toBeUndefined()
    const missing = await app.inject({ url: '/docs/static/nothing.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ error: 404, message: 'no route for GET /docs/static/nothing.js' })
    expect((await app.inject({ url: '/docs/json' })).json().info.title).toBe('Plant Store')
  })
})

describe('bodies sent to operations without a request body', () => {
  it.each([
    ['application/json', ''],
    ['text/plain', ''],
    ['application/json', '{"name":"x"}'],
    // No media type at all, which Fastify would refuse (415) before any parser read the body.
    ['plain', 'Basil'],
  ])('are ignored: DELETE with %s %j is 204', async (contentType, payload) => {
    await create({ id: 1, name: 'Basil' })
    const res = await app.inject({
      method: 'DELETE',
      url: '/plants/1',
      headers: { ...ALICE, 'content-type': contentType },
      payload,
    })
    expect(res.statusCode).toBe(204)
  })
})
