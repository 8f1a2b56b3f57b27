// The principal a stateful target's generated probes run as, kept in the oracle's state: what a probe
// changed is undone. A request that sets up or undoes state is told to `observe` with its answer, and
// one whose status is not the document's is returned: the state can no longer be relied on.
import { plantJson } from '@plant-store/core'
import { type Probe, requestOf } from '../cases/probe.js'
import { withToken } from '../cases/refused-tokens.js'
import { UNKNOWN_TOKEN } from '../document-prose.js'
import { type Answer, type Endpoint, type RequestSpec, send } from '../http.js'
import { roleOf } from '../judge/accepted-statuses.js'
import type { Plant } from '../judge/plant.js'
import type { State } from '../judge/state.js'

/** A request sent to set up or undo state (not a probe), its answer, and the status the document gives it. */
export interface Housekeeping {
  request: RequestSpec
  answer: Answer
  expected: number
}

/** A housekeeping request that got another status, in one line. */
export const describeHousekeeping = (targetName: string, { request, answer, expected }: Housekeeping) =>
  `housekeeping on the ${targetName}: ${request.method} ${request.path} answered ${answer.status} ${answer.text}, the document says ${expected}`

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
  /** Told of each request that sets up or undoes state, with its answer and the status the document gives it. */
  observe: ((done: Housekeeping) => void) | undefined

  constructor(
    readonly target: Endpoint,
    private readonly state: State,
    private readonly existing?: ReadonlySet<bigint>,
  ) {}

  /** The state's plants that this run creates (all of them, but for a server under test's own). */
  private ours(): Plant[] {
    return [...this.state.values()].filter((p) => !this.existing?.has(p.id))
  }

  /**
   * A fresh principal with exactly the state's plants; `touched`, the ids the probe judged wrong named.
   * The request that did not get the document's status, if one did not.
   */
  async reset(...touched: bigint[]): Promise<Housekeeping | undefined> {
    this.token = this.target.newToken()
    if (!this.target.stateUrl) return undefined
    if (this.existing) {
      const ids = new Set(this.ours().map((p) => p.id))
      for (const id of touched) if (!this.existing.has(id)) ids.add(id)
      for (const id of ids) await this.request('DELETE', `/plants/${id}`)
      return this.expectEach(this.ours())
    }
    // The sandbox seeds a new principal itself; the server's starts empty.
    return this.target.seeded ? undefined : this.expectEach([...this.state.values()])
  }

  private async expectEach(plants: Plant[]): Promise<Housekeeping | undefined> {
    for (const plant of plants) {
      const wrong = await this.expect('POST', '/plants', 200, plant)
      if (wrong) return wrong
    }
    return undefined
  }

  /**
   * Brings the plants `ids` that the run creates to what the state has, one by one: each the state
   * holds created, each it does not deleted (assumed there, and the rest as the state has them).
   */
  async settle(...ids: bigint[]): Promise<Housekeeping | undefined> {
    for (const id of ids) {
      if (this.existing?.has(id)) continue
      const plant = this.state.get(id)
      const wrong = plant
        ? await this.expect('POST', '/plants', 200, plant)
        : await this.expect('DELETE', `/plants/${id}`, 204)
      if (wrong) return wrong
    }
    return undefined
  }

  /** Deletes what the run created, at its end (a server under test's own plants stay). */
  async clear(): Promise<void> {
    for (const plant of this.ours()) await this.request('DELETE', `/plants/${plant.id}`)
  }

  authorization(probe: Pick<Probe, 'auth'>): string | undefined {
    const auth = probe.auth
    if (auth.kind === 'principal') return `Bearer ${this.token}`
    if (auth.kind === 'unknown') return `Bearer ${UNKNOWN_TOKEN}`
    if (auth.kind === 'header') return auth.value
    return undefined
  }

  /** Sends the probe and reads back what a 200 create stored. */
  async send(probe: Probe): Promise<{ answer: Answer; readBack?: Answer }> {
    // A refused case carries this principal's own token where it stands for one.
    const request = withToken(requestOf(probe), this.token)
    const answer = await (this.target.send ?? send)(this.target.url, request, this.authorization(request))
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

  /**
   * Puts the principal's plants back as the state has them, after a probe the oracle judged; the
   * request that did not get the document's status, if one did not.
   */
  async undo(probe: Probe, status: number, judgedRight: boolean): Promise<Housekeeping | undefined> {
    if (!this.target.stateUrl) return undefined
    if (!judgedRight) return this.reset(...namedIds(probe))
    const id = probe.id
    if (id === undefined || status >= 300) return undefined
    const before = this.state.get(id)
    if (roleOf(probe.entry) === 'create') return this.expect('DELETE', `/plants/${id}`, 204)
    if (probe.method === 'PUT' && before)
      // A replace's body is the plant without its id, which the path names.
      return this.expect('PUT', `/plants/${id}`, 200, { ...before, id: undefined })
    if (probe.method === 'DELETE' && before) return this.expect('POST', '/plants', 200, before)
    return undefined
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

  /** Sends a request whose status the document gives; the request, its answer and that status when it got another. */
  private async expect(
    method: string,
    path: string,
    status: number,
    body?: Partial<Plant>,
  ): Promise<Housekeeping | undefined> {
    const request: RequestSpec = {
      method,
      path,
      auth: { kind: 'principal' },
      ...(body === undefined ? {} : { contentType: 'application/json', body: plantJson(body) }),
    }
    const answer = await this.request(method, path, body)
    const done = { request, answer, expected: status }
    this.observe?.(done)
    return answer.status === status ? undefined : done
  }
}
