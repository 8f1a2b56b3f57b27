// Clean-up: what the broker no longer needs to answer from. A version goes when it is not the latest of
// a main branch, not deployed or released, and older than the cut-off; then the contents no version
// carries, and all but the latest 20 verifications of each version.
import type { Db } from './db.js'

export async function cleanUp(
  db: Db,
  before: Date,
  mainBranches: string[],
): Promise<{ versions: number; contents: number; verifications: number }> {
  const marks = mainBranches.map(() => '?').join(', ')
  return db.transaction(async (sql) => {
    const versions = await sql.run(
      `DELETE FROM versions WHERE created_at < ?
         AND id NOT IN (SELECT version_id FROM deployments WHERE ended_at IS NULL)
         AND id NOT IN (SELECT version_id FROM releases WHERE ended_at IS NULL)
         AND id NOT IN (
           SELECT (SELECT v2.id FROM versions v2 WHERE v2.application_id = v.application_id AND v2.branch = v.branch
                   ORDER BY v2.created_at DESC, v2.id DESC LIMIT 1)
           FROM versions v WHERE v.branch IN (${marks}))`,
      [before.toISOString(), ...mainBranches],
    )
    // A kept version's verifications: its latest 20 tell its story; the rest only grow the matrix.
    const verifications = await sql.run(
      `DELETE FROM verifications WHERE id IN (
         SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY version_id ORDER BY id DESC) AS n FROM verifications) ranked
         WHERE n > 20)`,
    )
    const contents = await sql.run(
      'DELETE FROM contents WHERE hash NOT IN (SELECT content_hash FROM versions)',
    )
    return { versions, contents, verifications }
  })
}
