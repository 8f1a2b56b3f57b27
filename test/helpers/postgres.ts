// PostgreSQL for the tests: a throwaway cluster per test file, started on first use and removed when
// the file's tests are done. Without the binaries the PostgreSQL tests are skipped with a printed
// reason, except on CI (CI=true), where they must run.
import { afterAll } from 'vitest'
import { type Cluster, findPostgres, INSTALL_HINT, startCluster } from '../../scripts/lib/postgres.js'

const bin = await findPostgres()

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export const postgresMissing: string | undefined = bin
  ? undefined
  : `PostgreSQL tests skipped: initdb and postgres were not found in /usr/lib/postgresql/*/bin, pg_config --bindir or PATH; ${INSTALL_HINT}`

if (postgresMissing) {
  if (process.env.CI === 'true')
    throw new Error(postgresMissing.replace('tests skipped', 'tests must run on CI'))
  console.warn(postgresMissing)
}

let cluster: Promise<Cluster> | undefined
afterAll(async () => {
  if (cluster) await (await cluster).destroy()
})

/** The file's cluster, started on first use. */
export function postgresCluster(): Promise<Cluster> {
  cluster ??= startCluster()
  return cluster
}

/** A new, empty database on the file's cluster. */
export async function freshDatabase(): Promise<string> {
  return (await postgresCluster()).createDatabase()
}
