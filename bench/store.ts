// Fills a SQLite store file with N plants before the server opens it: the server's own migrations make the
// tables, then one INSERT … SELECT over a generated sequence writes the rows (about 2-3 s for 1,000,000).
import Database from 'better-sqlite3'
import { openSqliteRepository } from '../src/repository/sqlite-repository.js'

const tags = ['herb', 'tree', 'succulent'] as const

/** Creates `file` with plants 1..count owned by `owner`; every fourth plant has no tag. */
export async function fillStore(file: string, owner: string, count: number): Promise<void> {
  // Opening the repository runs the server's migrations: the layout is exactly the server's.
  await openSqliteRepository(file).close()
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
