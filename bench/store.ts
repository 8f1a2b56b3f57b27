// Fills a store with N plants before the server opens it: the server's own migrations make the tables,
// then one INSERT … SELECT over a generated sequence writes the rows (SQLite: about 2-3 s for 1,000,000).
import Database from 'better-sqlite3'
import pg from 'pg'
import { openPostgresRepository } from '../src/server/repository/postgres-repository.js'
import { openSqliteRepository } from '../src/server/repository/sqlite-repository.js'

const tags = ['herb', 'tree', 'succulent'] as const

/**
 * Creates `file` with plants 1..count owned by `owner`; every fourth plant has no tag. `migrate` makes
 * the tables: by default this checkout's migrations; another build's (a candidate) must make its own,
 * as its schema may be older, and this one's would be newer than it can open.
 */
export async function fillStore(
  file: string,
  owner: string,
  count: number,
  migrate: (file: string) => Promise<void> = async (path) => openSqliteRepository(path).close(),
): Promise<void> {
  // Opening the repository runs the server's migrations: the layout is exactly the server's.
  await migrate(file)
  const db = new Database(file)
  try {
    // The file is not live yet, and a crash here fails the benchmark anyway: skip the WAL and fsyncs.
    // The server turns WAL back on when it opens the file.
    db.pragma('journal_mode = DELETE')
    db.pragma('synchronous = OFF')
    // A loop of single-row inserts from JS takes ~3x as long: the rows are made inside SQLite instead.
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO plants (owner, id, name, tag)
       SELECT ?, i, 'Basil', CASE i % 4 WHEN 1 THEN ? WHEN 2 THEN ? WHEN 3 THEN ? END FROM seq`,
    ).run(count, owner, ...tags)
    const stored = db.prepare('SELECT count(*) AS n FROM plants WHERE owner = ?').pluck().get(owner)
    if (Number(stored) !== count) throw new Error(`fillStore: ${stored} plants stored, not ${count}`)
  } finally {
    db.close()
  }
}

/** The same plants in a PostgreSQL database (names and tags are stored as their UTF-8 bytes). */
export async function fillPostgresStore(url: string, owner: string, count: number): Promise<void> {
  await (
    await openPostgresRepository({ url, poolSize: 1, connectTimeoutMs: 10_000, statementTimeoutMs: 600_000 })
  ).close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(
      `INSERT INTO plants (owner, id, name, tag)
       SELECT $1, i, convert_to('Basil', 'UTF8'),
              CASE i % 4 WHEN 1 THEN convert_to($2, 'UTF8') WHEN 2 THEN convert_to($3, 'UTF8')
                         WHEN 3 THEN convert_to($4, 'UTF8') END
       FROM generate_series(1, $5::bigint) AS i`,
      [owner, ...tags, count],
    )
    // Fresh statistics, so that the planner uses the primary key from the first request on.
    await client.query('ANALYZE plants')
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM plants WHERE owner = $1', [
      owner,
    ])
    if (Number(rows[0]?.n) !== count)
      throw new Error(`fillPostgresStore: ${rows[0]?.n} plants stored, not ${count}`)
  } finally {
    await client.end()
  }
}
