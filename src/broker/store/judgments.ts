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
    const made = await make()
    if (this.size >= CACHE_SIZE) this.delete(this.keys().next().value as string)
    this.set(key, made)
    return made
  }
}

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
  async findings(contractHash: string, documentHash: string): Promise<ConsumerFinding[]> {
    return this.judged.remember(`${contractHash}:${documentHash}`, async () => {
      const [kept] = await this.db.all<{ findings: string }>(
        'SELECT findings FROM judgments WHERE contract_hash = ? AND document_hash = ?',
        [contractHash, documentHash],
      )
      if (kept) return JSON.parse(kept.findings) as ConsumerFinding[]
      const findings = judgeConsumer(await this.contract(contractHash), await this.document(documentHash))
      this.unsaved.push([contractHash, documentHash, JSON.stringify(findings)])
      return findings
    })
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
