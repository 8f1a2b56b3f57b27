// What a document does to a contract: the compatibility gate's judge, run once per pair of contents and
// kept in memory and in the store (the judgments table), so that a broker just started, or another
// instance, need not judge it again. Contents never change, so nothing kept here is ever stale.
import { type ConsumerContract, type Document, parseContract } from '@plant-store/core'
import { type ConsumerFinding, judgeConsumer } from '@plant-store/core/compat'
import { documentOf, storedContent } from './content.js'
import type { Db } from './db.js'

const CACHE_SIZE = 4096

/** A map that forgets its oldest entry past a size: contents are immutable, so a hit is always right. */
class Bounded<V> extends Map<string, V> {
  async remember(key: string, make: () => Promise<V>): Promise<V> {
    const found = this.get(key)
    if (found !== undefined) return found
    return this.keep(key, await make())
  }

  keep(key: string, value: V): V {
    if (this.size >= CACHE_SIZE) this.delete(this.keys().next().value as string)
    this.set(key, value)
    return value
  }
}

const marks = (values: unknown[]) => values.map(() => '?').join(', ')

/** Lists of at most 500, so that no statement passes a database's limit on parameters. */
const chunks = <T>(values: T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / 500) }, (_, i) => values.slice(i * 500, (i + 1) * 500))

export class Judgments {
  private readonly contracts = new Bounded<ConsumerContract>()
  private readonly documents = new Bounded<Document>()
  private readonly judged = new Bounded<ConsumerFinding[]>()
  private unsaved: [string, string, string][] = []

  constructor(private readonly db: Db) {}

  async contract(hash: string): Promise<ConsumerContract> {
    return this.contracts.remember(hash, async () => parseContract((await storedContent(this.db, hash)).body))
  }

  async document(hash: string): Promise<Document> {
    return this.documents.remember(hash, async () => documentOf((await storedContent(this.db, hash)).body))
  }

  /** The findings of a contract against a document: kept, else judged now and written by the next flush(). */
  async findings(contract: string, document: string): Promise<ConsumerFinding[]> {
    return (await this.findingsOf([{ contract, document }]))[0] ?? []
  }

  /**
   * The findings of many pairs at once, in their order: what is kept is read in one query per document,
   * the contracts not in memory in one query, and the rest judged; written by the next flush().
   */
  async findingsOf(pairs: { contract: string; document: string }[]): Promise<ConsumerFinding[][]> {
    const found = new Map<string, ConsumerFinding[]>()
    const wanted = new Map<string, Set<string>>()
    for (const { contract, document } of pairs) {
      const key = `${contract}:${document}`
      const known = this.judged.get(key)
      if (known) found.set(key, known)
      else (wanted.get(document) ?? wanted.set(document, new Set()).get(document))?.add(contract)
    }
    for (const [document, contracts] of wanted) {
      for (const chunk of chunks([...contracts]))
        for (const kept of await this.db.all<{ contract_hash: string; findings: string }>(
          `SELECT contract_hash, findings FROM judgments WHERE document_hash = ? AND contract_hash IN (${marks(chunk)})`,
          [document, ...chunk],
        )) {
          found.set(`${kept.contract_hash}:${document}`, JSON.parse(kept.findings) as ConsumerFinding[])
          contracts.delete(kept.contract_hash)
        }
      if (!contracts.size) continue
      const unread = [...contracts].filter((hash) => !this.contracts.has(hash))
      for (const chunk of chunks(unread))
        for (const row of await this.db.all<{ hash: string; body: string }>(
          `SELECT hash, body FROM contents WHERE hash IN (${marks(chunk)})`,
          chunk,
        ))
          this.contracts.keep(row.hash, parseContract(row.body))
      const head = await this.document(document)
      for (const contract of contracts) {
        const findings = judgeConsumer(await this.contract(contract), head)
        this.unsaved.push([contract, document, JSON.stringify(findings)])
        found.set(`${contract}:${document}`, findings)
      }
    }
    for (const [key, findings] of found) if (!this.judged.has(key)) this.judged.keep(key, findings)
    return pairs.map(({ contract, document }) => found.get(`${contract}:${document}`) ?? [])
  }

  /** Writes the judgments made since the last flush, in one transaction. */
  async flush(): Promise<void> {
    const rows = this.unsaved
    this.unsaved = []
    if (!rows.length) return
    await this.db.transaction(async (sql) => {
      for (const row of rows)
        await sql.run(
          'INSERT INTO judgments (contract_hash, document_hash, findings) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          row,
        )
    })
  }

  /** Drops the judgments not yet written: they are made again when asked. */
  discard(): void {
    this.unsaved = []
  }
}
