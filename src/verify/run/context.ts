// What a run is asked (VerifyOptions) and what each layer works with (Context): apart from verify.ts,
// which runs the layers, so that the layers and the run import these and never each other.
import type { ConsumerContract } from '@plant-store/core'
import type { RefusedTokens } from '../cases/refused-tokens.js'
import type { Exchange } from '../checks/exchange.js'
import type { LoadedDocument, OperationEntry, Profile } from '../document.js'
import type { Verdict } from '../judge/judge.js'
import type { Judging } from '../judge/plant.js'
import type { Layer, Results } from '../report/results.js'
import type { WebhookOptions } from '../webhooks/receiver.js'
import type { VerifyConfig } from './config.js'
import type { OwnedPlant, Subject } from './subject.js'

export interface VerifyOptions {
  baseUrl: string
  /** The team's own checks and hooks: what a configuration file's default export is (defineConfig). */
  config?: VerifyConfig
  /** Tokens of two principals of the server under test. */
  tokens: readonly [string, string]
  /** Another document than the one shipped. */
  spec?: string
  only?: Layer[]
  /** Only these checks, built-in or the team's, by name. */
  checks?: string[]
  /** Not these checks, by name. */
  excludeChecks?: string[]
  requests?: number
  sequences?: number
  seed?: number
  /** Only what changes nothing: reads and refused requests. */
  readOnly?: boolean
  /** Leave the plants the run created. */
  keep?: boolean
  /**
   * What to judge: `interface` (the default), what every plant store keeps; `kit`, the kit server's
   * profile too, and its answers exactly as the kit's server writes them.
   */
  profile?: Profile
  /** The server makes a principal of any token (as the kit's sandbox does): no unknown-token cases. */
  anyToken?: boolean
  /** At most this many requests a second. */
  rate?: number
  /**
   * The store's headers timeout, in ms: a request whose headers stop arriving is sent, and its answer
   * judged once that time is up. Without it no such request is sent (no run waits for a timeout it
   * does not know).
   */
  headersTimeoutMs?: number
  /** How long to try again while nothing answers at the base URL (a server still starting); default 0. */
  waitMs?: number
  /** One case of the example or security layers, by its name, or one generated request by its number. */
  case?: string
  /** Stateful replay: fast-check's path and replayPath, as a failure prints them. */
  path?: string
  replayPath?: string
  /** The whole run's bound; a run that reaches it says how far it got. */
  timeLimitMs?: number
  /**
   * Judge the newPlant events the server sends during the run: a receiver listens on 127.0.0.1 at this
   * port (0: any), and the server must be set up to send both principals' events to it.
   */
  webhook?: WebhookOptions
  /** Told the receiver's URL once it listens. */
  onWebhookReceiver?: (url: string) => void
  /** Replay a consumer's requests (its contract, from `file`) instead of the layers. */
  consumer?: ConsumerRun
  /** How a failure's replay command starts, e.g. `npx plant-store-verify --base-url …`. */
  command?: string
  onProgress?: (line: string) => void
  /** Told at once of what a run decided that its user should know before the report: the sizes it fitted to the server's quota. */
  onNotice?: (line: string) => void
}

/** A consumer contract to replay: where it was read from, and how many drawn requests per operation. */
export interface ConsumerRun {
  file: string
  contract: ConsumerContract
  perOperation: number
}

export interface Context {
  options: Required<Pick<VerifyOptions, 'requests' | 'sequences' | 'seed'>> & VerifyOptions
  loaded: LoadedDocument
  subject: Subject
  results: Results
  /** How plants in answers are judged, and whether the kit profile is held too. */
  judging: Judging
  /** The run's selected checks on one exchange: the one judge every layer's exchanges go to. */
  judge(exchange: Exchange): Verdict
  /** The plants each principal owned before the run: never changed, never deleted. */
  existing: [OwnedPlant[], OwnedPlant[]]
  /** Where the run's own ids start: far from small numbers, and fixed by the seed for replays. */
  idBase: bigint
  list: OperationEntry | undefined
  /** Deletes a plant of a principal through the document's delete operation (any answer taken). */
  remove(principal: 0 | 1, id: bigint): Promise<void>
  deadline: number
  /** The replay command of one case: the run's command with these options added. */
  replay(args: string): string
  /** Whether a case is sent: every case, or with --case only the one of that name. */
  wants(name: string): boolean
  progress(line: string): void
  /** The refused-token cases sent so far: each is sent to an operation once in a run. */
  refusals: RefusedTokens
  /**
   * Work a layer left for the end of the run, after every layer: refused-token cases that met the
   * server's spent quota for failed authentications, sent once its window has moved on.
   */
  deferred: { layer: Layer; run: () => Promise<void> }[]
}

/** A word as a shell reads it back: in single quotes, each quote inside written '\''. */
export const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`

/** A case as --case names it: its operation and its title, as a report shows them. */
export const caseName = (operationId: string, title: string) => `${operationId} · ${title}`

/** The options that replay one case of a layer by its name, as --case takes it. */
export const caseArgs = (layer: Layer, name: string) => `--only ${layer} --case ${shellQuote(name)}`
