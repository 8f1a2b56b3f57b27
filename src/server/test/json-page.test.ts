// A page written as JSON by the SQLite store itself gives, byte for byte, the answers of the plants built
// and serialized by Fastify: bodies, Link and content type, on every page of 1,000 plants.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { INT64_MAX, INT64_MIN } from '@plant-store/core'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generousLimits } from '../../../scripts/lib/commands.js'
import { loadSpec } from '../../../scripts/lib/spec.js'
import { following } from '../../../test/helpers/link.js'
import { encodeCursor } from '../../core/plant-operations.js'
import { buildApp } from '../app.js'
import { loadConfig } from '../config.js'
import { openRepository } from '../repository/index.js'

const ALICE = { authorization: 'Bearer token-a' }
const TWO_53 = 2n ** 53n
// Names a serializer could write differently: quotes, backslashes, control characters (U+0000 too),
// non-ASCII, a lone surrogate.
const names = [
  'Basil',
  'say "hi"',
  'back\\slash/',
  'tab\there',
  'new\nline\r',
  '\b\f\u0000\u0001\u001f\u007f',
  'Ünïcödé \u2028\u2029',
  '🌿 fern \ud83c',
  '',
]
const tags = [undefined, 'herb', 'tree "tall"', 'ünï']

/** 250 ids on each side of 2^53 and of -2^53, and 250 at each end of the int64 range. */
function ids(): bigint[] {
  const around = (at: bigint) => Array.from({ length: 250 }, (_, i) => at - 125n + BigInt(i))
  return [
    ...around(TWO_53),
    ...around(-TWO_53),
    ...Array.from({ length: 250 }, (_, i) => INT64_MAX - BigInt(i)),
    ...Array.from({ length: 250 }, (_, i) => INT64_MIN + BigInt(i)),
  ]
}

describe('a page written by the store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'json-page-'))
  let written: FastifyInstance
  let built: FastifyInstance

  beforeAll(async () => {
    const spec = await loadSpec()
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'plants.db')}`,
      AUTH_TOKENS: 'alice:token-a',
      ...generousLimits,
    })
    written = await buildApp({ config, logger: false, spec })
    // The same file, through a store without listJson: plants built, then serialized by Fastify.
    built = await buildApp({
      config,
      logger: false,
      spec,
      parts: {
        openRepository: async (options) => ({ ...(await openRepository(options)), listJson: undefined }),
      },
    })
    expect(written.repository.listJson).toBeDefined()
    expect(built.repository.listJson).toBeUndefined()
    const created = await Promise.all(
      ids().map((id, i) => {
        const tag = tags[i % tags.length]
        const name = `${names[i % names.length]} ${i}`
        return written.repository.create('alice', {
          id,
          name,
          ...(tag === undefined ? {} : { tag }),
        } as never)
      }),
    )
    expect(created.filter(Boolean)).toHaveLength(1000)
  })

  afterAll(async () => {
    await Promise.all([written?.close(), built?.close()])
    rmSync(dir, { recursive: true, force: true })
  })

  const get = async (app: FastifyInstance, url: string) => {
    const res = await app.inject({ url, headers: ALICE })
    return {
      status: res.statusCode,
      type: res.headers['content-type'],
      link: res.headers.link,
      body: res.body,
    }
  }

  it.each([
    '/plants',
    '/plants?limit=1',
    '/plants?limit=7',
    '/plants?limit=50',
    '/plants?limit=100',
    '/plants?limit=3&tag=herb',
    '/plants?limit=50&tag=herb',
    '/plants?limit=100&tag=%C3%BCn%C3%AF',
    '/plants?limit=13&tag=tree%20%22tall%22',
  ])('answers %s and every page after it alike', async (first) => {
    let url: string | undefined = first
    let pages = 0
    let plants = 0
    while (url !== undefined) {
      const [fromStore, fromPlants] = await Promise.all([get(written, url), get(built, url)])
      expect(fromStore).toEqual(fromPlants)
      expect(fromStore.status).toBe(200)
      expect(fromStore.type).toBe('application/json; charset=utf-8')
      plants += (JSON.parse(fromStore.body) as unknown[]).length
      pages++
      url = following(fromStore.link, url)
    }
    expect(plants).toBe(first.includes('tag=') ? 250 : 1000)
    expect(pages).toBeGreaterThan(1)
  })

  it.each([
    `/plants?limit=5&cursor=${encodeCursor(INT64_MAX, 'alice')}`,
    `/plants?limit=5&cursor=${encodeCursor(INT64_MAX - 2n, 'alice')}`,
    `/plants?limit=5&cursor=${encodeCursor(INT64_MIN, 'alice')}`,
    `/plants?limit=5&cursor=${encodeCursor(TWO_53, 'alice')}`,
    '/plants?limit=5&tag=nobody',
  ])('answers %s alike', async (url) => {
    const [fromStore, fromPlants] = await Promise.all([get(written, url), get(built, url)])
    expect(fromStore).toEqual(fromPlants)
    expect(fromStore.status).toBe(200)
  })

  it('writes every id digit for digit', async () => {
    const res = await written.inject({
      url: `/plants?limit=3&cursor=${encodeCursor(TWO_53 - 2n, 'alice')}`,
      headers: ALICE,
    })
    expect(res.body).toMatch(
      /"id":9007199254740991[,}].*"id":9007199254740992[,}].*"id":9007199254740993[,}]/s,
    )
  })
})
