// The throwaway PostgreSQL clusters start from a kept copy of initdb's output: clusters started at
// once from no kept copy each get a whole one, and a kept copy that is not whole is made again.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { type Cluster, startCluster } from '../scripts/lib/postgres.js'
import { postgresMissing } from './helpers/postgres.js'

const started: Cluster[] = []
const folders: string[] = []
afterAll(async () => {
  await Promise.all(started.map((cluster) => cluster.destroy()))
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-pg-cache-'))
  folders.push(dir)
  return dir
}

async function answers(cluster: Cluster): Promise<number> {
  const client = new pg.Client({ connectionString: await cluster.createDatabase() })
  await client.connect()
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one ?? 0
  } finally {
    await client.end()
  }
}

describe.skipIf(postgresMissing !== undefined)('throwaway PostgreSQL clusters', () => {
  it('start together from no kept copy, which is then whole and alone in its folder', async () => {
    const dir = cacheDir()
    const clusters = await Promise.all([startCluster({ cacheDir: dir }), startCluster({ cacheDir: dir })])
    started.push(...clusters)
    for (const cluster of clusters) expect(await answers(cluster)).toBe(1)
    const kept = readdirSync(dir)
    // No staging folder left behind, and the kept copy is initdb's output itself, not a folder holding it.
    expect(kept).toHaveLength(1)
    expect(existsSync(join(dir, kept[0] ?? '', 'PG_VERSION'))).toBe(true)
    expect(existsSync(join(dir, kept[0] ?? '', 'data'))).toBe(false)
  }, 60_000)

  it('makes a kept copy that is not whole again', async () => {
    const dir = cacheDir()
    // Learn the kept copy's name, then break it as an interrupted copy did: a data/ folder inside, no PG_VERSION.
    started.push(await startCluster({ cacheDir: dir }))
    const [name] = readdirSync(dir)
    const kept = join(dir, name ?? '')
    rmSync(kept, { recursive: true, force: true })
    mkdirSync(join(kept, 'data', 'base'), { recursive: true })
    writeFileSync(join(kept, 'data', 'base', '1'), '')
    const cluster = await startCluster({ cacheDir: dir })
    started.push(cluster)
    expect(await answers(cluster)).toBe(1)
    expect(existsSync(join(kept, 'PG_VERSION'))).toBe(true)
    expect(existsSync(join(kept, 'data'))).toBe(false)
  }, 60_000)
})
