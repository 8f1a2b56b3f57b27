// `npm run soak`: the real server under a moderate, steady load of every operation for a while (60 s by
// default): no errors, resident memory after warm-up growing less than 10%, and no file descriptor left
// open once the clients are gone. `--duration` and `--rate` change the run; a short one runs in npm test.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon, { type RequestEntry, type Result } from 'autocannon'
import * as commands from '../scripts/lib/commands.js'
import { startProcess } from '../scripts/lib/processes.js'

export interface SoakOptions {
  /** Seconds of load, warm-up included. */
  duration: number
  /** Seconds at the start whose memory growth does not count (JIT, caches, the store's first pages). */
  warmUp: number
  /** Requests per second over all connections. */
  rate: number
  connections: number
}

export interface SoakResult {
  requests: number
  /** Answers other than the documented success, plus connection errors and timeouts. */
  errors: number
  /** Resident memory in bytes at the end of warm-up and at the end of the load. */
  rssAfterWarmUp: number
  rssAtEnd: number
  rssGrowth: number
  /** Open file descriptors of the server before the load and once its clients are gone. */
  fdsBefore: number
  fdsAfter: number
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024
const fdsOf = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
// The median of three readings a moment apart: one reading may fall just before a collection.
async function steadyRss(pid: number): Promise<number> {
  const readings: number[] = []
  for (let i = 0; i < 3; i++) {
    readings.push(rssOf(pid))
    await sleep(200)
  }
  return readings.sort((a, b) => a - b)[1] ?? Number.NaN
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-soak-'))
  const server = await startProcess(
    commands.server({
      name: 'server (soak)',
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'plants.db')}`,
        AUTH_TOKENS: 'soak:token-soak',
        // Errors are what a soak counts: a 503 from the machine's own load is not one of the server's.
        ...commands.overloadUnchecked,
      },
      logFile: join(dir, 'server.log'),
    }),
  )
  try {
    const fdsBefore = fdsOf(server.pid)
    const headers = { authorization: 'Bearer token-soak', 'content-type': 'application/json' }
    let nextId = 1
    let errors = 0
    let rssAfterWarmUp = Number.NaN
    const warmUpDone = sleep(options.warmUp * 1000).then(async () => {
      rssAfterWarmUp = await steadyRss(server.pid)
    })
    // Each connection cycles through every operation on a plant of its own: create, read, list,
    // replace, delete, so the store stays small and every answer is the documented success.
    const result = await new Promise<Result>((resolve, reject) => {
      autocannon(
        {
          url: server.url,
          connections: options.connections,
          duration: options.duration,
          overallRate: options.rate,
          // A bound on the count as well as the time.
          maxOverallRequests: Math.ceil(options.duration * options.rate) + options.connections,
          timeout: 10,
          requests: (
            [
              {
                method: 'POST',
                path: '/plants',
                headers,
                setupRequest: (request, context) => {
                  context.id = nextId++
                  return { ...request, body: JSON.stringify({ id: context.id, name: 'Basil', tag: 'herb' }) }
                },
              },
              { method: 'GET', setupRequest: (r, c) => ({ ...r, path: `/plants/${c.id}` }), headers },
              { method: 'GET', path: '/plants?tag=herb&limit=20', headers },
              {
                method: 'PUT',
                headers,
                body: JSON.stringify({ name: 'Thai basil' }),
                setupRequest: (r, c) => ({ ...r, path: `/plants/${c.id}` }),
              },
              { method: 'DELETE', setupRequest: (r, c) => ({ ...r, path: `/plants/${c.id}` }), headers },
            ] satisfies RequestEntry[]
          ).map((request) => ({
            ...request,
            onResponse: (status: number) => {
              if (status < 200 || status >= 300) errors++
            },
          })),
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      )
    })
    await warmUpDone
    const rssAtEnd = await steadyRss(server.pid)
    // The clients have closed their connections; give the server at most 2 s to see them go.
    let fdsAfter = fdsOf(server.pid)
    for (let i = 0; i < 20 && fdsAfter > fdsBefore; i++) {
      await sleep(100)
      fdsAfter = fdsOf(server.pid)
    }
    return {
      requests: result.requests.total,
      errors: errors + result.errors + result.timeouts,
      rssAfterWarmUp,
      rssAtEnd,
      rssGrowth: (rssAtEnd - rssAfterWarmUp) / rssAfterWarmUp,
      fdsBefore,
      fdsAfter,
    }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What is wrong with a run, one line each; empty when it passed. */
/**
 * What went wrong in a soak. Memory growth is judged only when `judgeMemory` (a run long enough for
 * it, such as the 60-second `npm run soak`): over a few seconds the heap is still finding its size.
 */
export function soakProblems(result: SoakResult, { judgeMemory = true } = {}): string[] {
  const problems: string[] = []
  if (result.requests === 0) problems.push('no request was answered')
  if (result.errors > 0) problems.push(`${result.errors} errors`)
  if (judgeMemory && !(result.rssGrowth < 0.1))
    problems.push(`resident memory grew ${(result.rssGrowth * 100).toFixed(1)}%`)
  if (result.fdsAfter > result.fdsBefore)
    problems.push(`${result.fdsAfter - result.fdsBefore} file descriptors left open`)
  return problems
}

export function describeSoak(options: SoakOptions, result: SoakResult): string {
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
  return (
    `soak: ${options.duration} s at ${options.rate} req/s over ${options.connections} connections: ` +
    `${result.requests} requests, ${result.errors} errors; RSS ${mib(result.rssAfterWarmUp)} after ` +
    `${options.warmUp} s of warm-up, ${mib(result.rssAtEnd)} at the end ` +
    `(${(result.rssGrowth * 100).toFixed(1)}%); file descriptors ${result.fdsBefore} before, ${result.fdsAfter} after`
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      rate: { type: 'string', default: '200' },
      connections: { type: 'string', default: '8' },
      'warm-up': { type: 'string' },
    },
  })
  const duration = Number(values.duration)
  const options: SoakOptions = {
    duration,
    rate: Number(values.rate),
    connections: Number(values.connections),
    warmUp: Number(values['warm-up'] ?? Math.max(1, Math.round(duration / 6))),
  }
  const result = await soak(options)
  console.log(describeSoak(options, result))
  const problems = soakProblems(result)
  if (problems.length) {
    console.error(`soak failed: ${problems.join('; ')}`)
    process.exitCode = 1
  }
}
