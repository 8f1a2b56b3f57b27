// Dredd hooks for `npm run dredd`: give each transaction the request of its own example, from the
// plan run-dredd.ts wrote. Plain CommonJS because Dredd loads hook files with require(); type-checked
// by `tsc` through JSDoc and contracts/dredd/dredd-hooks.d.ts.
// @ts-check
const { readFileSync, writeFileSync } = require('node:fs')
const { isDeepStrictEqual } = require('node:util')
const hooks = require('hooks')

/** @type {import('./plan.js').DreddPlan} */
const plan = JSON.parse(readFileSync(process.env.DREDD_PLAN ?? '', 'utf8'))
/** @type {string[]} */
const seen = []
/** @type {{ name: string, reason: string }[]} */
const skipped = []
/** @type {string[]} */
const unplanned = []

/**
 * @param {string} path
 * @param {string} token
 * @param {unknown} body
 */
async function post(path, token, body) {
  const response = await fetch(new URL(path, plan.serverUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  })
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`setup: POST ${path} ${JSON.stringify(body)} answered ${response.status} ${text}`)
}

hooks.beforeEach((transaction, done) => {
  const entry = plan.transactions[transaction.name]
  seen.push(transaction.name)
  if (!entry) {
    // A transaction the plan does not know means run-dredd.ts names them differently from Dredd: fail loudly.
    unplanned.push(transaction.name)
    transaction.fail = `no plan entry for "${transaction.name}" (contracts/dredd/run-dredd.ts)`
    return done()
  }
  if (entry.skip !== undefined) {
    skipped.push({ name: transaction.name, reason: entry.skip })
    transaction.skip = true
    return done()
  }
  // Dredd sends the document's first request example to every status: send this example's instead.
  transaction.fullPath = entry.request.uri
  // The id is what Dredd's reporters print: show the request really sent and its example.
  transaction.id = `${entry.request.method} (${entry.expected.status}) ${entry.request.uri} · ${entry.example}`
  transaction.request.uri = entry.request.uri
  transaction.request.method = entry.request.method
  transaction.request.headers = { ...entry.request.headers }
  transaction.request.body = entry.request.body
  const setup = entry.setup
  if (!setup || setup.plants.length === 0) return done()
  Promise.all(setup.plants.map((plant) => post('/plants', setup.token, plant))).then(
    () => done(),
    (error) => {
      transaction.fail = `${entry.operationId} · ${entry.example}: ${error.message}`
      done()
    },
  )
})

hooks.beforeEachValidation((transaction) => {
  const entry = plan.transactions[transaction.name]
  if (!entry || entry.skip !== undefined) return
  // The example's body and the document's own schema (Dredd's reader drops allOf schemas).
  transaction.expected.body = entry.expected.body
  if (entry.expected.bodySchema) transaction.expected.bodySchema = entry.expected.bodySchema
  else delete transaction.expected.bodySchema
  // Gavel compares Content-Type as a whole string, so `application/json; charset=utf-8` fails
  // against the document's `application/json` (apiaryio/dredd#553). Compare the media types here,
  // parameters aside, and only when they match let Gavel see the real value.
  const expectedHeaders = transaction.expected.headers || {}
  // Dredd expects every documented response header, but an OpenAPI header is optional unless
  // required: Link, for one, is sent only when more plants follow.
  for (const name of Object.keys(expectedHeaders)) {
    if (entry.expected.optionalHeaders.includes(name.toLowerCase())) delete expectedHeaders[name]
  }
  const key = Object.keys(expectedHeaders).find((k) => k.toLowerCase() === 'content-type')
  const realHeaders = transaction.real?.headers ?? {}
  const realKey = Object.keys(realHeaders).find((k) => k.toLowerCase() === 'content-type')
  /** @param {unknown} value */
  const mediaType = (value) => String(value).split(';')[0]?.trim().toLowerCase()
  const realType = realKey === undefined ? undefined : realHeaders[realKey]
  if (key && realType !== undefined && mediaType(expectedHeaders[key]) === mediaType(realType)) {
    expectedHeaders[key] = realType
  }
})

hooks.afterEach((transaction) => {
  const entry = plan.transactions[transaction.name]
  if (!entry || entry.skip !== undefined || transaction.fail || !transaction.real) return
  const name = `${entry.operationId} · ${entry.example}`
  const real = transaction.real
  const problems = []
  // Gavel checks the body's shape; the real server must answer the example exactly.
  if (entry.expected.body === '') {
    if (real.body) problems.push(`the body should be empty, got ${real.body}`)
  } else {
    let actual
    try {
      actual = JSON.parse(real.body ?? '')
    } catch {
      actual = undefined
    }
    if (!isDeepStrictEqual(actual, JSON.parse(entry.expected.body))) {
      problems.push(
        `body: the document's example is ${entry.expected.body}, the server answered ${real.body}`,
      )
    }
  }
  const headers = Object.fromEntries(Object.entries(real.headers || {}).map(([k, v]) => [k.toLowerCase(), v]))
  for (const header of entry.expected.requiredHeaders) {
    if (headers[header] === undefined) problems.push(`the ${header} header is missing`)
  }
  if (problems.length) transaction.fail = `${name}: ${problems.join('; ')}`
})

hooks.afterAll((_transactions, done) => {
  writeFileSync(plan.resultsFile, JSON.stringify({ seen, skipped, unplanned }))
  done()
})
