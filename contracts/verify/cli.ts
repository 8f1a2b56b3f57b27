#!/usr/bin/env node
// plant-store-verify: checks a running plant store, by URL, against the OpenAPI document. Exit 0 when
// every answer agrees with the document, 1 when any departs, 2 for a usage error or a server that
// cannot be reached.
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CHECK_NAMES, CHECKS } from './checks.js'
import { LAYERS, type Layer } from './results.js'
import { DEFAULTS, VerifyUsageError, verify } from './verify.js'

const HELP = `Usage: plant-store-verify --base-url URL --token TOKEN_A --token TOKEN_B [options]

Checks a running plant store against its OpenAPI document: the example replay, generated requests,
stateful sequences from the document's links and the security cases, each answer judged by the
document alone. Use two principals of your server that no one else changes during the run; the
plants they already own are read first and left as they were, and the run deletes what it creates.

  --base-url URL         the server under test (or VERIFY_BASE_URL), e.g. http://127.0.0.1:3000
  --token TOKEN          a bearer token; twice, for two different principals
                         (or VERIFY_TOKENS=TOKEN_A,TOKEN_B)
  --spec FILE            another version of the document (default: the one this package ships)
  --only LAYERS          comma-separated: ${LAYERS.join(', ')} (default: all)
  --checks NAMES         only these checks, comma-separated (default: all)
  --exclude-checks NAMES leave these checks out
  --requests N           generated requests (default ${DEFAULTS.requests})
  --sequences N          stateful sequences (default ${DEFAULTS.sequences})
  --seed S               the seed of the generated requests and sequences (printed with every run)
  --case NAME            replay one case: an example or security case by name, or a generated
                         request by its number (the failure prints the command)
  --path P, --replay-path R   replay one stateful failure (the failure prints the command)
  --read-only            only what changes nothing: reads and refused requests (a production check)
  --keep                 leave the plants the generated requests worked with
  --any-token            the server makes a principal of any token (a sandbox): a token no
                         principal holds is not tried
  --rate N               at most N requests a second (a 429 is always waited out by its Retry-After)
  --webhook-listen PORT  also judge the newPlant events the server sends during the run: a receiver
                         listens on 127.0.0.1:PORT (0: any free port; its URL is printed). You
                         configure the server under test, before the run, to send both principals'
                         events to http://127.0.0.1:PORT/ (the kit's server: WEBHOOK_ENDPOINTS)
  --webhook-secret S     the whsec_… secret the server signs events with (or VERIFY_WEBHOOK_SECRET)
  --webhook-wait SECONDS the longest wait after the requests for events still to come (default 30)
  --junit FILE           write a JUnit XML report
  --report FILE          write a Markdown report
  --help                 this text

Checks:
${CHECK_NAMES.map((name) => `  ${name.padEnd(30)} ${CHECKS[name]}`).join('\n')}

Exit status: 0 every answer agreed with the document; 1 some did not; 2 a usage error or a server
that cannot be reached.`

function usage(message: string): never {
  console.error(`plant-store-verify: ${message} (see --help)`)
  process.exit(2)
}

let parsed: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string', multiple: true },
      spec: { type: 'string' },
      only: { type: 'string' },
      checks: { type: 'string' },
      'exclude-checks': { type: 'string' },
      requests: { type: 'string' },
      sequences: { type: 'string' },
      seed: { type: 'string' },
      case: { type: 'string' },
      path: { type: 'string' },
      'replay-path': { type: 'string' },
      'read-only': { type: 'boolean' },
      keep: { type: 'boolean' },
      'any-token': { type: 'boolean' },
      rate: { type: 'string' },
      'webhook-listen': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-wait': { type: 'string' },
      junit: { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: false,
  })
}
try {
  parsed = parse()
} catch (error) {
  usage((error as Error).message)
}
const { values } = parsed
if (values.help) {
  console.log(HELP)
  process.exit(0)
}

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
const positive = (name: string, text: string | undefined) => {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n <= 0) usage(`--${name} takes a positive whole number, not ${text}`)
  return n
}

const baseUrl = values['base-url'] ?? process.env.VERIFY_BASE_URL
if (!baseUrl) usage('no server to verify: give --base-url URL or VERIFY_BASE_URL')
const tokens = values.token?.length ? values.token : (list(process.env.VERIFY_TOKENS) ?? [])
if (tokens.length !== 2)
  usage(
    `two tokens of two principals are needed (--token A --token B or VERIFY_TOKENS=A,B); got ${tokens.length}`,
  )
const only = list(values.only)
for (const layer of only ?? [])
  if (!LAYERS.includes(layer as Layer)) usage(`unknown layer ${layer} (the layers: ${LAYERS.join(', ')})`)
const seed = values.seed === undefined ? undefined : Number(values.seed)
if (seed !== undefined && !Number.isSafeInteger(seed))
  usage(`--seed takes a whole number, not ${values.seed}`)

const webhookSecret = values['webhook-secret'] ?? process.env.VERIFY_WEBHOOK_SECRET
const webhookPort = values['webhook-listen']
if (webhookPort !== undefined) {
  const port = Number(webhookPort)
  if (!/^\d+$/.test(webhookPort) || port > 65535)
    usage(`--webhook-listen takes a port from 0 to 65535, not ${webhookPort}`)
  if (!webhookSecret)
    usage(
      '--webhook-listen needs the secret the server signs with: --webhook-secret or VERIFY_WEBHOOK_SECRET',
    )
} else if (values['webhook-secret'] !== undefined || values['webhook-wait'] !== undefined)
  usage('--webhook-secret and --webhook-wait go with --webhook-listen PORT')
const webhookWait = positive('webhook-wait', values['webhook-wait'])

const interactive = process.stderr.isTTY
let lastProgress = 0
try {
  const results = await verify({
    baseUrl,
    tokens: [tokens[0] as string, tokens[1] as string],
    ...(values.spec === undefined ? {} : { spec: values.spec }),
    ...(only ? { only: only as Layer[] } : {}),
    ...(values.checks === undefined ? {} : { checks: list(values.checks) ?? [] }),
    ...(values['exclude-checks'] === undefined
      ? {}
      : { excludeChecks: list(values['exclude-checks']) ?? [] }),
    ...(values.requests === undefined ? {} : { requests: positive('requests', values.requests) }),
    ...(values.sequences === undefined ? {} : { sequences: positive('sequences', values.sequences) }),
    ...(seed === undefined ? {} : { seed }),
    ...(values.case === undefined ? {} : { case: values.case }),
    ...(values.path === undefined ? {} : { path: values.path }),
    ...(values['replay-path'] === undefined ? {} : { replayPath: values['replay-path'] }),
    readOnly: values['read-only'] ?? false,
    keep: values.keep ?? false,
    anyToken: values['any-token'] ?? false,
    ...(values.rate === undefined ? {} : { rate: positive('rate', values.rate) }),
    ...(webhookPort === undefined
      ? {}
      : {
          webhook: {
            port: Number(webhookPort),
            secret: webhookSecret as string,
            ...(webhookWait === undefined ? {} : { waitMs: webhookWait * 1000 }),
          },
          // Said at once, whatever the terminal: with port 0 it is the only way to learn the address.
          onWebhookReceiver: (url: string) => console.error(`receiving newPlant events at ${url}`),
        }),
    command: `plant-store-verify --base-url ${baseUrl}`,
    onProgress: (line) => {
      // A progress line on a terminal only, at most a few times a second; CI logs get the result.
      if (!interactive || Date.now() - lastProgress < 200) return
      lastProgress = Date.now()
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 80) - 1)}`)
    },
  })
  if (interactive) process.stderr.write('\r\x1b[K')
  const seconds = (Date.now() - results.startedAt) / 1000
  console.log(results.table())
  const missing = results.notExercised()
  if (missing.length)
    console.log(`\nNot exercised (documented, never answered in this run): ${missing.join(', ')}`)
  for (const note of results.notes) console.log(`- ${note}`)
  for (const failure of results.distinctFailures()) console.log(`\n${results.failureText(failure)}`)
  if (values.junit) writeFileSync(values.junit, results.junit())
  if (values.report) writeFileSync(values.report, results.markdown(`Verification of ${baseUrl}`))
  console.log(
    `\n${results.failed ? `${results.failures.length} answer(s) departed from the document` : 'Every answer agreed with the document'}: ${results.requests} requests in ${seconds.toFixed(1)} s (seed ${results.seed}).`,
  )
  process.exitCode = results.failed ? 1 : 0
} catch (error) {
  if (interactive) process.stderr.write('\r\x1b[K')
  if (error instanceof VerifyUsageError) usage(error.message)
  throw error
}
