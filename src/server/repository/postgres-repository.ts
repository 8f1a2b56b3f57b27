// PostgreSQL storage through node-postgres: a bounded pool, statement and connection timeouts, and
// int64 ids exact end to end (bigint columns, read as BigInt, sent as decimal text).

import {
  INT64_MAX,
  INT64_MIN,
  type ListQuery,
  type PlantField,
  type PlantRepository,
  plantFields,
  type StoredPlant,
} from '@plant-store/core'
import pg from 'pg'
import { newPlantEvent } from '../webhooks/event.js'
import { StoreUnavailableError } from './errors.js'
import { checkSchemaVersion, migrations, StoreStartError } from './migrations.js'
import { type Outbox, OutboxFullError, type OutboxOptions, PendingBound, statsOf } from './outbox.js'
import {
  columnValues,
  placeholders,
  plantColumns,
  plantOfRow,
  replacedFields,
  setList,
} from './plant-columns.js'

export interface PostgresOptions {
  /** `postgres://…` or `postgresql://…`. */
  url: string
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
  /** Store a newPlant event with each create of an owner it wants. */
  outbox?: OutboxOptions
}

type OutboxRow = [id: string, owner: string, body: string, attempts: number, createdAt: bigint]

const INT8_OID = 20
// pg reads int8 as a string by default so as not to round it; the store reads it as BigInt instead.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (text: string) => BigInt(text)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/** Every instance takes this lock while it migrates, so that instances started together migrate once. */
const MIGRATION_LOCK = "hashtext('plant-store schema migrations')"

/** A row as an array, in plantColumns' order: the id read as BigInt, strings as their UTF-8 bytes. */
type Row = unknown[]

const $ = (i: number) => `$${i}`
const INSERT_PLANT = `INSERT INTO plants (owner, ${plantColumns}) VALUES ($1, ${placeholders(plantFields, $, 2)})
  ON CONFLICT (owner, id) DO NOTHING`
const REPLACE_PLANT = `UPDATE plants SET ${setList($, 1)}
  WHERE owner = $${replacedFields.length + 1} AND id = $${replacedFields.length + 2}`

export async function openPostgresRepository(
  options: PostgresOptions,
): Promise<PlantRepository & { outbox: Outbox }> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    // The server's own timeout cannot fire when the server is gone: the client stops waiting too.
    query_timeout: options.statementTimeoutMs + 1000,
    keepAlive: true,
    application_name: 'plant-store',
    types,
  })
  // An idle connection that the server closes (a restart) errors here; the pool drops it and opens a
  // new one when asked, and a request in flight gets its own error. Unhandled, it would end the process.
  pool.on('error', () => {})

  try {
    await migrate(pool)
  } catch (error) {
    await pool.end()
    if (error instanceof StoreStartError) throw error
    throw new StoreStartError(`cannot open the PostgreSQL database: ${(error as Error).message}`)
  }

  const storeError = (error: unknown) =>
    unavailable(error)
      ? new StoreUnavailableError(`the store is unavailable: ${(error as Error)?.message ?? String(error)}`, {
          cause: error,
        })
      : error
  const query = async <R extends unknown[] = Row>(name: string, text: string, values: unknown[]) => {
    try {
      return await pool.query<R>({ name, text, values, rowMode: 'array' })
    } catch (error) {
      throw storeError(error)
    }
  }
  const outbox = options.outbox
  const bound = outbox && new PendingBound(outbox.maxPending)
  const listeners: (() => void)[] = []
  /** The plant and its event in one transaction: both are committed, or neither. */
  const createAnnounced = async (owner: string, plant: StoredPlant) => {
    let client: pg.PoolClient
    try {
      client = await pool.connect()
    } catch (error) {
      throw storeError(error)
    }
    try {
      await client.query('BEGIN')
      const inserted = await client.query({
        name: 'plants-create',
        text: INSERT_PLANT,
        values: [owner, ...columnValues(plant, plantFields, toColumn)],
      })
      if (inserted.rowCount !== 1) {
        await client.query('ROLLBACK')
        return false
      }
      // Instances creating at once may pass the bound by as many events as they add between their
      // counts (PendingBound), and no more.
      if (bound?.needsCount()) {
        const { rows } = await client.query<[bigint]>({
          name: 'outbox-pending',
          text: 'SELECT count(*) FROM webhook_outbox WHERE failed_at IS NULL',
          rowMode: 'array',
        })
        bound.counted(Number(rows[0]?.[0] ?? 0))
      }
      const event = newPlantEvent(owner, plant)
      const now = Date.now()
      await client.query({
        name: 'outbox-add',
        text: 'INSERT INTO webhook_outbox (id, owner, body, created_at, next_attempt_at) VALUES ($1, $2, $3, $4, $4)',
        values: [event.id, owner, event.body, now],
      })
      await client.query('COMMIT')
      bound?.added()
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error instanceof OutboxFullError ? error : storeError(error)
    } finally {
      client.release()
    }
    for (const listener of listeners) listener()
    return true
  }
  const text = (id: number | bigint) => String(id)
  const bytes = (value: string | undefined) => (value === undefined ? null : Buffer.from(value, 'utf8'))
  let closing: Promise<void> | undefined
  const changed = (result: pg.QueryResult) => result.rowCount === 1

  return {
    create: async (owner, plant) =>
      outbox?.wants(owner)
        ? createAnnounced(owner, plant)
        : changed(
            await query('plants-create', INSERT_PLANT, [
              owner,
              ...columnValues(plant, plantFields, toColumn),
            ]),
          ),
    replace: async (owner, plant) =>
      changed(
        await query('plants-replace', REPLACE_PLANT, [
          ...columnValues(plant, replacedFields, toColumn),
          owner,
          text(plant.id),
        ]),
      ),
    delete: async (owner, id) =>
      changed(
        await query('plants-delete', 'DELETE FROM plants WHERE owner = $1 AND id = $2', [owner, text(id)]),
      ),
    get: async (owner, id) => {
      const { rows } = await query(
        'plants-get',
        `SELECT ${plantColumns} FROM plants WHERE owner = $1 AND id = $2`,
        [owner, text(id)],
      )
      return rows[0] && toPlant(rows[0])
    },
    list: async (owner, { limit, after, tag }: ListQuery) => {
      if (after === INT64_MAX) return []
      const from = text(after === undefined ? INT64_MIN : after + 1n)
      const { rows } =
        tag === undefined
          ? await query(
              'plants-page',
              `SELECT ${plantColumns} FROM plants WHERE owner = $1 AND id >= $2 ORDER BY id LIMIT $3`,
              [owner, from, limit],
            )
          : await query(
              'plants-page-by-tag',
              `SELECT ${plantColumns} FROM plants WHERE owner = $1 AND tag = $2 AND id >= $3 ORDER BY id LIMIT $4`,
              [owner, bytes(tag), from, limit],
            )
      return rows.map(toPlant)
    },
    ping: async () => {
      await query('ping', 'SELECT 1', [])
    },
    // Once: the app and a test may both close it.
    close: () => {
      closing ??= pool.end()
      return closing
    },
    outbox: {
      // SKIP LOCKED: instances claiming at once each take other rows; the lease keeps a claimed row
      // from the next claim, in any instance, until its attempt is settled or the lease runs out.
      claim: async (now, leaseUntil, limit, delivered = []) => {
        if (delivered.length > 0)
          await query('outbox-delivered', 'DELETE FROM webhook_outbox WHERE id = ANY($1)', [delivered])
        if (limit === 0) return []
        const { rows } = await query<OutboxRow>(
          'outbox-claim',
          `UPDATE webhook_outbox SET lease_until = $1 WHERE id IN (
             SELECT id FROM webhook_outbox
             WHERE failed_at IS NULL AND next_attempt_at <= $2 AND lease_until <= $2
             ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING id, owner, body, attempts, created_at`,
          [leaseUntil, now, limit],
        )
        return rows.map(([id, owner, body, attempts, createdAt]) => ({
          id,
          owner,
          body,
          attempts,
          createdAt: Number(createdAt),
        }))
      },
      attemptFailed: async (id, attempts, retryAt, reason) => {
        if (retryAt === undefined)
          await query(
            'outbox-give-up',
            'UPDATE webhook_outbox SET attempts = $2, failed_at = $3, lease_until = 0, last_error = $4 WHERE id = $1',
            [id, attempts, Date.now(), reason],
          )
        else
          await query(
            'outbox-retry',
            'UPDATE webhook_outbox SET attempts = $2, next_attempt_at = $3, lease_until = 0, last_error = $4 WHERE id = $1',
            [id, attempts, retryAt, reason],
          )
      },
      stats: async () => {
        const { rows } = await query<[bigint, bigint, bigint | null]>(
          'outbox-stats',
          `SELECT count(*) FILTER (WHERE failed_at IS NULL), count(*) FILTER (WHERE failed_at IS NOT NULL),
                  min(created_at) FILTER (WHERE failed_at IS NULL) FROM webhook_outbox`,
          [],
        )
        return statsOf(rows[0])
      },
      purgeFailed: async (before) =>
        (await query('outbox-purge', 'DELETE FROM webhook_outbox WHERE failed_at < $1', [before])).rowCount ??
        0,
      onEvent: (listener) => {
        listeners.push(listener)
      },
    },
  }
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // Held to the end of the transaction: a second instance waits here, then finds the work done.
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)')
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version')
    const version = rows[0]?.version ?? 0
    if (rows.length === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)')
    checkSchemaVersion(version, 'PostgreSQL')
    for (const step of migrations.slice(version)) await client.query(step.postgres)
    await client.query('UPDATE schema_version SET version = $1', [migrations.length])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

// SQLSTATE classes that say the database could not do the work now, not that the request was wrong:
// 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown, a
// statement timeout). An error without an SQLSTATE comes from the connection itself (refused, reset,
// a timeout of the pool or of the client).
function unavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true
  return /^(08|53|57)/.test(code)
}

// The int64 id goes as decimal text, exact; a string as its UTF-8 bytes (bytea: see migrations.ts).
const toColumn = (value: string | number | bigint | undefined, field: PlantField) =>
  field.int64 ? String(value) : typeof value === 'string' ? Buffer.from(value, 'utf8') : value
const fromColumn = (value: unknown, field: PlantField) =>
  Buffer.isBuffer(value)
    ? value.toString('utf8')
    : typeof value === 'bigint' && !field.int64
      ? Number(value)
      : value
const toPlant = (row: Row): StoredPlant => plantOfRow(row, fromColumn)
