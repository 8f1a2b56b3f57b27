// The verifier's own speed against the real server, in a fresh Node process running the built package
// (src/verify/dist/): answers judged a second and CPU per request, beside a baseline in the same run,
// a bare loop of sequential requests to the same server from the same kind of process, over node:http
// with kept-open connections as the verifier sends them, which is the ceiling any one-request-at-a-time
// client meets.
import { join } from 'node:path'
import { runToExit } from '../scripts/lib/processes.js'

export interface VerifyResult {
  requests: number
  seconds: number
  perSecond: number
  cpuUsPerRequest: number
  failures: number
  baseline: { requests: number; perSecond: number; cpuUsPerRequest: number }
  /** The verifier's rate and CPU per request against the baseline's (rate: lower is slower). */
  ratio: { perSecond: number; cpuPerRequest: number }
}

const probe = (
  module: string,
  url: string,
  tokens: [string, string],
  requests: number,
  sequences: number,
) => `
const { verify } = await import(${JSON.stringify(module)})
const { Agent, get } = await import('node:http')
const agent = new Agent({ keepAlive: true })
const url = ${JSON.stringify(url)}
const headers = { authorization: 'Bearer ' + ${JSON.stringify(tokens[0])}, accept: 'application/json' }
async function bare(n) {
  const cpu = process.cpuUsage()
  const t = performance.now()
  for (let i = 0; i < n; i++)
    await new Promise((resolve, reject) =>
      get(url + '/plants/' + (1000 + (i % 50)), { headers, agent }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text))
      }).on('error', reject),
    )
  const used = process.cpuUsage(cpu)
  return { requests: n, seconds: (performance.now() - t) / 1000, cpuUs: used.user + used.system }
}
const before = await bare(${Math.max(200, requests)})
const cpu = process.cpuUsage()
const t = performance.now()
const results = await verify({ baseUrl: url, tokens: ${JSON.stringify(tokens)}, requests: ${requests}, sequences: ${sequences}, seed: 1 })
const seconds = (performance.now() - t) / 1000
const used = process.cpuUsage(cpu)
const after = await bare(${Math.max(200, requests)})
const b = { requests: before.requests + after.requests, seconds: before.seconds + after.seconds, cpuUs: before.cpuUs + after.cpuUs }
console.log(JSON.stringify({ requests: results.requests, seconds, cpuUs: used.user + used.system, failures: results.failures.length, waitedNotes: results.notes.filter((n) => n.includes('Retry-After')), baseline: b }))
`

export async function measureVerify(
  root: string,
  url: string,
  tokens: [string, string],
  counts: { requests: number; sequences: number },
): Promise<VerifyResult> {
  const module = join(root, 'src', 'verify', 'dist', 'index.js')
  const run = await runToExit({
    name: 'verifier',
    command: process.execPath,
    args: ['--input-type=module', '-e', probe(module, url, tokens, counts.requests, counts.sequences)],
    env: {},
    timeoutMs: 30 * 60_000,
  })
  if (run.exit !== 0) throw new Error(`the verifier's bench failed: ${run.output}`)
  const raw = JSON.parse(run.output.trim().split('\n').at(-1) ?? '') as {
    requests: number
    seconds: number
    cpuUs: number
    failures: number
    waitedNotes: string[]
    baseline: { requests: number; seconds: number; cpuUs: number }
  }
  if (raw.waitedNotes.length)
    throw new Error(`the verifier waited out rate limits: ${raw.waitedNotes.join('; ')}`)
  const perSecond = raw.requests / raw.seconds
  const cpuUsPerRequest = raw.cpuUs / raw.requests
  const baseline = {
    requests: raw.baseline.requests,
    perSecond: raw.baseline.requests / raw.baseline.seconds,
    cpuUsPerRequest: raw.baseline.cpuUs / raw.baseline.requests,
  }
  return {
    requests: raw.requests,
    seconds: raw.seconds,
    perSecond,
    cpuUsPerRequest,
    failures: raw.failures,
    baseline,
    ratio: {
      perSecond: perSecond / baseline.perSecond,
      cpuPerRequest: cpuUsPerRequest / baseline.cpuUsPerRequest,
    },
  }
}
