// The throughput scenarios, createPlant, getPlant and a page of 50 plants: the bare-Fastify baseline
// first, then the server (and the candidates) on the small store, then the server on the large one,
// in rounds that each take them in another order (scenarios.ts); Prism's createPlant and getPlant with a JWT for reference; then
// the cost ledger's servers, each without some layers (ledger.ts), in the same rounds, so that the
// ledger and these scenarios measure the server against the baseline once, not twice.
import type { RequestEntry } from 'autocannon'
import type { Started } from '../scripts/lib/processes.js'
import type { Row } from './report.js'
import { createPlant, getPlant, listPages } from './requests.js'
import { runScenario, type Scenario, type Target } from './scenarios.js'
import type { BenchSettings } from './settings.js'

export interface ThroughputTargets {
  baseline: Started
  server: Started
  /** The server on the large store, when the run has one. */
  serverLarge?: Started
  candidates: readonly { name: string; process: Started }[]
  /** The ledger's servers, each without the layers `key` names, on a store like the server's. */
  without: readonly { key: string; process: Started }[]
  prism?: Started
  /** Each store's pages of 50, as listPlants walks them. */
  pagesSmall: string[]
  pagesLarge: string[]
}

export interface ThroughputRequests {
  reader: string
  /** The reader's JWT, to measure what verifying one on every request costs beside a static token. */
  readerJwt: string
  writer: string
}

/** The row of the ledger's server without the layers `key` names (ledger.ts reads it back). */
export const withoutName = (key: string) => `without ${key}`

export const smallLabel = (settings: BenchSettings) => `${settings.smallStore.toLocaleString('en-US')} plants`
export const largeLabel = (settings: BenchSettings) =>
  `${(settings.largeStore ?? 0).toLocaleString('en-US')} plants`

/** The rows of each scenario `wanted` keeps. */
export async function runThroughput(
  settings: BenchSettings,
  processes: ThroughputTargets,
  tokens: ThroughputRequests,
  wanted: (scenario: string) => boolean,
): Promise<Row[]> {
  const { baseline, server, serverLarge, candidates, without, prism, pagesSmall, pagesLarge } = processes
  const small = smallLabel(settings)
  const large = largeLabel(settings)
  // `requests` is told which store, by its size and its pages.
  type Make = (size: number, pages: string[]) => RequestEntry[]
  const targets = (make: Make, named: boolean): Target[] => {
    const label = (who: string, size: string) => (named ? `${who}, ${size}` : who)
    const list: Target[] = [
      { name: 'baseline', process: baseline, requests: () => make(settings.smallStore, pagesSmall) },
      {
        name: label('server', small),
        process: server,
        requests: () => make(settings.smallStore, pagesSmall),
      },
    ]
    for (const candidate of candidates) {
      list.push({
        name: label(candidate.name, small),
        process: candidate.process,
        requests: () => make(settings.smallStore, pagesSmall),
      })
    }
    if (serverLarge && settings.largeStore && named) {
      const size = settings.largeStore
      list.push({
        name: label('server', large),
        process: serverLarge,
        requests: () => make(size, pagesLarge),
      })
    }
    return list
  }
  // Their rows after the scenarios' own targets'; in the rounds, loaded among them.
  const ledgerTargets = (make: Make): Target[] =>
    without.map(({ key, process }) => ({
      name: withoutName(key),
      process,
      requests: () => make(settings.smallStore, pagesSmall),
    }))
  const scenarios: Scenario[] = [
    {
      name: 'createPlant',
      targets: [
        ...targets(() => createPlant(tokens.writer), false),
        // Prism checks that a bearer token is present, not which.
        ...(prism ? [{ name: 'prism', process: prism, requests: () => createPlant('any-token') }] : []),
        ...ledgerTargets(() => createPlant(tokens.writer)),
      ],
    },
    {
      name: 'getPlant',
      targets: [
        ...targets((size) => getPlant(tokens.reader, size), true),
        {
          name: `server, ${small}, JWT (RS256)`,
          process: server,
          requests: () => getPlant(tokens.readerJwt, settings.smallStore),
        },
        ...ledgerTargets((size) => getPlant(tokens.reader, size)),
      ],
    },
    {
      name: 'listPlants limit 50',
      targets: [
        ...targets((_size, pages) => listPages(tokens.reader, pages), true),
        ...ledgerTargets((_size, pages) => listPages(tokens.reader, pages)),
      ],
    },
  ]
  const rows: Row[] = []
  for (const scenario of scenarios)
    if (wanted(scenario.name)) rows.push(...(await runScenario(scenario, settings)))
  return rows
}
