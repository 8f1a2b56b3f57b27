// The principals a stateful run gives each sequence, and empties through the API once it ends.
import { nextAddress } from '@plant-store/core'
import { parseExact } from '../../exact-json.js'
import type { Endpoint } from '../../http.js'
import { resolveLink } from '../../judge/links.js'
import type { Api } from './api.js'
import type { RequestCounts } from './request-counts.js'
import { Session } from './session.js'
import type { PrincipalModel } from './store-model.js'

/** Where a run takes the tokens of a sequence's principals, and gives them back once it ends. */
export interface PrincipalPool {
  take(): string
  /** After the sequence: `known` is the principal's model when it passed, undefined when it failed. */
  give(token: string, known: PrincipalModel | undefined): Promise<void>
  /** Principals that could not be brought back (each with what was tried), for the report. */
  readonly leftovers: string[]
}

/**
 * Fresh principals for each sequence, emptied through the API once it ends, so that no sequence sees
 * what an earlier one left: a failure then shrinks to a sequence that fails on a fresh target too, and
 * its replay reproduces it. The sandbox makes a principal of any new token; the real server knows only
 * the tokens it was started with (the kit's suite starts it with a few), so once `freshBudget` of them are used,
 * emptied principals are used again.
 */
export class Principals implements PrincipalPool {
  private fresh = 0
  private readonly idle: string[] = []
  /** Principals that could not be emptied (after a failed sequence, on a target that misbehaves). */
  readonly leftovers: string[] = []
  constructor(
    readonly target: Endpoint,
    readonly api: Api,
    readonly counts: RequestCounts,
    readonly freshBudget: number,
  ) {}

  take(): string {
    if (this.target.seeded || this.fresh < this.freshBudget) {
      this.fresh++
      return this.target.newToken()
    }
    const token = this.idle.shift()
    if (token === undefined) throw new Error(`${this.target.name}: no emptied principal left to use again`)
    return token
  }

  /**
   * Empties a principal: deletes the plants of `known` (the model's, after a sequence that passed),
   * or else every plant its list shows. Never throws: a principal it cannot empty is not used again.
   */
  async give(token: string, known: PrincipalModel | undefined): Promise<void> {
    const session = new Session(this.target, [token], this.counts, () => false)
    try {
      if (known)
        await this.remove(
          session,
          [...known.plants.values()].map((p) => p[this.api.keyField]),
        )
      else await this.empty(session)
      if (!this.target.seeded) this.idle.push(token)
    } catch (error) {
      this.leftovers.push(`${(error as Error).message}
${session.log.join('\n')}`)
    }
  }

  private deleteOperation() {
    const remove = this.api.linked.find((l) => l.entry.method === 'delete')
    if (!remove) throw new Error('a principal cannot be emptied without a linked DELETE')
    return remove
  }

  private async remove(session: Session, keys: unknown[]): Promise<void> {
    const remove = this.deleteOperation()
    for (const key of keys) {
      const path = remove.entry.path.replace(/\{[^}]+\}/, encodeURIComponent(String(key)))
      const answer = await session.send(
        0,
        remove.entry,
        { method: 'DELETE', path, auth: { kind: 'principal' } },
        'cleanup',
      )
      if (answer.status !== remove.success)
        throw new Error(`cleanup: DELETE ${path} answered ${answer.status}`)
    }
  }

  private async empty(session: Session): Promise<void> {
    const { list } = this.api
    if (!list) throw new Error('a principal cannot be emptied without a list operation')
    for (let round = 0; round < 3; round++) {
      const size = list.pageSize
      const plants: unknown[] = []
      let address: string | undefined = `${list.entry.path}${size ? `?${size.name}=${size.max}` : ''}`
      for (let page = 0; address !== undefined && page < 100; page++) {
        const answer = await session.send(
          0,
          list.entry,
          { method: 'GET', path: address, auth: { kind: 'principal' } },
          'cleanup',
        )
        if (answer.status !== list.success)
          throw new Error(`cleanup: GET ${address} answered ${answer.status}`)
        plants.push(...(parseExact(answer.text) as unknown[]))
        const next = nextAddress(answer.headers.link)
        // Resolved against the address the page came from, as a client does (RFC 3986 §5).
        address = next === undefined ? undefined : resolveLink(next, answer.url ?? address)
      }
      if (plants.length === 0) return
      await this.remove(
        session,
        plants.map((plant) => (plant as Record<string, unknown>)[this.api.keyField]),
      )
    }
    throw new Error('cleanup: the principal still has plants after 3 rounds')
  }
}
