// The principal a stateful target's generated probes run as, kept in the oracle's state: what a probe
// changed is undone, and a request that sets up or undoes state and gets another answer stops the layer.
import { plantJson } from '@plant-store/core'
import { UNKNOWN_TOKEN } from '../document-prose.js'
import { type Answer, type Endpoint, type RequestSpec, send } from '../http.js'
import { type Probe, requestOf } from '../requests/generated.js'
import { roleOf } from './accepted-statuses.js'
import type { Plant } from './plant.js'
import type { State } from './state.js'

/**
 * A request sent to set up or undo state (not a probe) that got another answer than the document's:
 * the answer is judged like any other, and the layer that sent it says it could not go on.
 */
export class Housekeeping extends Error {
  override name = 'Housekeeping'
  constructor(
    readonly targetName: string,
    readonly request: RequestSpec,
    readonly answer: Answer,
    readonly expected: number,
  ) {
    super(
      `housekeeping on the ${targetName}: ${request.method} ${request.path} answered ${answer.status} ${answer.text}, the document says ${expected}`,
    )
  }
}

/**
 * The ids a probe names: its path's (or a create body's), and a body's `id` beside a path's, which a
 * wrong store may have followed.
 */
export function namedIds(probe: Probe): bigint[] {
  const body = (probe.bodyValue as { id?: unknown } | undefined)?.id
  return [probe.id, body].filter((id): id is bigint => typeof id === 'bigint')
}

/**
 * The principal a target's probes run as, its plants kept equal to `state`: after a probe, what it
 * changed is undone; after an answer the oracle did not expect, a fresh principal takes over. A
 * server under test has no fresh principals: its one principal is brought back to the state instead,
 * touching only the plants the run created (`existing` are the plants it had before, left alone).
 */
export class Principal {
  token = ''
  /** Requests sent to set up, undo and read back, beside the probes themselves. */
  housekeeping = 0

  constructor(
    readonly target: Endpoint,
    private readonly state: State,
    private readonly existing?: ReadonlySet<bigint>,
  ) {}

  /** The state's plants that this run creates (all of them, but for a server under test's own). */
  private ours(): Plant[] {
    return [...this.state.values()].filter((p) => !this.existing?.has(p.id))
  }

  /** A fresh principal with exactly the state's plants; `touched`, the ids the probe judged wrong named. */
  async reset(...touched: bigint[]): Promise<void> {
    this.token = this.target.newToken()
    if (!this.target.stateUrl) return
    if (this.existing) {
      const ids = new Set(this.ours().map((p) => p.id))
      for (const id of touched) if (!this.existing.has(id)) ids.add(id)
      for (const id of ids) await this.request('DELETE', `/plants/${id}`)
      for (const plant of this.ours()) await this.expect('POST', '/plants', 200, plant)
      return
    }
    // The sandbox seeds a new principal itself; the server's starts empty.
    if (!this.target.seeded)
      for (const plant of this.state.values()) await this.expect('POST', '/plants', 200, plant)
  }

  /** Deletes what the run created, at its end (a server under test's own plants stay). */
  async clear(): Promise<void> {
    for (const plant of this.ours()) await this.request('DELETE', `/plants/${plant.id}`)
  }

  authorization(probe: Probe): string | undefined {
    const auth = probe.auth
    if (auth.kind === 'principal') return `Bearer ${this.token}`
    if (auth.kind === 'unknown') return `Bearer ${UNKNOWN_TOKEN}`
    if (auth.kind === 'header') return auth.value
    return undefined
  }

  /** Sends the probe and reads back what a 200 create stored. */
  async send(probe: Probe): Promise<{ answer: Answer; readBack?: Answer }> {
    const answer = await (this.target.send ?? send)(
      this.target.url,
      requestOf(probe),
      this.authorization(probe),
    )
    let readBack: Answer | undefined
    if (
      this.target.stateUrl &&
      roleOf(probe.entry) === 'create' &&
      answer.status === 200 &&
      probe.id !== undefined
    ) {
      readBack = await this.request('GET', `/plants/${probe.id}`)
    }
    return { answer, readBack }
  }

  /** Puts the principal's plants back as the state has them, after a probe the oracle judged. */
  async undo(probe: Probe, status: number, judgedRight: boolean): Promise<void> {
    if (!this.target.stateUrl) return
    if (!judgedRight) return this.reset(...namedIds(probe))
    const id = probe.id
    if (id === undefined || status >= 300) return
    const before = this.state.get(id)
    if (roleOf(probe.entry) === 'create') await this.expect('DELETE', `/plants/${id}`, 204)
    else if (probe.method === 'PUT' && before)
      // A replace's body is the plant without its id, which the path names.
      await this.expect('PUT', `/plants/${id}`, 200, { ...before, id: undefined })
    else if (probe.method === 'DELETE' && before) await this.expect('POST', '/plants', 200, before)
  }

  private async request(method: string, path: string, body?: Partial<Plant>): Promise<Answer> {
    this.housekeeping++
    const base = this.target.stateUrl ?? this.target.url
    return (this.target.send ?? send)(
      base,
      {
        method,
        path,
        auth: { kind: 'principal' },
        ...(body === undefined
          ? {}
          : {
              contentType: 'application/json',
              body: plantJson(body),
            }),
      },
      `Bearer ${this.token}`,
    )
  }

  private async expect(method: string, path: string, status: number, body?: Partial<Plant>): Promise<void> {
    const request = {
      method,
      path,
      auth: { kind: 'principal' } as const,
      ...(body === undefined ? {} : { contentType: 'application/json', body: plantJson(body) }),
    }
    const answer = await this.request(method, path, body)
    if (answer.status !== status) throw new Housekeeping(this.target.name, request, answer, status)
  }
}
