// The server on PostgreSQL, where PostgreSQL is installed: one instance and two sharing a database,
// and a store of 1,000,000 plants (10,000 in the quick run) beside one of 1,000.
import type { Cluster } from '../scripts/lib/postgres.js'
import type { Started } from '../scripts/lib/processes.js'
import { type Growth, growthOf, type Row } from './report.js'
import { createPlant, getPlant } from './requests.js'
import { type LoadSettings, runScenario, type Scenario } from './scenarios.js'
import { fillPostgresStore } from './store.js'

export interface PostgresOptions {
  settings: LoadSettings & { smallStore: number; largePostgresStore: number }
  startServer: (databaseUrl: string, store: string) => Promise<Started>
  reader: { principal: string; token: string }
  writer: string
}

/**
 * The server on PostgreSQL: createPlant and getPlant on one instance and on two sharing one database
 * (the ratio column is then the scaling), and getPlant on a store of 1,000,000 plants; returns the
 * latency growth from the small store to the large one.
 */
export async function runPostgres(
  on: Cluster,
  { settings, startServer, reader, writer }: PostgresOptions,
): Promise<{ rows: Row[]; growth: Growth[] }> {
  const rows: Row[] = []
  const rowOf = (scenario: string, target: string) =>
    rows.find((r) => r.scenario === scenario && r.target === target)
  const smallUrl = await on.createDatabase()
  const largeUrl = await on.createDatabase()
  const fillStarted = performance.now()
  await fillPostgresStore(smallUrl, reader.principal, settings.smallStore)
  await fillPostgresStore(largeUrl, reader.principal, settings.largePostgresStore)
  console.error(`  PostgreSQL stores filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`)
  const [first, second, large] = await Promise.all([
    startServer(smallUrl, 'postgres'),
    startServer(smallUrl, 'postgres'),
    startServer(largeUrl, 'postgres large'),
  ])
  if (!first || !second || !large) throw new Error('the PostgreSQL instances did not start')
  const small = `${settings.smallStore.toLocaleString('en-US')} plants`
  const big = `${settings.largePostgresStore.toLocaleString('en-US')} plants`
  const one = `one instance, ${small}`
  const two = `two instances, ${small}`
  const scenarios: Scenario[] = [
    {
      name: 'PostgreSQL createPlant',
      targets: [
        { name: one, process: first, requests: () => createPlant(writer) },
        { name: two, process: first, also: [second], requests: () => createPlant(writer) },
      ],
    },
    {
      name: 'PostgreSQL getPlant',
      targets: [
        { name: one, process: first, requests: () => getPlant(reader.token, settings.smallStore) },
        {
          name: two,
          process: first,
          also: [second],
          requests: () => getPlant(reader.token, settings.smallStore),
        },
        {
          name: `one instance, ${big}`,
          process: large,
          requests: () => getPlant(reader.token, settings.largePostgresStore),
        },
      ],
    },
  ]
  for (const scenario of scenarios) rows.push(...(await runScenario(scenario, settings)))
  for (const instance of [first, second, large]) await instance.stop()
  const a = rowOf('PostgreSQL getPlant', one)
  const b = rowOf('PostgreSQL getPlant', `one instance, ${big}`)
  if (!a || !b) return { rows, growth: [] }
  return { rows, growth: [growthOf('PostgreSQL getPlant', a, b)] }
}

/** Two instances on one database against one: the scaling, in req/s, on this machine. */
export function scalingLine(rows: Row[], smallStore: number): string | undefined {
  const two = `two instances, ${smallStore.toLocaleString('en-US')} plants`
  const scaling = ['PostgreSQL createPlant', 'PostgreSQL getPlant'].flatMap((scenario) => {
    const ratio = rows.find((r) => r.scenario === scenario && r.target === two)?.ratio
    return ratio === undefined ? [] : [`${scenario} ×${ratio.toFixed(2)}`]
  })
  if (scaling.length === 0) return undefined
  return `PostgreSQL, two instances against one (req/s, same machine): ${scaling.join(', ')}`
}
