// The schema steps of both stores, in one list: a step's position is its schema version in either
// database, so a database written by one release is read the same way by the next.
import { answerJsonSql } from './plant-columns.js'

/** A page of one tag's plants walks this index (pageSql); the fourth SQLite step makes it again. */
const plantsByTag = 'CREATE INDEX plants_by_tag ON plants (owner, tag, id)'

export interface MigrationStep {
  sqlite: string
  postgres: string
}

// Append only. SQLite keeps its version in PRAGMA user_version, PostgreSQL in table schema_version.
export const migrations: readonly MigrationStep[] = [
  {
    sqlite: `CREATE TABLE plants (
       owner TEXT NOT NULL,
       id INTEGER NOT NULL,
       name TEXT NOT NULL,
       tag TEXT,
       PRIMARY KEY (owner, id)
     ) WITHOUT ROWID`,
    // bytea, not text: a name may hold U+0000, which PostgreSQL's text cannot; the store keeps the
    // UTF-8 bytes, exactly as given.
    // Stryker disable next-line StringLiteral: unreachable: PostgreSQL's step, which the runner's SQLite store never runs; src/server/test/postgres-instances.test.ts runs it.
    postgres: `CREATE TABLE plants (
       owner text NOT NULL,
       id bigint NOT NULL,
       name bytea NOT NULL,
       tag bytea,
       PRIMARY KEY (owner, id)
     )`,
  },
  { sqlite: plantsByTag, postgres: plantsByTag },
  // The webhook outbox (outbox.ts): times in epoch milliseconds of the instances' clocks; a row is
  // pending while failed_at is null, and leased to the instance sending it until lease_until.
  {
    sqlite: `CREATE TABLE webhook_outbox (
       id TEXT PRIMARY KEY,
       owner TEXT NOT NULL,
       body TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       attempts INTEGER NOT NULL DEFAULT 0,
       next_attempt_at INTEGER NOT NULL,
       lease_until INTEGER NOT NULL DEFAULT 0,
       failed_at INTEGER,
       last_error TEXT
     );
     CREATE INDEX webhook_outbox_due ON webhook_outbox (failed_at, next_attempt_at)`,
    // Stryker disable next-line StringLiteral: unreachable: PostgreSQL's step, which the runner's SQLite store never runs; src/server/test/postgres-instances.test.ts runs it.
    postgres: `CREATE TABLE webhook_outbox (
       id text PRIMARY KEY,
       owner text NOT NULL,
       body text NOT NULL,
       created_at bigint NOT NULL,
       attempts integer NOT NULL DEFAULT 0,
       next_attempt_at bigint NOT NULL,
       lease_until bigint NOT NULL DEFAULT 0,
       failed_at bigint,
       last_error text
     );
     CREATE INDEX webhook_outbox_due ON webhook_outbox (failed_at, next_attempt_at)`,
  },
  // Each SQLite plant keeps its answer's JSON, written by SQLite as the row is written, so that a page
  // reads 51 stored strings rather than building them with json_object: a page of 50 took 14 µs less
  // CPU (bench/README.md). SQLite cannot add a stored column to a table, so the table is made again.
  // The answer follows the document's fields: a step that adds a field makes the table again too.
  // PostgreSQL builds its pages from rows, and has nothing to do.
  {
    sqlite: `CREATE TABLE plants_with_answers (
       owner TEXT NOT NULL,
       id INTEGER NOT NULL,
       name TEXT NOT NULL,
       tag TEXT,
       answer TEXT NOT NULL GENERATED ALWAYS AS (${answerJsonSql()}) STORED,
       PRIMARY KEY (owner, id)
     ) WITHOUT ROWID;
     INSERT INTO plants_with_answers (owner, id, name, tag) SELECT owner, id, name, tag FROM plants;
     DROP TABLE plants;
     ALTER TABLE plants_with_answers RENAME TO plants;
     ${plantsByTag}`,
    // Stryker disable next-line StringLiteral: unreachable: PostgreSQL's step, which the runner's SQLite store never runs; src/server/test/postgres-instances.test.ts runs it.
    postgres: 'SELECT 1',
  },
]

// Stryker disable next-line BlockStatement: unreachable: only a database newer than this server is refused, and the runner's is new; src/server/test/repository.test.ts refuses one.
/** The start stops here: a database whose schema a newer release wrote may hold what this one would break. */
export function checkSchemaVersion(version: number, store: string): void {
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: unreachable: only a database newer than this server is refused, and the runner's is new; src/server/test/repository.test.ts refuses one (the mark also covers the twins that refuse every database, which the runner kills).
  if (version > migrations.length) {
    // Stryker disable next-line CallExpression: unreachable: only a database newer than this server is refused, and the runner's is new; src/server/test/repository.test.ts refuses one.
    throw new StoreStartError(
      // Stryker disable next-line StringLiteral: unreachable: only a database newer than this server is refused, and the runner's is new; src/server/test/repository.test.ts refuses one.
      `the ${store} database has schema version ${version}, newer than the ${migrations.length} this server knows: run the release that wrote it, or a newer one`,
    )
  }
}

/** Why the store cannot be opened; the server prints the message alone and exits. */
export class StoreStartError extends Error {}
