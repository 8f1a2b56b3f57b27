// `tsx bench/profile-summary.ts FILE.cpuprofile [N]`: where a V8 CPU profile (node --cpu-prof) spends its
// time, by function and by package, as self time; enough to read a server profile without DevTools.
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples?: number[]
  timeDeltas?: number[]
}

const [file, top = '25'] = process.argv.slice(2)
if (!file) throw new Error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [N]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile

// Self time per node from the samples and their time deltas (µs); hitCount alone ignores uneven intervals.
const selfUs = new Map<number, number>()
const samples = profile.samples ?? []
const deltas = profile.timeDeltas ?? []
samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0))
})
const total = [...selfUs.values()].reduce((a, b) => a + b, 0)

// Where a function lives, shortened: node_modules/<package>, a repo path, or node's own internals.
function place(url: string): string {
  if (!url) return '(native/V8)'
  // The innermost package: fastify's own pino (node_modules/fastify/node_modules/pino) is pino's.
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (inModules?.[1]) return inModules[1]
  if (url.startsWith('node:')) return 'node:internal'
  // A package's build (src/server/dist/app.js, src/core/dist/lib/json-body.js) counts as dist/.
  const inRepo = /\/(?:src\/[^/]+\/)?(dist|src|bench)\/(.*)$/.exec(url)
  return inRepo ? `${inRepo[1]}/${inRepo[2]}` : url
}

const byFunction = new Map<string, number>()
const byPlace = new Map<string, number>()
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0
  if (us === 0) continue
  const where = place(node.callFrame.url)
  const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + us)
  const pkg = node.callFrame.url ? where.replace(/^(dist|src|bench)\/.*/, '$1') : node.callFrame.functionName
  byPlace.set(pkg, (byPlace.get(pkg) ?? 0) + us)
}

// Inclusive time by package: a sample counts once for every package on its stack, so `pino` includes the
// file writes it makes, and dist/app.js includes the logging its hooks call.
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]))
const inclusive = new Map<string, number>()
const stackPlaces = new Map<number, Set<string>>()
const placesOf = (id: number): Set<string> => {
  const known = stackPlaces.get(id)
  if (known) return known
  const node = nodeById.get(id)
  const up = parent.get(id)
  const places = new Set(up === undefined ? [] : placesOf(up))
  if (node?.callFrame.url) places.add(place(node.callFrame.url))
  stackPlaces.set(id, places)
  return places
}
for (const [id, us] of selfUs)
  for (const where of placesOf(id)) inclusive.set(where, (inclusive.get(where) ?? 0) + us)

// What the server spends its busy time on, by concern: the first rule that matches a sample's stack wins.
// Start-up (module loading, building the app) is set apart, so the rest is the cost of requests.
const concerns: [string, (places: Set<string>, raw: Set<string>) => boolean][] = [
  [
    'start-up',
    (p, raw) => p.has('dist/server.js') || [...raw].some((u) => u.startsWith('node:internal/modules')),
  ],
  [
    'storage (SQLite)',
    (p) => p.has('better-sqlite3') || [...p].some((x) => x.startsWith('dist/repository/')),
  ],
  ['request logging', (p) => p.has('pino') || p.has('sonic-boom')],
  ['auth', (p) => p.has('dist/plugins/app/auth.js')],
  ['CORS', (p) => p.has('@fastify/cors')],
  ['body parsing', (p) => p.has('dist/lib/json-body.js') || p.has('secure-json-parse')],
  ['validation', (p) => p.has('dist/lib/validation.js') || p.has('ajv')],
  ['response serialization', (p) => p.has('fast-json-stringify')],
  ['handlers', (p) => p.has('dist/routes/plants.js')],
]
const rawUrls = new Map<number, Set<string>>()
const rawOf = (id: number): Set<string> => {
  const known = rawUrls.get(id)
  if (known) return known
  const up = parent.get(id)
  const urls = new Set(up === undefined ? [] : rawOf(up))
  const url = nodeById.get(id)?.callFrame.url
  if (url) urls.add(url)
  rawUrls.set(id, urls)
  return urls
}
const socketWrites = new Set([
  'writeUtf8String',
  'writeBuffer',
  'writev',
  'writeLatin1String',
  'writeAsciiString',
])
const byConcern = new Map<string, number>()
for (const [id, us] of selfUs) {
  const name = nodeById.get(id)?.callFrame.functionName ?? ''
  const places = placesOf(id)
  const concern =
    name === '(idle)' || name === '(garbage collector)' || name === '(program)'
      ? name
      : // A sample taken inside a socket write counts the time the thread was preempted there too.
        socketWrites.has(name)
        ? 'writing answers to sockets (native write calls)'
        : (concerns.find(([, matches]) => matches(places, rawOf(id)))?.[0] ?? 'HTTP, Fastify and the rest')
  byConcern.set(concern, (byConcern.get(concern) ?? 0) + us)
}

const show = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    console.log(
      `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    )
  }
}
const idle = [...byPlace].filter(([name]) => name === '(idle)').reduce((n, [, us]) => n + us, 0)
console.log(
  `${file}: ${(total / 1e6).toFixed(2)} s sampled, ${((total - idle) / 1e6).toFixed(2)} s of them busy (not idle)`,
)
show('Self time by package (native entries by name)', byPlace)
show('Self time by function', byFunction)
show('Inclusive time by package or file', inclusive)
show('By concern (the first that matches the stack)', byConcern)
