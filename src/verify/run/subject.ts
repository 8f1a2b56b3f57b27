// The server under test, reached by URL with two principals' tokens: its transport (at most --rate
// requests a second, each principal's and the failed authentications' quotas waited out as the server
// declares or answers them), the plants each principal owned before the run, and the Endpoint view
// that the kit's judging layers send through.
import { nextAddress } from '@plant-store/core'
import { withToken } from '../cases/refused-tokens.js'
import type { OperationEntry } from '../document.js'
import { UNKNOWN_TOKEN } from '../document-prose.js'
import { parseExact } from '../exact-json.js'
import {
  type Answer,
  type Auth,
  type Endpoint,
  type OutgoingRequest,
  type RequestSpec,
  send,
} from '../http.js'
import { linkLeaves, resolveLink } from '../judge/links.js'
import { TeamCodeError } from './errors.js'
import { type Bucket, RateLimits, type Wait } from './rate-limits.js'

/** A plant as the verifier reads it: ids as bigint, exact. */
export type OwnedPlant = Record<string, unknown> & { id: bigint }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** How often a request refused with 429 is sent again after its Retry-After. */
const RETRIES_AFTER_429 = 5

export class Subject {
  requests = 0
  /** The requests sent so far that spent each quota: a principal's, or the failed authentications'. */
  readonly sent: Record<Bucket, number> = { 0: 0, 1: 0, refused: 0 }
  /** The quotas the server declared or answered, and the time the run waited for them. */
  readonly limits = new RateLimits()
  /** Told of each wait as it begins, for the progress line. */
  onWait: ((wait: Wait) => void) | undefined
  private nextAt = 0
  /** Told of every request and the answer it finally got (after any 429s): the webhook receiver notes creates. */
  observer: ((request: RequestSpec, authorization: string | undefined, answer: Answer) => void) | undefined
  /** The team's hook, called before every request goes, whichever layer sends it. */
  beforeRequest: ((request: OutgoingRequest) => Promise<Record<string, string>>) | undefined
  /**
   * A team's check or hook that threw: the run ends with it, so nothing more is sent (a stateful
   * sequence that would shrink the failure fails at once instead).
   */
  fatal: TeamCodeError | undefined

  private readonly origin: string
  /** The base URL's path, without its last slash: '' for a server at the root. */
  private readonly prefix: string

  constructor(
    readonly baseUrl: string,
    readonly tokens: readonly [string, string],
    private readonly rate: number | undefined,
  ) {
    const url = new URL(baseUrl)
    this.origin = url.origin
    this.prefix = url.pathname.replace(/\/+$/, '')
  }

  /**
   * A document path (`/plants`) under the base URL's path; an absolute URL (a Link resolved against
   * the page it came with) as it is.
   */
  private under(path: string): string {
    if (!path.startsWith('/') || !this.prefix) return path
    return `${this.prefix}${path}`
  }

  private async throttle(): Promise<void> {
    if (!this.rate) return
    const now = Date.now()
    const at = Math.max(now, this.nextAt)
    this.nextAt = at + 1000 / this.rate
    if (at > now) await sleep(at - now)
  }

  /**
   * Whose quota a request spends: the principal whose token it carries, or, with no token or any other
   * (refused, as the server counts it), the failed authentications'.
   */
  bucketOf(authorization: string | undefined): Bucket {
    // The scheme's name is case-insensitive (RFC 9110, section 11.1) and one or more spaces follow it
    // (RFC 6750, section 2.1): `bearer TOKEN` and `Bearer  TOKEN` are the principal's.
    const said = authorization?.replace(/^bearer +/i, 'Bearer ')
    if (said === this.authorization(0)) return 0
    if (said === this.authorization(1)) return 1
    return 'refused'
  }

  /** How long a request refused for its token would wait now for the server's quota; undefined: none. */
  refusalDue(): Wait | undefined {
    return this.limits.due('refused', Date.now())
  }

  /**
   * `send`, but at most `rate` a second, each quota the server declared waited out before a request it
   * would refuse, and a 429 sent again after its Retry-After.
   */
  readonly send = async (
    _base: string,
    request: RequestSpec,
    authorization: string | undefined,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> => {
    // A refused case's stand-in for a token is the first principal's token as it goes.
    const placed = withToken(request, this.tokens[0])
    const sent = placed === request ? authorization : this.authorizationOf(placed.auth, 0)
    const bucket = this.bucketOf(sent)
    for (let attempt = 0; ; attempt++) {
      if (this.fatal) throw this.fatal
      await this.throttle()
      const due = this.limits.due(bucket, Date.now())
      if (due) {
        this.onWait?.(due)
        await sleep(due.ms)
        this.limits.waited(bucket, due.ms)
      }
      const answer = await this.sendCounted(placed, sent, bucket, extraHeaders)
      if (answer.status !== 429 || attempt >= RETRIES_AFTER_429) {
        this.observer?.(request, authorization, answer)
        return answer
      }
    }
  }

  /**
   * One request at once, whatever the quotas: no wait before it, no retry of a 429 (what it says of its
   * quota is noted all the same). For a case that spends a quota to see the server refuse past it.
   */
  async sendOnce(request: RequestSpec, authorization: string | undefined): Promise<Answer> {
    if (this.fatal) throw this.fatal
    await this.throttle()
    const answer = await this.sendCounted(request, authorization, this.bucketOf(authorization), {})
    this.observer?.(request, authorization, answer)
    return answer
  }

  private async sendCounted(
    request: RequestSpec,
    authorization: string | undefined,
    bucket: Bucket,
    extraHeaders: Record<string, string>,
  ): Promise<Answer> {
    this.requests++
    this.sent[bucket]++
    const answer = await send(
      this.origin,
      { ...request, path: this.under(request.path) },
      authorization,
      extraHeaders,
      this.beforeRequest,
    ).catch((error: unknown) => {
      if (error instanceof TeamCodeError) this.fatal = error
      throw error
    })
    this.limits.learn(bucket, answer.status, answer.headers, Date.now())
    return answer
  }

  /** One principal of the server under test, as the judging layers see a target. */
  endpoint(principal: 0 | 1): Endpoint {
    const token = this.tokens[principal]
    return {
      name: 'server under test',
      url: this.baseUrl,
      stateUrl: this.baseUrl,
      seeded: false,
      newToken: () => token,
      send: this.send,
    }
  }

  authorization(principal: 0 | 1): string {
    return `Bearer ${this.tokens[principal]}`
  }

  /** The Authorization header a request's auth stands for, sent as `principal`. */
  authorizationOf(auth: Auth, principal: 0 | 1): string | undefined {
    switch (auth.kind) {
      case 'principal':
        return this.authorization(principal)
      case 'unknown':
        return `Bearer ${UNKNOWN_TOKEN}`
      case 'header':
        return auth.value
      case 'none':
        return undefined
    }
  }

  /**
   * The document's path of an address the run sent: a path as it is; an absolute URL (a followed
   * Link) as its path below the base URL's own ('' when it is not on the base URL).
   */
  documentPath(address: string): string {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(address)) return address
    const url = new URL(address)
    if (url.origin !== this.origin || !url.pathname.startsWith(`${this.prefix}/`)) return ''
    return `${url.pathname.slice(this.prefix.length)}${url.search}`
  }

  /**
   * Every plant of a principal, following Link from page to page (at most `pages` of them); or the
   * answer that kept them from being read, the address it came from, and why.
   */
  async plantsOf(list: OperationEntry, principal: 0 | 1, pages = 1000): Promise<PlantsRead> {
    const limit = list.parameters.find((p) => p.name === 'limit')?.schema?.maximum
    let address = `${list.path}${typeof limit === 'number' ? `?limit=${limit}` : ''}`
    const plants: OwnedPlant[] = []
    for (let page = 0; ; page++) {
      const answer = await this.send(
        this.baseUrl,
        { method: 'GET', path: address, auth: { kind: 'principal' } },
        this.authorization(principal),
      )
      const unread = (reason: string) => ({ answer, address, reason })
      if (answer.status !== 200)
        return unread(
          `GET ${address} with token ${principal + 1} answered ${answer.status} ${answer.text.slice(0, 200)}`,
        )
      const items = answer.isJson ? parseExact(answer.text) : undefined
      if (!Array.isArray(items))
        return unread(`GET ${address} did not answer a list: ${answer.text.slice(0, 200)}`)
      plants.push(...(items as OwnedPlant[]))
      const next = nextAddress(answer.headers.link)
      if (next === undefined) return { plants }
      if (page + 1 >= pages) return unread(`more than ${pages} pages of plants`)
      // Resolved against the address the page came from (RFC 3986 §5), not against the base URL.
      const from = answer.url ?? address
      address = resolveLink(next, from)
      const leaves = linkLeaves(address, from)
      if (leaves) return unread(`GET ${from} with token ${principal + 1}: ${leaves}`)
    }
  }
}

/** A principal's plants, or the answer that kept them from being read. */
export type PlantsRead = { plants: OwnedPlant[] } | { answer: Answer; address: string; reason: string }

/** The plants read, or a layer that cannot go on without them. */
export function plantsOrStop(read: PlantsRead): OwnedPlant[] {
  if ('plants' in read) return read.plants
  throw new Error(read.reason)
}
