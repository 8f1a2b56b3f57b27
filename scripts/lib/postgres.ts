// A throwaway PostgreSQL cluster for the tests, the contract suite and the benchmark: initdb on a
// temporary folder, one postmaster on a free loopback port (stopped with everything else this process
// started), and a fresh database on demand. As root, the binaries run as the `postgres` user, since
// initdb and postgres refuse to run as root.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort, repoRoot, type Started, startProcess } from './processes.js'

const run = promisify(execFile)

export const INSTALL_HINT = 'install PostgreSQL (Debian, Ubuntu: apt-get install postgresql)'

/** The folder holding initdb, pg_ctl and postgres, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    // The newest installed major version first.
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
    for (const version of versions) if (has(join(root, version, 'bin'))) return join(root, version, 'bin')
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && has(dir)) return dir
  return undefined
}

/** pg_config --bindir, when the folders above hold no binaries (a source build, a custom prefix). */
async function bindirFromPgConfig(): Promise<string | undefined> {
  try {
    const dir = (await run('pg_config', ['--bindir'])).stdout.trim()
    return existsSync(join(dir, 'initdb')) ? dir : undefined
  } catch {
    return undefined
  }
}

export async function findPostgres(): Promise<string | undefined> {
  return postgresBinDir() ?? (await bindirFromPgConfig())
}

const asRoot = process.getuid?.() === 0

/** The command line that runs a PostgreSQL binary, as the postgres user when this process is root. */
function command(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
}

export interface Cluster {
  port: number
  /** The `postgres` database, as the superuser: for creating databases. */
  adminUrl: string
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>
  /** `pg_ctl stop -m fast`: clients are disconnected, the server shuts down cleanly. */
  stopFast(): Promise<void>
  /** Starts the server again on the same port and folder. */
  start(): Promise<void>
  /** Stops the server and removes the folder. */
  destroy(): Promise<void>
}

let databases = 0

export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `plants_${process.pid}_${++databases}`
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  return adminUrl.replace(/\/postgres$/, `/${name}`)
}

/** As root, the folder is given to the `postgres` user, whom the binaries run as. */
async function forPostgres(dir: string): Promise<void> {
  if (!asRoot) return
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout)
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout)
  chownSync(dir, uid, gid)
}

const INITDB = ['-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']

/** Where the kept initdb output lives: node_modules/.cache of the repository. */
const CACHE = join(repoRoot, 'node_modules', '.cache', 'plant-store')

/** A kept copy is whole when PG_VERSION, which initdb writes, is at its top. */
const whole = (kept: string) => existsSync(join(kept, 'PG_VERSION'))

/**
 * A data folder fresh from initdb, made once for these binaries and kept in `cacheDir`: each cluster
 * starts from a copy of it, since initdb costs about a second of CPU and a copy a tenth of that. Copied
 * into a staging folder of its own call and renamed into place, so that runs at once never see half of
 * it; a kept copy that is not whole (left by a run that was stopped, or by an older kit) is made again.
 */
async function initialized(bin: string, cacheDir: string): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([bin, INITDB]))
    .digest('hex')
    .slice(0, 16)
  const kept = join(cacheDir, `postgres-${key}`)
  if (whole(kept)) return kept
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-pg-'))
  try {
    await forPostgres(dir)
    await run(...command(join(bin, 'initdb'), ['-D', join(dir, 'data'), ...INITDB]), { cwd: dir })
    mkdirSync(dirname(kept), { recursive: true })
    // Beside the kept copy, so that the rename stays on one file system.
    const staging = mkdtempSync(`${kept}.staging-`)
    try {
      await run('cp', ['-a', join(dir, 'data'), join(staging, 'data')])
      if (existsSync(kept) && !whole(kept)) rmSync(kept, { recursive: true, force: true })
      try {
        renameSync(join(staging, 'data'), kept)
      } catch (error) {
        // Another run put its own in place first, the same initdb's; anything else is an error.
        if (!whole(kept)) throw error
      }
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return kept
}

export interface ClusterOptions {
  /** Where initdb's output is kept between runs (default node_modules/.cache/plant-store). */
  cacheDir?: string
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = await findPostgres()
  if (!bin) throw new Error(`PostgreSQL's initdb and postgres were not found: ${INSTALL_HINT}`)
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-pg-'))
  const data = join(dir, 'data')
  await forPostgres(dir)
  const exec = (name: string, args: string[]) => run(...command(join(bin, name), args), { cwd: dir })
  // A copy of initdb's output, which keeps its owner and modes.
  await run('cp', ['-a', await initialized(bin, options.cacheDir ?? CACHE), data])

  const port = await freePort()
  let server: Started | undefined
  const start = async () => {
    const [cmd, args] = command(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      // A throwaway cluster: durability against a crash of the machine is not what is tested.
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'shared_buffers=32MB',
      '-c',
      'max_connections=100',
    ])
    server = await startProcess({
      name: 'PostgreSQL',
      command: cmd,
      args,
      cwd: dir,
      listening: /database system is (ready) to accept connections/,
      timeoutMs: 30_000,
    })
  }
  try {
    await start()
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  return {
    port,
    adminUrl,
    createDatabase: () => createDatabase(adminUrl),
    stopFast: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      await server?.exited
    },
    start,
    destroy: async () => {
      await server?.kill9()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
