// A truly full disk: the real server on a 1 MB tmpfs of its own (a user and mount namespace through
// `unshare`, no root needed where the kernel allows it), filled up from outside through
// /proc/<pid>/root. Creates get a 507, reads keep working, and writes succeed again once space returns.
import { execFileSync } from 'node:child_process'
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import * as commands from '../../../scripts/lib/commands.js'
import { type Started, startProcess } from '../../../scripts/lib/processes.js'

const mountPoint = '/tmp/plant-store-full-disk'

/** Why a private tmpfs cannot be had here, or undefined when it can. */
function unavailable(): string | undefined {
  try {
    execFileSync(
      'unshare',
      ['-rm', 'sh', '-c', `mkdir -p ${mountPoint} && mount -t tmpfs -o size=64k tmpfs ${mountPoint}`],
      {
        stdio: 'pipe',
      },
    )
    return undefined
  } catch (error) {
    return `unshare -rm with a tmpfs mount is not permitted here (${String((error as Error).message).split('\n')[0]})`
  }
}

const why = unavailable()
if (why) console.log(`skipped: the full-disk test needs a private tmpfs: ${why}`)

let server: Started | undefined
afterAll(async () => {
  await server?.kill9()
})

it.skipIf(why !== undefined)(
  'answers 507 on a full disk, keeps reads, and recovers when space returns',
  async () => {
    const plain = commands.server({
      env: {
        DATABASE_URL: `sqlite:${mountPoint}/plants.db`,
        AUTH_TOKENS: 'alice:token-a',
        ...commands.generousLimits,
      },
      cleanEnv: true,
    })
    server = await startProcess({
      ...plain,
      command: 'unshare',
      // unshare and sh exec in turn: the pid is the server's, and its mount namespace holds the tmpfs.
      args: [
        '-rm',
        'sh',
        '-c',
        'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$@"',
        mountPoint,
        plain.command,
        ...plain.args,
      ],
      timeoutMs: 15_000,
    })
    const inside = (path: string) => join(`/proc/${server?.pid}/root`, path)
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${server?.url}${path}`, {
        method,
        headers: { authorization: 'Bearer token-a', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })

    expect((await send('POST', '/plants', { id: 1, name: 'Basil' })).status).toBe(200)
    // Fill what is left of the disk from outside, 4 KiB at a time (at most 1 MB).
    const filler = inside(`${mountPoint}/filler`)
    const fd = openSync(filler, 'w')
    try {
      for (let i = 0; i < 256; i++) writeSync(fd, Buffer.alloc(4096))
      throw new Error('the 1 MB tmpfs took 1 MB of filler: it is not the one the server writes to')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
    } finally {
      closeSync(fd)
    }

    // A create that needs room gets 507 (a small one may still fit in the WAL's slack: at most 50 tries).
    let full: Response | undefined
    for (let id = 2; id < 52 && !full; id++) {
      // The longest name and tag the document allows, each character 4 bytes in UTF-8.
      const answer = await send('POST', '/plants', { id, name: '𝄞'.repeat(256), tag: '𝄞'.repeat(64) })
      if (answer.status !== 200) full = answer
    }
    if (!full) throw new Error('50 creates of 1280 bytes fitted on a full disk')
    expect(full.status).toBe(507)
    expect(await full.json()).toEqual({
      error: 507,
      message: 'the store is full: nothing was changed; reads still work',
    })
    const read = await send('GET', '/plants/1')
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual({ id: 1, name: 'Basil' })

    // Space returns: the next create succeeds without a restart, and the file is sound.
    rmSync(filler)
    const again = await send('POST', '/plants', { id: 100, name: 'Fern' })
    expect(again.status).toBe(200)
    expect((await send('GET', '/plants/100')).status).toBe(200)
    // SQLite resolves the /proc/<pid>/root link to this namespace's root: check a copy, with its WAL.
    const copy = mkdtempSync(join(tmpdir(), 'plant-store-full-disk-copy-'))
    try {
      for (const name of ['plants.db', 'plants.db-wal']) {
        copyFileSync(inside(`${mountPoint}/${name}`), join(copy, name))
      }
      const db = new Database(join(copy, 'plants.db'))
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
        expect(Number(db.prepare('SELECT count(*) FROM plants').pluck().get())).toBe(2)
      } finally {
        db.close()
      }
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
    server.signal('SIGTERM')
    expect(await server.exited).toBe(0)
  },
  60_000,
)
