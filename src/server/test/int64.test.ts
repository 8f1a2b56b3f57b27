// int64 ids: every value in range round-trips digit for digit; anything else is 400.

import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { ALICE, build } from '../../../test/helpers/build.js'
import { following } from '../../../test/helpers/link.js'

let app: FastifyInstance
beforeAll(async () => {
  app = await build()
})

const json = { ...ALICE, 'content-type': 'application/json' }

describe('int64 ids', () => {
  it.each([
    '9223372036854775807',
    '-9223372036854775808',
    '9007199254740993',
    '-9007199254740993',
    '9007199254740991',
    '0',
  ])('round-trips %s exactly through create, get, list, replace and delete', async (id) => {
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: json,
      payload: `{"id":${id},"name":"Oak"}`,
    })
    expect(created.statusCode, created.body).toBe(200)
    const got = await app.inject({ url: `/plants/${id}`, headers: ALICE })
    expect(got.body).toBe(`{"name":"Oak","id":${id}}`)
    const listed = await app.inject({ url: '/plants?limit=100', headers: ALICE })
    expect(listed.body).toContain(`"id":${id}}`)
    const put = await app.inject({
      method: 'PUT',
      url: `/plants/${id}`,
      headers: json,
      payload: '{"name":"Elm"}',
    })
    expect(put.body).toBe(`{"name":"Elm","id":${id}}`)
    expect((await app.inject({ method: 'DELETE', url: `/plants/${id}`, headers: ALICE })).statusCode).toBe(
      204,
    )
  })

  it.each([
    '0.92233720368547758070e+19',
    '922337203685477.5807e4',
    '92233720368547758070e-1',
    // An exponent past 400 that the zeros after the point take back: the value is still int64.
    `0.${'0'.repeat(390)}9223372036854775807e409`,
  ])('reads the body id %s as 9223372036854775807, digit for digit', async (id) => {
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: json,
      payload: `{"id":${id},"name":"Oak"}`,
    })
    expect(created.statusCode, created.body).toBe(200)
    const got = await app.inject({ url: '/plants/9223372036854775807', headers: ALICE })
    expect(got.body).toBe('{"name":"Oak","id":9223372036854775807}')
    await app.inject({ method: 'DELETE', url: '/plants/9223372036854775807', headers: ALICE })
  })

  it.each([
    ['9223372036854775808', 'body/id must match format "int64"'],
    ['-9223372036854775809', 'body/id must match format "int64"'],
    ['18446744073709551616', 'body/id must match format "int64"'],
    ['1e19', 'body/id must match format "int64"'],
    ['9223372036854775807.5', 'body/id must match format "int64"'],
    ['1.5', 'body/id must be integer'],
    // 0.01: the point falls before every digit written.
    ['100e-4', 'body/id must be integer'],
    ['12300e-7', 'body/id must be integer'],
    ['"9223372036854775807"', 'body/id must be integer'],
  ])('rejects the body id %s', async (id, message) => {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: json,
      payload: `{"id":${id},"name":"Oak"}`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 400, message })
  })

  it.each([
    ['9223372036854775808', 'params/id must match format "int64"'],
    ['-9223372036854775809', 'params/id must match format "int64"'],
    ['1.0', 'params/id must be integer'],
    ['01', 'params/id must be integer'],
    ['0x10', 'params/id must be integer'],
    ['%20', 'params/id must be integer'],
  ])('rejects the path id %s', async (id, message) => {
    const res = await app.inject({ url: `/plants/${id}`, headers: ALICE })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 400, message })
  })

  it('pages past the largest id without overflow', async () => {
    for (const id of ['9223372036854775806', '9223372036854775807']) {
      await app.inject({
        method: 'POST',
        url: '/plants',
        headers: json,
        payload: `{"id":${id},"name":"Oak"}`,
      })
    }
    const first = await app.inject({ url: '/plants?limit=1', headers: ALICE })
    const second = await app.inject({
      url: String(following(first.headers.link, '/plants?limit=1')),
      headers: ALICE,
    })
    expect(second.body).toBe('[{"name":"Oak","id":9223372036854775807}]')
    expect(second.headers.link).toBeUndefined()
  })
})

describe('a body nested deep', () => {
  // 1000 levels are read, the body the first; one more is refused before any reader recurses into it.
  const nested = (arrays: number, id: string) =>
    `{"id":${id},"name":"Oak","note":${'['.repeat(arrays)}${']'.repeat(arrays)}}`

  it.each(['1', '1.0', '9007199254740993'])('is read 1000 levels deep, with the id %s', async (id) => {
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: json,
      payload: nested(999, id),
    })
    expect(created.statusCode, created.body).toBe(200)
    expect(JSON.parse(created.body).name).toBe('Oak')
    await app.inject({ method: 'DELETE', url: `/plants/${id === '1.0' ? '1' : id}`, headers: ALICE })
  })

  it.each(['1', '1.0'])('is refused 1001 levels deep, or 5,000, whatever the id (%s)', async (id) => {
    for (const arrays of [1_000, 4_999]) {
      const refused = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: json,
        payload: nested(arrays, id),
      })
      expect(refused.statusCode).toBe(400)
      expect(JSON.parse(refused.body)).toEqual({
        error: 400,
        message: 'body is nested more than 1000 levels deep',
      })
    }
  })
})
