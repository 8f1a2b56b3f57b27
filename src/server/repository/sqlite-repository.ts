// SQLite storage through better-sqlite3. Writes arriving in one event-loop turn share one transaction
// (group commit), and each is answered only after that transaction is durably committed.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  INT64_MIN,
  type ListQuery,
  type PlantField,
  type PlantRepository,
  plantFields,
  type StoredPlant,
} from '@plant-store/core'
import Database from 'better-sqlite3'
import { newPlantEvent } from '../webhooks/event.js'
import { StoreFullError, StoreUnavailableError } from './errors.js'
import { checkSchemaVersion, migrations } from './migrations.js'
import { type Outbox, type OutboxEvent, type OutboxOptions, PendingBound, statsOf } from './outbox.js'
import {
  columnValues,
  placeholders,
  plantColumns,
  plantOfRow,
  replacedFields,
  setList,
} from './plant-columns.js'

/** A row as an array (better-sqlite3's raw mode): the plant's columns, in plantColumns' order. */
type Row = unknown[]
/** A page's owner, the cursor's id (undefined, bound as NULL, for the first page) and limit; by tag, the tag too. */
type PageParameters = [string, bigint | undefined, number]
type TagPageParameters = [string, string, bigint | undefined, number]

interface PendingWrite {
  run: () => boolean
  resolve: (done: boolean) => void
  reject: (error: unknown) => void
}

export interface SqliteOptions {
  /** The most pages (of 4096 bytes) the file may hold: past it a write fails as on a full disk. */
  maxPageCount?: number
  /**
   * Reads only: every write fails as on a read-only file system. The file must be migrated already:
   * a migration it needs fails to open it, as the step cannot be written.
   */
  readOnly?: boolean
  /** Store a newPlant event with each create of an owner it wants. */
  outbox?: OutboxOptions
}

type OutboxRow = [id: string, owner: string, body: string, attempts: bigint, createdAt: bigint]

export function openSqliteRepository(
  file: string,
  options: SqliteOptions = {},
): PlantRepository & { outbox: Outbox } {
  // Stryker disable next-line all: unreachable: a file's directory, and the runner's store is in memory; src/server/test/repository.test.ts opens files.
  if (file !== ':memory:' && !options.readOnly) mkdirSync(dirname(file), { recursive: true })
  // Stryker disable next-line ObjectLiteral: equivalent: the options ask for a file writable and created when missing, which SQLite in memory is anyway.
  const db = new Database(file, {
    // better-sqlite3 takes a boolean here and refuses anything else (undefined included).
    readonly: Boolean(options.readOnly),
    // Stryker disable next-line all: unreachable: a read-only file must exist, and the runner's store is in memory and writable; src/server/test/reliability.test.ts opens a read-only file.
    fileMustExist: options.readOnly === true,
  })
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent: SQLite in memory keeps its journal in memory whatever journal_mode asks.
  if (!options.readOnly) db.pragma('journal_mode = WAL')
  // FULL: a commit is on disk before its requests are answered; group commit pays for the fsync.
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.defaultSafeIntegers(true)
  try {
    // Stryker disable BlockStatement: unreachable: only a refused or failed opening reaches the catch, which the runner's new database in memory never has; src/server/test/repository.test.ts refuses a newer schema and a read-only file not migrated.
    migrate(db)
  } catch (error) {
    // Stryker disable all: unreachable: only a failed migration reaches it, which the runner's new database in memory never has; src/server/test/repository.test.ts refuses a newer schema, and a read-only file that needs a schema step.
    db.close()
    // SQLite's own words ("attempt to write a readonly database") do not say what to do about it.
    if ((error as { code?: string }).code === 'SQLITE_READONLY')
      throw new Error(
        `${file} needs a schema step, which a read-only file cannot take: open it writable once to migrate`,
        { cause: error },
      )
    throw error
  }
  // Stryker restore all
  // Stryker disable next-line all: unreachable: a size cap the runner's store does not set; src/server/test/reliability.test.ts fills a capped store.
  if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${options.maxPageCount}`)

  const insert = db.prepare(
    `INSERT INTO plants (owner, ${plantColumns}) VALUES (?, ${placeholders(plantFields, () => '?')})
     ON CONFLICT (owner, id) DO NOTHING`,
  )
  const update = db.prepare(`UPDATE plants SET ${setList(() => '?')} WHERE owner = ? AND id = ?`)
  const remove = db.prepare('DELETE FROM plants WHERE owner = ? AND id = ?')
  // Raw mode: rows as arrays, which better-sqlite3 builds at about two thirds of the cost of objects
  // (a page of 51 rows: 63 against 96 µs CPU with serialization, measured in isolation).
  const select = db
    .prepare<[string, bigint], Row>(`SELECT ${plantColumns} FROM plants WHERE owner = ? AND id = ?`)
    .raw(true)
  // Stryker disable next-line BooleanLiteral: unreachable: the server lists through listJson; list serves the sandbox mode and stores without listJson (src/server/test/repository.test.ts).
  const page = db.prepare<PageParameters, Row>(pageSql(plantColumns, false)).raw(true)
  // Stryker disable next-line BooleanLiteral: unreachable: the server lists through listJson; list serves the sandbox mode and stores without listJson (src/server/test/repository.test.ts).
  const pageByTag = db.prepare<TagPageParameters, Row>(pageSql(plantColumns, true)).raw(true)
  // A page's plants as the JSON an answer sends, one string a plant, as each row keeps it (the answer
  // column, migrations.ts): no row arrays, no plant objects.
  const pageJson = db.prepare<PageParameters, string>(pageSql('answer', false)).pluck(true)
  const pageJsonByTag = db.prepare<TagPageParameters, string>(pageSql('answer', true)).pluck(true)

  const outbox = options.outbox
  // Stryker disable next-line ConditionalExpression: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
  const bound = outbox && new PendingBound(outbox.maxPending)
  const addEvent = db.prepare(
    'INSERT INTO webhook_outbox (id, owner, body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)',
  )
  // Stryker disable BooleanLiteral: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
  const countPending = db
    .prepare<[], [bigint]>('SELECT count(*) FROM webhook_outbox WHERE failed_at IS NULL')
    .raw(true)
  // The worker's bookkeeping (leases, settling, retries) goes through a connection of its own that
  // commits without waiting for the disk: lost in a power cut, a lease only runs out early and a
  // settled event is sent again, which at-least-once delivery allows. A sync to disk per delivered
  // event would block the event loop, and every request with it. In memory there is one database to
  // a connection, so the relay is the same one.
  // Stryker restore BooleanLiteral
  const relay = db.memory ? db : openRelay(file, db.readonly)
  // The limit as a cast, as in pageSql: a bare one would be compiled again at every claim.
  // Stryker disable BooleanLiteral: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
  const claim = relay
    .prepare<[number, number, number, number], OutboxRow>(
      `UPDATE webhook_outbox SET lease_until = ? WHERE id IN (
         SELECT id FROM webhook_outbox
         WHERE failed_at IS NULL AND next_attempt_at <= ? AND lease_until <= ?
         ORDER BY next_attempt_at LIMIT CAST(? AS INTEGER))
       RETURNING id, owner, body, attempts, created_at`,
    )
    .raw(true)
  // Stryker restore BooleanLiteral
  const settle = relay.prepare<[string]>(
    'DELETE FROM webhook_outbox WHERE id IN (SELECT value FROM json_each(?))',
  )
  const retry = relay.prepare(
    'UPDATE webhook_outbox SET attempts = ?, next_attempt_at = ?, lease_until = 0, last_error = ? WHERE id = ?',
  )
  const giveUp = relay.prepare(
    'UPDATE webhook_outbox SET attempts = ?, failed_at = ?, lease_until = 0, last_error = ? WHERE id = ?',
  )
  const purge = relay.prepare<[number]>('DELETE FROM webhook_outbox WHERE failed_at < ?')
  // Stryker disable BooleanLiteral: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
  const stats = relay
    .prepare<[], [bigint, bigint, bigint | null]>(
      `SELECT count(*) FILTER (WHERE failed_at IS NULL), count(*) FILTER (WHERE failed_at IS NOT NULL),
              min(created_at) FILTER (WHERE failed_at IS NULL) FROM webhook_outbox`,
    )
    .raw(true)
  // Stryker disable all: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
  /** One commit for both: each commit is a write to the log. */
  const settleAndClaim = relay.transaction(
    (delivered: readonly string[], leaseUntil: number, now: number, limit: number): OutboxRow[] => {
      if (delivered.length > 0) settle.run(JSON.stringify(delivered))
      return limit > 0 ? claim.all(leaseUntil, now, now, limit) : []
    },
  )
  const listeners: (() => void)[] = []
  /**
   * Inside the create's transaction: the event commits with the plant, or neither does. Chosen once:
   * without a webhook no event is stored, and a create asks nothing more.
   */
  const storeEvent = bound
    ? (owner: string, plant: StoredPlant) => {
        if (!outbox?.wants(owner)) return false
        if (bound.needsCount()) bound.counted(Number(countPending.get()?.[0] ?? 0))
        const event = newPlantEvent(owner, plant)
        const now = Date.now()
        addEvent.run(event.id, owner, event.body, now, now)
        bound.added()
        return true
      }
    : noEvent
  const toEvent = ([id, owner, body, attempts, createdAt]: OutboxRow): OutboxEvent => ({
    id,
    owner,
    body,
    attempts: Number(attempts),
    createdAt: Number(createdAt),
  })
  // Stryker restore all

  const snapshot = new ReadSnapshot(db)

  /** A page of `query`'s plants, through the statement for all plants or the one for a tag. */
  const readPage = <T>(
    owner: string,
    { limit, after, tag }: ListQuery,
    all: Database.Statement<PageParameters, T>,
    byTag: Database.Statement<TagPageParameters, T>,
  ): T[] =>
    snapshot.read(() =>
      tag === undefined ? all.all(owner, after, limit) : byTag.all(owner, tag, after, limit),
    )

  /** The turn's writes, from the first one's arrival until the flush it schedules. */
  let pending: PendingWrite[] | undefined
  const commit = db.transaction((batch: PendingWrite[]) => batch.map((write) => write.run()))
  const flush = () => {
    // Stryker disable next-line CallExpression: equivalent: in memory one connection sees every commit at once, so a write committed inside the turn's read transaction shows in no answer.
    snapshot.endForWrites()
    // None pending only when close flushed them first; the empty transaction then commits nothing.
    // Stryker disable next-line ArrayDeclaration: unreachable: none are pending only in the flush a write scheduled before close() flushed it, after the server's last answer.
    const batch = pending ?? []
    pending = undefined
    let results: boolean[]
    try {
      // Stryker disable BlockStatement: unreachable: only SQLite failing to commit (a full disk, a read-only file) reaches the catch; src/server/test/reliability.test.ts and src/server/test/full-disk.test.ts.
      results = commit(batch)
    } catch (error) {
      // Stryker disable all: unreachable: only SQLite failing to commit (a full disk, a read-only file) reaches it; src/server/test/reliability.test.ts.
      // The transaction rolled back as a whole: nothing of the batch is stored. Alone, a write fails
      // only for itself (on a nearly full disk a delete still frees room while a create does not).
      if (batch.length === 1) batch[0]?.reject(storeError(error))
      else for (const write of batch) commitAlone(write)
      return
    }
    // Stryker restore all
    batch.forEach((write, i) => {
      write.resolve(results[i] === true)
    })
  }
  // Stryker disable all: unreachable: only SQLite failing to commit (a full disk, a read-only file) reaches it; src/server/test/reliability.test.ts.
  const commitAlone = (write: PendingWrite) => {
    try {
      write.resolve(commit([write])[0] === true)
    } catch (error) {
      write.reject(storeError(error))
    }
  }
  // Stryker restore all
  /** A new batch, committed in this turn's check phase. */
  const newBatch = (): PendingWrite[] => {
    setImmediate(flush)
    return []
  }
  const write = (run: () => boolean) =>
    new Promise<boolean>((resolve, reject) => {
      pending ??= newBatch()
      pending.push({ run, resolve, reject })
    })

  return {
    create: async (owner, plant) => {
      // Stryker disable next-line BooleanLiteral: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
      let announced = false
      const created = await write(() => {
        if (insert.run(owner, ...columnValues(plant, plantFields, toColumn)).changes !== 1) return false
        announced = storeEvent(owner, plant)
        return true
      })
      // Stryker disable next-line ConditionalExpression,LogicalOperator,CallExpression: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
      if (created && announced) for (const listener of listeners) listener()
      return created
    },
    replace: (owner, plant) =>
      write(
        () =>
          update.run(...columnValues(plant, replacedFields, toColumn), owner, BigInt(plant.id)).changes === 1,
      ),
    delete: (owner, id) => write(() => remove.run(owner, id).changes === 1),
    get: async (owner, id) => {
      const row = snapshot.read(() => select.get(owner, id))
      return row && toPlant(row)
    },
    // Stryker disable next-line BlockStatement: unreachable: the store in memory always answers, so only a failing store shows a ping that asks nothing; src/server/test/probes.test.ts.
    ping: async () => {
      // Stryker disable next-line StringLiteral,CallExpression: unreachable: the store in memory answers whichever owner the ping asks for, so only a failing store tells a ping that asks nothing apart; src/server/test/probes.test.ts.
      select.get('', 0n)
    },
    // Stryker disable next-line ArrowFunction: unreachable: the server lists through listJson; list serves the sandbox mode and stores without listJson (src/server/test/repository.test.ts).
    list: async (owner, query: ListQuery) => readPage(owner, query, page, pageByTag).map(toPlant),
    // One plant past the page tells whether plants follow; each plant's JSON is SQLite's, kept with its row.
    listJson: async (owner, { limit, ...from }: ListQuery) => {
      const plants = readPage(owner, { limit: limit + 1, ...from }, pageJson, pageJsonByTag)
      const more = plants.length > limit
      if (more) plants.length = limit
      const last = plants.at(-1)
      // The cursor's id, in every digit, from the page's last plant: "id": is that key, as a quote
      // inside a JSON string is always escaped.
      const lastId = last === undefined ? undefined : BigInt(idOfJson(last))
      return { json: `[${plants.join(',')}]`, lastId, more }
    },
    // Stryker disable all: unreachable: runs when the server shuts down, after its last answer; src/server/test/reliability.test.ts (closing).
    close: async () => {
      // The open snapshot, if any, ends first thing in the flush.
      flush()
      if (relay !== db) relay.close()
      db.close()
    },
    // Stryker restore all
    // Stryker disable all: unreachable: the newPlant webhook's outbox, and the runner's store has no webhook (no receiver to judge it by); src/server/test/webhooks.test.ts covers it.
    outbox: {
      claim: async (now, leaseUntil, limit, delivered = []) =>
        read(() => settleAndClaim(delivered, leaseUntil, now, limit)).map(toEvent),
      attemptFailed: async (id, attempts, retryAt, reason) => {
        read(() =>
          retryAt === undefined
            ? giveUp.run(attempts, Date.now(), reason, id)
            : retry.run(attempts, retryAt, reason, id),
        )
      },
      stats: async () => statsOf(read(() => stats.get())),
      purgeFailed: async (before) => Number(read(() => purge.run(before)).changes),
      onEvent: (listener) => {
        listeners.push(listener)
      },
    },
  }
}

// Stryker restore all
/**
 * Where a page starts: past the cursor's id, or at the first int64 with no cursor (bound as NULL).
 * Past the last int64 there is no id: SQLite computes the overflowing `+ 1` as a REAL above every
 * integer, and the page is empty. The planner still searches the primary key from there on.
 */
const pageStart = `coalesce(? + 1, ${INT64_MIN})`

/**
 * A page's statement: `columns` of an owner's plants (of one tag, `byTag`) from an id on, in id order.
 * The owner, the tag and the limit are bound as casts, not bare parameters: SQLite's planner takes a
 * bare parameter in such an equality or LIMIT for one whose value may change the plan, and compiles
 * the statement again at every new binding, which under page load was 8.5% of the server's CPU (perf).
 *
 * A tag's page names plants_by_tag: left to itself, SQLite walks the owner's plants by the primary key
 * and tests each one's tag, so a page of a tag that few or none of a million plants have read them all
 * (130 ms, against 17 µs by the index). The plans are in repository.test.ts.
 */
export function pageSql(columns: string, byTag: boolean): string {
  const from = byTag ? 'plants INDEXED BY plants_by_tag' : 'plants'
  const tag = byTag ? ' AND tag = CAST(? AS TEXT)' : ''
  return `SELECT ${columns} FROM ${from} WHERE owner = CAST(? AS TEXT)${tag} AND id >= ${pageStart} ORDER BY id LIMIT CAST(? AS INTEGER)`
}

// Stryker disable all: unreachable: only SQLite failing (a full disk, a read-only file, an I/O error) reaches it; src/server/test/reliability.test.ts.
/**
 * SQLite's result codes for a store that cannot take the write, as the typed errors of ./errors.ts;
 * anything else (a bug, a constraint) is passed on as it is.
 */
function storeError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return error
  if (code === 'SQLITE_FULL') return new StoreFullError('the database or its disk is full', { cause: error })
  if (/^SQLITE_(READONLY|IOERR|CANTOPEN|BUSY|LOCKED)/.test(code))
    return new StoreUnavailableError(`the database cannot take writes (${code})`, { cause: error })
  return error
}
// Stryker restore all

/**
 * The plant reads of one turn of the event loop share one read transaction. On a WAL file a read that
 * is a transaction of its own takes and drops its read lock with two system calls, most of what a
 * point read costs; under load a turn answers many requests, and they then pay that once.
 *
 * A snapshot opens at the turn's first read and ends in the same turn's check phase (setImmediate),
 * before that turn's writes commit (flush ends it first). Requests are read from their sockets in the
 * poll phase, and every request read there had arrived before the phase began: so none is answered
 * from a snapshot older than its arrival, and a write another instance acknowledged before a request
 * was sent is seen by it. A read in the check phase itself (a handler going on after its write
 * committed) would open a snapshot that outlived the next poll phase: from a commit until the next
 * turn's timers, reads go alone.
 */
class ReadSnapshot {
  private readonly begin: Database.Statement
  private readonly commit: Database.Statement
  /** Commits the open snapshot; undefined while none is open, so a snapshot ends once. */
  private ending: (() => void) | undefined
  // Stryker disable BooleanLiteral,BlockStatement: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
  private paused = false
  private readonly resume = () => {
    this.paused = false
  }
  // Stryker restore BooleanLiteral,BlockStatement

  constructor(db: Database.Database) {
    this.begin = db.prepare('BEGIN')
    this.commit = db.prepare('COMMIT')
  }

  read<T>(query: () => T): T {
    // Stryker disable next-line ConditionalExpression,BooleanLiteral,AssignmentOperator: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
    if (!this.paused) this.ending ??= this.open()
    return read(query)
  }

  // Stryker disable BlockStatement,ArrowFunction: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
  /** Begins a snapshot that ends in this turn's check phase, and gives what ends it. */
  private open(): () => void {
    this.begin.run()
    // Stryker disable next-line CallExpression: equivalent: the runner's store in memory has one connection, which sees every commit at once, so a snapshot that never ends changes no answer.
    setImmediate(() => this.end())
    return () => {
      this.ending = undefined
      // Stryker disable next-line CallExpression: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
      this.commit.run()
    }
  }

  // Stryker restore BlockStatement,ArrowFunction
  // Stryker disable next-line BlockStatement: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
  /** Ends the open snapshot, if any. */
  end(): void {
    this.ending?.()
  }

  // Stryker disable all: equivalent: the runner's store in memory has one connection, which sees every commit at once, so whether and when reads share a transaction changes no answer.
  /** Ends the open snapshot before writes commit; reads go alone until the next turn's timers. */
  endForWrites(): void {
    this.end()
    if (this.paused) return
    this.paused = true
    setTimeout(this.resume, 0).unref()
  }
}

// Stryker restore all
// Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent: without a webhook no listener waits for an event (the worker that adds them runs only with one), so what a create is told changes nothing.
const noEvent = (_owner: string, _plant: StoredPlant) => false

function idOfJson(plant: string): string {
  // Every plant's JSON holds its id (the column is NOT NULL), so the pattern always matches.
  return (/"id":(-?\d+)/.exec(plant) as RegExpExecArray)[1] as string
}

// Stryker disable all: unreachable: the relay is for a file, and the runner's store is in memory; src/server/test/webhooks.test.ts.
/** A file's relay connection; on a read-only file, read-only too, so the worker's writes fail as the store's do. */
function openRelay(file: string, readonly: boolean): Database.Database {
  const relay = new Database(file, { readonly })
  relay.pragma('synchronous = NORMAL')
  relay.pragma('busy_timeout = 5000')
  relay.defaultSafeIntegers(true)
  return relay
}
// Stryker restore all

function read<T>(query: () => T): T {
  try {
    // Stryker disable BlockStatement: unreachable: only SQLite failing a read (an I/O error, a file another process locks) reaches the catch, which no request can cause; no unit test makes a read fail.
    return query()
  } catch (error) {
    throw storeError(error)
  }
}

// Stryker restore BlockStatement
function migrate(db: Database.Database): void {
  // Stryker disable ObjectLiteral,BooleanLiteral,MethodExpression,ArithmeticOperator: unreachable: the runner's store is a new database in memory, at schema version 0 and opened once; src/server/test/repository.test.ts migrates a file from an earlier release.
  const version = Number(db.pragma('user_version', { simple: true }))
  // Stryker disable next-line StringLiteral,CallExpression: unreachable: the runner's store is a new database in memory, at schema version 0 and opened once; src/server/test/repository.test.ts migrates a file from an earlier release.
  checkSchemaVersion(version, 'SQLite')
  db.transaction(() => {
    migrations.slice(version).forEach((step, i) => {
      db.exec(step.sqlite)
      db.pragma(`user_version = ${version + i + 1}`)
    })
  })()
}

// Stryker restore ObjectLiteral,BooleanLiteral,MethodExpression,ArithmeticOperator
// The int64 id is always there (required), so only an absent optional field is undefined, bound as NULL.
const toColumn = (value: string | number | bigint | undefined, field: PlantField) =>
  field.int64 ? BigInt(value as bigint) : value
// Safe integers: SQLite hands back every integer as a bigint, which only the int64 id stays; any
// other field's is read as a number, by the type of what the column holds.
// Stryker disable next-line ObjectLiteral: equivalent: the document's plant has no integer but its int64 id, so no column is read as a number.
const readAs: { readonly [type: string]: (value: unknown) => unknown } = { bigint: Number }
const asItIs = (value: unknown) => value
const fromColumn = (value: unknown, field: PlantField) =>
  field.int64 ? value : (readAs[typeof value] ?? asItIs)(value)
const toPlant = (row: Row): StoredPlant => plantOfRow(row, fromColumn)
