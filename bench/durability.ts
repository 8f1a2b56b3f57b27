// Proves that every 200 of createPlant is durable: writes under load, kill -9 of the server in the middle of
// them, a restart on the same file, and a check that each acknowledged id is there and the file is sound.
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'
import { listAll } from '../scripts/lib/paging.js'
import type { Started } from '../scripts/lib/processes.js'

export interface DurabilityOptions {
  /** Starts the real server on the store file under test (the same file every time). */
  start: () => Promise<Started>
  authorization: string
  connections: number
  /** Kill cycles: each loads, kills -9 mid-load, and the next starts on what was left. */
  cycles: number
  /** Seconds of load before each kill. */
  killAfter: number
  /** The SQLite file the server uses: checked with PRAGMA integrity_check once the last server stopped. */
  file?: string
}

export interface DurabilityResult {
  cycles: number
  /** Ids answered 200. */
  acknowledged: number
  /** Ids the restarted server lists. */
  stored: number
  /** Acknowledged ids the restarted server does not have: must be 0. */
  missing: number
  missingSample: number[]
  /** Answers other than 200 (there should be none: the ids are unique). */
  non200: number
  /** Requests built but never answered (in flight at the kill, or refused after it): either outcome is allowed. */
  unanswered: number
  /** What PRAGMA integrity_check said ('ok' when sound), when a file was given. */
  integrity?: string
}

export async function checkDurability(options: DurabilityOptions): Promise<DurabilityResult> {
  const acknowledged = new Set<number>()
  let nextId = 1
  let sent = 0
  let non200 = 0
  for (let cycle = 0; cycle < options.cycles; cycle++) {
    const server = await options.start()
    let stop = () => {}
    const done = new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url: server.url,
          connections: options.connections,
          // A bound only: the load is stopped right after the kill.
          duration: options.killAfter + 10,
          maxOverallRequests: 1_000_000,
          // Stop within 0.1 s of being asked, so the client does not spin on refused connections.
          sampleInt: 100,
          requests: [
            {
              method: 'POST',
              path: '/plants',
              headers: { authorization: options.authorization, 'content-type': 'application/json' },
              setupRequest: (request, context) => {
                // One request in flight per connection: the context holds the id until its answer.
                context.id = nextId
                sent++
                return { ...request, body: JSON.stringify({ id: nextId++, name: 'Basil', tag: 'herb' }) }
              },
              onResponse: (status, _body, context) => {
                if (status === 200) acknowledged.add(context.id as number)
                else non200++
              },
            },
          ],
        },
        (error) => (error ? reject(error) : resolve()),
      )
      stop = () => instance.stop()
    })
    await sleep(options.killAfter * 1000)
    await server.kill9()
    stop()
    await done
  }

  // The restart replays the WAL; the server must then list every acknowledged plant.
  const server = await options.start()
  let result: DurabilityResult
  try {
    const stored = await listIds(server.url, options.authorization, Math.ceil(sent / 100) + 2)
    const missing = [...acknowledged].filter((id) => !stored.has(id))
    result = {
      cycles: options.cycles,
      acknowledged: acknowledged.size,
      stored: stored.size,
      missing: missing.length,
      missingSample: missing.slice(0, 10),
      non200,
      unanswered: sent - acknowledged.size - non200,
    }
  } finally {
    await server.stop()
  }
  if (options.file) result.integrity = integrityOf(options.file)
  return result
}

function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true })
  try {
    return String(db.pragma('integrity_check', { simple: true }))
  } finally {
    db.close()
  }
}

// Walks the pages through the Link headers, as a client would; at most maxPages requests.
async function listIds(baseUrl: string, authorization: string, maxPages: number): Promise<Set<number>> {
  const plants = await listAll<{ id: number }>(baseUrl, '/plants?limit=100', { authorization }, maxPages)
  return new Set(plants.map((plant) => plant.id))
}
