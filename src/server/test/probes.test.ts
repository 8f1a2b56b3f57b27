// Liveness and readiness: /healthz whatever the store, /readyz only while the store answers; and a
// store that cannot be opened stops the start with one line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { build } from '../../../test/helpers/build.js'
import { refusedStart } from '../../../test/helpers/server-process.js'
import { migrations } from '../repository/migrations.js'

const dir = mkdtempSync(join(tmpdir(), 'plant-store-probes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('health and readiness', () => {
  it('answers /healthz and /readyz with 200 and no token while the store answers', async () => {
    const app = await build()
    for (const url of ['/healthz', '/readyz']) {
      const res = await app.inject({ url })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok' })
    }
  })

  it('answers /readyz with 503, Retry-After and the Error shape once the store is gone; /healthz stays 200', async () => {
    const app = await build()
    await app.repository.close()
    const res = await app.inject({ url: '/readyz' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.json()).toEqual({ error: 503, message: 'the store is not answering' })
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200)
  })
})

describe('a store that cannot be opened', () => {
  it('stops the start with one line when the database schema is newer than the server knows', async () => {
    const file = join(dir, 'newer.db')
    const db = new Database(file)
    db.pragma(`user_version = ${migrations.length + 5}`)
    db.close()
    const { exit, output } = await refusedStart({ DATABASE_URL: `sqlite:${file}` })
    expect(exit).toBe(1)
    expect(output.trim()).toBe(
      `the SQLite database has schema version ${migrations.length + 5}, newer than the ${migrations.length} this server knows: run the release that wrote it, or a newer one`,
    )
  })

  it('stops the start with one line when PostgreSQL cannot be reached', async () => {
    // Port 9 (discard) on the loopback: nothing listens there, so the connection is refused.
    const { exit, output } = await refusedStart({ DATABASE_URL: 'postgres://plants@127.0.0.1:9/plants' })
    expect(exit).toBe(1)
    expect(output.trim()).toBe('cannot open the PostgreSQL database: connect ECONNREFUSED 127.0.0.1:9')
  })
})
