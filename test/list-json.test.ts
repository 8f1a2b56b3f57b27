// listPlants answers with JSON that SQLite writes when it can; every byte and header must be what the
// generic path (rows, then the response schema's serializer) gives for the same plants.
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { ALICE, build } from './helpers/build.js'

const plants: { id: string; name: string; tag?: string }[] = [
  { id: '9223372036854775807', name: 'Oak', tag: 'tree' },
  { id: '-9223372036854775808', name: 'Root' },
  { id: '9007199254740993', name: 'Big "quoted" \\ name', tag: 'a\tb\nc\u0001' },
  { id: '-9007199254740992', name: 'Minus' },
  { id: '9007199254740991', name: 'Safe max', tag: 'herb' },
  { id: '1', name: 'Basil', tag: 'herb' },
  { id: '2', name: 'Fern' },
  { id: '3', name: 'Mint', tag: 'herb' },
  { id: '0', name: '', tag: '' },
]
const nonAscii = [
  { id: '10', name: 'Bärlauch', tag: 'kräuter' },
  { id: '11', name: 'Lotus 🌸', tag: '\u2028' },
  { id: '12', name: 'lone \\ud800 surrogate' },
]

async function filled(extra: typeof plants, generic: boolean): Promise<FastifyInstance> {
  const app = await build()
  if (generic) delete (app.repository as { listJson?: unknown }).listJson
  for (const { id, name, tag } of [...plants, ...extra]) {
    const body = `{"id":${id},"name":${JSON.stringify(name).replace('\\\\ud800', '\\ud800')}${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}`
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...ALICE, 'content-type': 'application/json' },
      payload: body,
    })
    expect(res.statusCode, body).toBe(200)
  }
  return app
}

async function walk(app: FastifyInstance, first: string): Promise<string[]> {
  const answers: string[] = []
  let url: string | undefined = first
  for (let i = 0; url && i < 20; i++) {
    const res = await app.inject({ url, headers: ALICE })
    const { date: _date, ...headers } = res.headers
    answers.push(`${res.statusCode} ${JSON.stringify(headers)} ${res.body}`)
    const link = res.headers.link as string | undefined
    url = link?.slice(1, link.indexOf('>'))
  }
  return answers
}

describe('store-made list JSON', () => {
  it.each([
    ['/plants'],
    ['/plants?limit=1'],
    ['/plants?limit=2'],
    ['/plants?limit=3&tag=herb'],
    ['/plants?limit=100'],
    ['/plants?tag=none'],
  ])('answers %s as the generic path does, page by page', async (first) => {
    for (const extra of [[], nonAscii]) {
      const fast = await walk(await filled(extra, false), first)
      const generic = await walk(await filled(extra, true), first)
      expect(fast).toEqual(generic)
    }
  })

  it('keeps int64 ids exact beyond 2^53 next to small ones', async () => {
    const app = await filled([], false)
    const repository = app.repository as Required<typeof app.repository>
    const listJson = repository.listJson.bind(repository)
    let made = 0
    repository.listJson = async (...args) => {
      const page = await listJson(...args)
      if (page) made++
      return page
    }
    const res = await app.inject({ url: '/plants?limit=100', headers: ALICE })
    expect(made, 'the page came from the store as JSON').toBe(1)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).toContain('{"name":"Root","id":-9223372036854775808}')
    expect(res.body).toContain('"id":9223372036854775807,')
    expect(res.body).toContain('"id":9007199254740993,')
    expect(res.body).toContain('{"name":"Basil","id":1,"tag":"herb"}')
  })
})
