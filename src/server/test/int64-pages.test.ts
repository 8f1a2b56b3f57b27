// A page mixing ids beyond ±(2^53−1) with small ones: every id exact, digit for digit, in id order.
import { describe, expect, it } from 'vitest'
import { ALICE, build } from '../../../test/helpers/build.js'
import { following } from '../../../test/helpers/link.js'

describe('a page of mixed int64 ids', () => {
  it('lists, pages and reads them exactly', async () => {
    const app = await build()
    const ids = [
      '9223372036854775807',
      '-9223372036854775808',
      '9007199254740993',
      '-9007199254740992',
      '1',
      '0',
    ]
    for (const [i, id] of ids.entries()) {
      const res = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...ALICE, 'content-type': 'application/json' },
        payload: `{"id":${id},"name":"P${i}"${i % 2 ? '' : ',"tag":"t"'}}`,
      })
      expect(res.statusCode).toBe(200)
    }
    const list = await app.inject({ url: '/plants', headers: ALICE })
    expect(list.body).toBe(
      '[{"name":"P1","id":-9223372036854775808},{"name":"P3","id":-9007199254740992},' +
        '{"name":"P5","id":0},{"name":"P4","id":1,"tag":"t"},{"name":"P2","id":9007199254740993,"tag":"t"},' +
        '{"name":"P0","id":9223372036854775807,"tag":"t"}]',
    )
    const first = await app.inject({ url: '/plants?limit=5', headers: ALICE })
    const rest = await app.inject({
      url: String(following(first.headers.link, '/plants?limit=5')),
      headers: ALICE,
    })
    expect(rest.body).toBe('[{"name":"P0","id":9223372036854775807,"tag":"t"}]')
    expect(rest.headers.link).toBeUndefined()
    const one = await app.inject({ url: '/plants/9007199254740993', headers: ALICE })
    expect(one.body).toBe('{"name":"P2","id":9007199254740993,"tag":"t"}')
  })
})
